## batch = model_batch (m, sources, targets, fname): the one batch builder:
## token ids of sentence pairs of any family, padded into columns.
## sources, targets: one sentence (string or ids) or a cell of N; targets
## {} for none.  Errors name fname, the function the user called.
## Fields (attn_batch documents them): src, src_allow (m×N), tgt_in,
## labels, tgt_allow (n×N); by the family's framing (model_family's batch):
##   pairs: src = source <eos>; tgt_in = <bos> target, labels = target <eos>
##   text: one sequence <bos> source target <eos> (a <bos>/<eos> given
##     around either part dropped): tgt_in all but the last token, labels
##     all but the first; src empty (0×N)
##   tokens: src = the words (no specials), labels one class each
##   sentence: src = [<cls>] words; labels 1×N (one class each)
##   tokens, sentence: tgt_in empty (0×N); without targets the labels are
##     placeholders and tgt_allow is all false.
## Padding (the one rule, fill_id): <pad>, else <eos>, else id 1, under
## an allow mask that is false.
##
## [corpus, L] = model_batch (m, sources, targets, fname) also gives, per
## column, the rows its source fields (L.src) and target fields (L.tgt)
## take; batch = model_batch (corpus, L, pick) is then the batch of the
## pairs pick (columns sliced, each field cut to the longest of them, at
## least 1 row): the same as model_batch of those pairs, so that a corpus
## is encoded and padded once (attn_train).
function [batch, L] = model_batch (m, sources, targets, fname)
  if (nargin == 3)
    batch = slice_columns (m, sources, targets);
    return;
  endif
  sources = as_sentences (sources, fname);
  N = numel (sources);
  if (isempty (targets))
    targets = cell (1, N);
    targets(:) = {zeros(1, 0)};
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
  framing = model_family (m).batch;
  switch (framing)
    case "text"                                # <bos> source target <eos>
      src = sentences_ids (vs, sources, "target", fname, "source");
      tgt = sentences_ids (vt, targets, "target", fname, "target");
      seq = cellfun (@(s, t) [vt.bos, s, t, vt.eos], src, tgt, "UniformOutput", false);
      batch.src = zeros (0, N);
      batch.src_allow = false (0, N);
      batch.tgt_in = pad_columns (cellfun (@(q) q(1:end-1), seq, "UniformOutput", false),
                                  fill_id (vt));
      [batch.labels, batch.tgt_allow] = pad_columns (
        cellfun (@(q) q(2:end), seq, "UniformOutput", false), fill_id (vt));
    case {"tokens", "sentence"}                # a label a word, or one a sentence
      src = sentences_ids (vs, sources, "target", fname, "source");
      tgt = sentences_ids (vt, targets, "target", fname, "target");
      labeled = labeled && ! all (cellfun ("isempty", tgt));
      if (strcmp (framing, "tokens"))
        len = cellfun ("numel", src);
        if (! labeled)
          tgt = arrayfun (@(n) ones (1, n), len, "UniformOutput", false);
        endif
        bad = find (len != cellfun ("numel", tgt), 1);
        if (! isempty (bad))
          error ("attention:size",
                 "%s: pair %d has %d words but %d labels; the token classifier needs one label per word",
                 fname, bad, len(bad), numel (tgt{bad}));
        endif
        [batch.src, batch.src_allow] = pad_columns (src, fill_id (vs));
        batch.labels = pad_columns (tgt, fill_id (vt));
        batch.tgt_allow = batch.src_allow & labeled;
      else
        if (labeled && any (cellfun ("numel", tgt) != 1))
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
    case "pairs"                               # source; <bos> target; target <eos>
      src = sentences_ids (vs, sources, "source", fname, "source");
      [batch.src, batch.src_allow] = pad_columns (src, fill_id (vs));
      if (labeled)
        tgt = sentences_ids (vt, targets, "target", fname, "target");
        batch.tgt_in = pad_columns (cellfun (@(y) [vt.bos, y], tgt, "UniformOutput", false),
                                    fill_id (vt));
        [batch.labels, batch.tgt_allow] = pad_columns (
          cellfun (@(y) [y, vt.eos], tgt, "UniformOutput", false), fill_id (vt));
      else                                     # no targets (decoding): <bos> in, <eos> out
        batch.tgt_in = vt.bos + zeros (1, N);
        batch.labels = vt.eos + zeros (1, N);
        batch.tgt_allow = true (1, N);
      endif
  endswitch
  if (nargout > 1)
    L.src = sum (batch.src_allow, 1);
    L.tgt = sum (batch.tgt_allow, 1);
    if (strcmp (framing, "tokens"))             # the labels follow the words
      L.tgt = L.src;
    endif
  endif
endfunction

## the batch of the columns pick of a corpus batch C with row counts L
function b = slice_columns (C, L, pick)
  ns = min (rows (C.src), max ([L.src(pick), 1]));
  nt = max ([L.tgt(pick), 1]);
  b.src = C.src(1:ns, pick);
  b.src_allow = C.src_allow(1:ns, pick);
  b.tgt_in = C.tgt_in(1:min (nt, rows (C.tgt_in)), pick);
  b.labels = C.labels(1:nt, pick);
  b.tgt_allow = C.tgt_allow(1:nt, pick);
endfunction

