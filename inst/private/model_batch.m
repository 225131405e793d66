## batch = model_batch (m, sources, targets, fname): the one batch builder:
## token ids of sentence pairs of any family, padded into columns.
## sources, targets: one sentence (string or ids) or a cell of N; targets
## {} for none.  Errors name fname, the function the user called.
## Fields (attn_batch documents them): src, src_allow (m×N), tgt_in,
## labels, tgt_allow (n×N); per family:
##   encoder-decoder, pooled: src = source <eos>; tgt_in = <bos> target,
##     labels = target <eos>
##   decoder-only: one sequence <bos> source target <eos> (a <bos>/<eos>
##     given around either part dropped): tgt_in all but the last token,
##     labels all but the first; src empty (0×N)
##   encoder-token: src = the words (no specials), labels one class each
##   encoder-sentence: src = [<cls>] words; labels 1×N (one class each)
##   encoder families: tgt_in empty (0×N); without targets the labels are
##     placeholders and tgt_allow is all false.
## Padding (the one rule, fill_id): <pad>, else <eos>, else id 1, under
## an allow mask that is false.
function batch = model_batch (m, sources, targets, fname)
  sources = as_sentences (sources, fname);
  N = numel (sources);
  if (isempty (targets))
    targets = repmat ({zeros(1, 0)}, 1, N);
    labeled = false;
  else
    targets = as_sentences (targets, fname);
    if (numel (targets) != N)
      error ("attention:size", "%s: TARGETS must hold %d sentences like SOURCES, got %d",
             fname, N, numel (targets));
    endif
    labeled = true;
  endif
  vs = m.src_vocab;
  vt = m.tgt_vocab;
  fam = m.config.family;
  switch (fam)
    case "decoder-only"
      src = sentences_ids (vs, sources, "target", fname);
      tgt = sentences_ids (vt, targets, "target", fname);
      seq = cellfun (@(s, t) [vt.bos, s, t, vt.eos], src, tgt, "UniformOutput", false);
      batch.src = zeros (0, N);
      batch.src_allow = false (0, N);
      batch.tgt_in = pad_columns (cellfun (@(q) q(1:end-1), seq, "UniformOutput", false),
                                  fill_id (vt));
      [batch.labels, batch.tgt_allow] = pad_columns (
        cellfun (@(q) q(2:end), seq, "UniformOutput", false), fill_id (vt));
    case {"encoder-token", "encoder-sentence"}
      src = sentences_ids (vs, sources, "target", fname);
      tgt = sentences_ids (vt, targets, "target", fname);
      labeled = labeled && ! all (cellfun (@isempty, tgt));
      if (strcmp (fam, "encoder-token"))
        len = cellfun (@numel, src);
        if (! labeled)
          tgt = arrayfun (@(n) ones (1, n), len, "UniformOutput", false);
        endif
        bad = find (len != cellfun (@numel, tgt), 1);
        if (! isempty (bad))
          error ("attention:size",
                 "%s: pair %d has %d words but %d labels; the token classifier needs one label per word",
                 fname, bad, len(bad), numel (tgt{bad}));
        endif
        [batch.src, batch.src_allow] = pad_columns (src, fill_id (vs));
        batch.labels = pad_columns (tgt, fill_id (vt));
        batch.tgt_allow = batch.src_allow & labeled;
      else
        if (labeled && any (cellfun (@numel, tgt) != 1))
          error ("attention:size", "%s: the sentence classifier needs one label per sentence",
                 fname);
        endif
        if (strcmp (m.config.readout, "cls"))
          cls = find (strcmp (vs.words, "<cls>"));
          src = cellfun (@(s) [cls, s], src, "UniformOutput", false);
        endif
        [batch.src, batch.src_allow] = pad_columns (src, fill_id (vs));
        batch.labels = ones (1, N);
        batch.tgt_allow = false (1, N);
        if (labeled)
          batch.labels = [tgt{:}];
          batch.tgt_allow(:) = true;
        endif
      endif
      batch.tgt_in = zeros (0, N);
    otherwise                                  # encoder-decoder, pooled
      src = sentences_ids (vs, sources, "source", fname);
      [batch.src, batch.src_allow] = pad_columns (src, fill_id (vs));
      tgt = sentences_ids (vt, targets, "target", fname);
      batch.tgt_in = pad_columns (cellfun (@(y) [vt.bos, y], tgt, "UniformOutput", false),
                                  fill_id (vt));
      [batch.labels, batch.tgt_allow] = pad_columns (
        cellfun (@(y) [y, vt.eos], tgt, "UniformOutput", false), fill_id (vt));
  endswitch
endfunction

## One sentence (string or ids) or a cell array of sentences -> 1×N cell.
function s = as_sentences (s, fname)
  if (ischar (s) || isnumeric (s))
    s = {s};
  elseif (! iscell (s))
    error ("attention:type",
           "%s: sentences must be a cell array of sentences, a string or ids, got %s",
           fname, class (s));
  endif
  s = s(:)';
endfunction

## the id padded places hold: <pad>, else <eos>, else 1 (a class vocabulary)
function id = fill_id (v)
  id = v.pad;
  if (id == 0)
    id = v.eos;
  endif
  if (id == 0)
    id = 1;
  endif
endfunction

## [X, allow] = pad_columns (seqs, fill): 1×N cell of id rows -> X n×N (one
## sequence per column, n the longest, the rest filled with id `fill`) and
## allow n×N logical (true = real token).  n is at least 1: a batch of
## empty sentences is one row of padding (allow false), so every array of
## the pass keeps its batch dimension.
function [X, allow] = pad_columns (seqs, fill)
  len = cellfun (@numel, seqs);
  n = max ([len, 1]);
  allow = (1:n)' <= len;
  X = repmat (fill, n, numel (seqs));
  X(allow) = [seqs{:}];
endfunction
