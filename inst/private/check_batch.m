## check_batch (m, batch, fname, need_labels): the checks of a batch before
## model m reads it, whether attn_batch made it or the user gave it:
##   attention:field  a field of attn_batch's missing (labels only when
##                    need_labels)
##   attention:type   ids not real numbers, masks not logical or 0/1
##   attention:size   ids and masks of different shapes, parts of a
##                    different number of columns (sentences), or a source
##                    or decoder input longer than its position table
##                    (m.src_pos, m.tgt_pos; for pooled-prefix the target
##                    table less the row the pooled source takes)
##   attention:vocab  ids that are not integers in 1..V of their vocabulary
## Only the parts the family reads are looked at: the source of every
## family with an encoder, the decoder input of every family with a
## decoder, labels (target ids, or class ids of a classifier: as many rows
## as the words, or one row) when need_labels.
function check_batch (m, batch, fname, need_labels)
  need = {"src", "src_allow", "tgt_in", "tgt_allow"};
  if (need_labels)
    need{end+1} = "labels";
  endif
  if (! isstruct (batch) || ! isscalar (batch) || ! all (isfield (batch, need)))
    error ("attention:field", "%s: BATCH must be a struct from attn_batch with fields %s",
           fname, strjoin (need, ", "));
  endif
  family = model_family (m);
  parts = {};                                # {ids, mask, vocabulary size}
  if (family.source)
    parts(end+1,:) = {"src", "src_allow", numel(m.src_vocab.words)};
  endif
  if (family.decoder)
    parts(end+1,:) = {"tgt_in", "tgt_allow", numel(m.tgt_vocab.words)};
  endif
  if (need_labels)
    parts(end+1,:) = {"labels", "tgt_allow", numel(m.tgt_vocab.words)};
  endif
  N = [];
  for i = 1:rows (parts)
    ids = batch.(parts{i,1});
    mask = batch.(parts{i,2});
    V = parts{i,3};
    if (! isnumeric (ids) || ! isreal (ids) || ndims (ids) != 2)
      error ("attention:type", "%s: BATCH.%s must be a real matrix of ids, got %s",
             fname, parts{i,1}, disp_arg (ids));
    endif
    if (! (islogical (mask) || (isnumeric (mask) && isreal (mask) && all (mask(:) == 0 | mask(:) == 1))))
      error ("attention:type", "%s: BATCH.%s must be a logical mask, got %s",
             fname, parts{i,2}, disp_arg (mask));
    endif
    if (! size_equal (ids, mask))
      error ("attention:size",
             "%s: BATCH ids and masks must agree in shape (%s %s, %s %s)", fname,
             parts{i,1}, shape_str (size (ids)), parts{i,2}, shape_str (size (mask)));
    endif
    if (isempty (N))
      N = columns (ids);
    elseif (columns (ids) != N)
      error ("attention:size", "%s: BATCH.%s must have %d columns (one a sentence) like BATCH.%s, got %d",
             fname, parts{i,1}, N, parts{1,1}, columns (ids));
    endif
    bad = find (! (ids(:) >= 1 & ids(:) <= V & ids(:) == fix (ids(:))), 1);
    if (! isempty (bad))
      error ("attention:vocab", "%s: BATCH.%s ids must be integers in 1..%d, got %s at %d",
             fname, parts{i,1}, V, disp_arg (ids(bad)), bad);
    endif
  endfor
  if (need_labels)
    switch (family.readout)                    # what the labels are of
      case "token"
        rows_of = "src";
      case "sentence"
        rows_of = "";
      case "vocab"
        rows_of = "tgt_in";
    endswitch
    want = 1;
    if (! isempty (rows_of))
      want = rows (batch.(rows_of));
    endif
    if (rows (batch.labels) != want)
      error ("attention:size", "%s: BATCH.labels must have %d rows, got %d", fname, want,
             rows (batch.labels));
    endif
  endif
  check_lengths (m, family, batch, fname);
endfunction

## error attention:size when a source or decoder input is longer than its
## position table; the message gives the true limits of the model
function check_lengths (m, family, batch, fname)
  k = 0;                                       # 0 or 1: it matters to the longest input only
  if (family.decoder && rows (batch.tgt_in) >= m.config.max_len)
    k = prefix_rows (m);
  endif
  if ((family.source && rows (batch.src) > m.config.max_len)
      || (family.decoder && rows (batch.tgt_in) > m.config.max_len - k))
    parts = {};                                # every side's limit in the message
    if (family.source)
      parts{end+1} = sprintf ("source <= %d tokens, got %d", m.config.max_len,
                              rows (batch.src));
    endif
    if (family.decoder)
      where = "";
      if (k > 0)
        where = ", position 1 holding the pooled source";
      endif
      parts{end+1} = sprintf ("decoder input <= %d tokens%s, got %d", m.config.max_len - k,
                              where, rows (batch.tgt_in));
    endif
    error ("attention:size", "%s: sequences must fit the position tables (%s)", fname,
           strjoin (parts, "; "));
  endif
endfunction

%!shared m, b
%! m = attn_toy ("river");
%! b = attn_batch (m, {"the bank", "the river bank"}, {"la rive", "la"});
%!test
%! check_batch (m, b, "f", true);
%! check_batch (m, rmfield (b, "labels"), "f", false);
%!error <f: BATCH must be a struct from attn_batch with fields src, src_allow, tgt_in, tgt_allow, labels> check_batch (m, rmfield (b, "labels"), "f", true)
%!error <f: BATCH ids and masks must agree in shape \(src 4×2, src_allow 3×2\)> check_batch (m, setfield (b, "src_allow", b.src_allow(1:3,:)), "f", false)
%!error <f: BATCH.tgt_in must have 2 columns> check_batch (m, setfield (setfield (b, "tgt_in", b.tgt_in(:,1)), "tgt_allow", b.tgt_allow(:,1)), "f", false)
%!error <f: BATCH.src ids must be integers in 1..5, got 9 at 3> check_batch (m, setfield (b, "src", [1 1; 1 1; 9 1; 1 1]), "f", false)
%!error <f: BATCH.labels ids must be integers in 1..5, got NaN> check_batch (m, setfield (b, "labels", NaN (size (b.labels))), "f", true)
%!error <f: BATCH.src must be a real matrix of ids> check_batch (m, setfield (b, "src", "ab"), "f", false)
%!error <f: BATCH.src_allow must be a logical mask> check_batch (m, setfield (b, "src_allow", 2 * b.src_allow), "f", false)
%!test
%! s = attn_family (struct ("family", "encoder-sentence", "vocab", "a b", "classes", {{"p", "q"}},
%!                        "readout", "mean", "d", 4, "heads", 2, "layers", 1));
%! c = attn_batch (s, {"a b", "b"}, {"p", "q"});
%! check_batch (s, c, "f", true);
%! fail ('check_batch (s, setfield (setfield (c, "labels", [1 2; 1 2]), "tgt_allow", true (2)), "f", true)',
%!       "f: BATCH.labels must have 1 rows, got 2");
%! fail ('check_batch (s, setfield (c, "labels", [1 3]), "f", true)',
%!       "f: BATCH.labels ids must be integers in 1..2, got 3 at 2");
%!error <f: sequences must fit the position tables \(source <= 8 tokens, got 9; decoder input <= 8 tokens, got 3\)> check_batch (m, setfield (setfield (b, "src", ones (9, 2)), "src_allow", true (9, 2)), "f", false)