## ids = sentences_ids (v, sentences, kind, fname, side): to_ids of every
## sentence of the 1×N cell SENTENCES, as a 1×N cell of id rows; v is the
## model's SIDE ("source" or "target") vocabulary (errors name it, and the
## sentence when N > 1).  The string
## sentences are looked up as one text and id rows are checked all at once,
## so a corpus costs one vocabulary search, not one per sentence.  Anything
## the fast path does not take (a cell array of words, an unknown word
## without <unk>, a bad id, text that is not UTF-8) goes through to_ids
## sentence by sentence, which raises the same errors in the same order.
function ids = sentences_ids (v, sentences, kind, fname, side)
  check_vocab (v, fname);
  text = cellfun ("isclass", sentences, "char") & cellfun ("size", sentences, 1) <= 1;
  numeric = cellfun ("isnumeric", sentences) & cellfun ("isreal", sentences);
  ids = false;
  if (numel (sentences) > 1 && all (text | numeric))   # one sentence: to_ids alone is quicker
    ids = encode_all (v, sentences, text, numeric);
  endif
  if (iscell (ids))
    ids = to_ids (v, ids, kind);
  else
    k = num2cell ((1:numel (sentences)) * (numel (sentences) > 1));
    ids = cellfun (@(s, k) to_ids (v, s, kind, fname, side, k), sentences, k, "UniformOutput", false);
  endif
endfunction

## The ids of every sentence (a cell), or false when one needs to_ids.
## The string sentences, a space after each, are one text for attn_encode;
## a word belongs to the sentence its first byte is in.  Any error sends
## the caller to to_ids.
function ids = encode_all (v, sentences, text, numeric)
  rows = sentences(numeric);                     # ids: each a row of doubles
  if (! (all (cellfun ("size", rows, 1) <= 1) && all (cellfun ("isclass", rows, "double"))))
    rows = cellfun (@(s) double (s(:)'), rows, "UniformOutput", false);
  endif
  T = sentences(text);
  bytes = cellfun ("numel", T);
  T(2,:) = {" "};
  joined = [T{:}];
  try
    found = attn_encode (v, joined);
    attn_encode (v, [rows{:}]);
  catch
    ids = false;
    return;
  end_try_catch
  begins = cumsum ([1, bytes(1:end-1) + 1]);      # each sentence's first byte in joined
  [~, starts] = text_words (joined);
  of = lookup (begins, starts);
  ids = cell (size (sentences));
  ids(text) = mat2cell (found, 1, full (sparse (1, of, 1, 1, numel (bytes))));
  ids(numeric) = rows;
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
  len = cellfun ("numel", seqs);
  n = max ([len, 1]);
  allow = (1:n)' <= len;
  X = fill + zeros (n, numel (seqs));
  X(allow) = [seqs{:}];
endfunction

## Without targets (decoding) the target fields are those of empty targets.
%!test
%! c = struct ("src_vocab", "a b c", "tgt_vocab", "x y", "d", 4, "heads", 2, "max_len", 8);
%! for m = {attn_model(c), attn_family(setfield (c, "family", "pooled-add"))}
%!   src = {"a b", "c", "", "b b c a"};
%!   assert (isequal (model_batch (m{1}, src, {}, "f"),
%!                    model_batch (m{1}, src, {"", "", "", ""}, "f")));
%!   assert (isequal (model_batch (m{1}, "a", {}, "f"), model_batch (m{1}, "a", "", "f")));
%! endfor

## Slicing a corpus batch gives model_batch of the pairs sliced, for every
## family: random subsets of pairs of mixed lengths, empty sentences
## included, compared with isequal.
%!test
%! rand ("seed", 5);
%! w = "raghav goes to school in delhi";
%! words = strsplit (w);
%! pick_words = @(n) strjoin (words(randi (numel (words), 1, n)), " ");
%! src = arrayfun (@(n) pick_words (n), [3 0 5 1 6 2 4], "UniformOutput", false);
%! tgt = arrayfun (@(n) pick_words (n), [2 4 0 1 3 5 2], "UniformOutput", false);
%! base = struct ("d", 4, "heads", 2, "max_len", 12, "seed", 1);
%! c = base;  c.src_vocab = w;  c.tgt_vocab = w;
%! models = {attn_model(c), attn_family(setfield (c, "family", "pooled-prefix"))};
%! data = {{src, tgt}, {src, tgt}};
%! c = base;  c.vocab = w;  c.layers = 1;
%! models{end+1} = attn_family (setfield (c, "family", "decoder-only"));
%! data{end+1} = {src, tgt};
%! c.classes = {"A", "B"};
%! models{end+1} = attn_family (setfield (c, "family", "encoder-token"));
%! labels = cellfun (@(s) strjoin (repmat ({"A"}, 1, numel (regexp (s, '\S+', "match"))), " "),
%!                   src, "UniformOutput", false);
%! data{end+1} = {src, labels};
%! models{end+1} = attn_family (setfield (setfield (c, "family", "encoder-sentence"), "readout", "cls"));
%! data{end+1} = {src, repmat({"B"}, 1, numel (src))};
%! for k = 1:numel (models)
%!   [C, L] = model_batch (models{k}, data{k}{1}, data{k}{2}, "f");
%!   for pick = {[1 3], [2], [5 4 2], [7 6 5 4 3 2 1], [2 2]}
%!     want = model_batch (models{k}, data{k}{1}(pick{1}), data{k}{2}(pick{1}), "f");
%!     assert (isequal (model_batch (C, L, pick{1}), want), sprintf ("model %d", k));
%!   endfor
%! endfor
