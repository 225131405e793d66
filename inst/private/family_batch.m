## batch = family_batch (m, sources, targets): token ids of a decoder-only
## or encoder-family model (attn_family) in attn_batch's layout, from 1×N
## cells of sentences or id rows.
##   decoder-only: one sequence <bos> source target <eos> per pair (any
##     <bos>/<eos> given around either part dropped); tgt_in = all but the
##     last token, labels = all but the first, tgt_allow; src empty (0×N).
##   encoder-token: src = the words (no specials), labels = one class per
##     word (TARGETS are class names), tgt_allow = src_allow.
##   encoder-sentence: src = [<cls>] words; labels 1×N (one class each).
## tgt_in is empty (0×N) for the encoder families; without TARGETS the
## labels are placeholders and tgt_allow is all false.
function batch = family_batch (m, sources, targets, fname)
  N = numel (sources);
  src = sentences_ids (m.src_vocab, sources, "target", fname);
  if (isempty (targets))
    targets = repmat ({zeros(1, 0)}, 1, N);
  endif
  tgt = sentences_ids (m.tgt_vocab, targets, "target", fname);
  labeled = ! all (cellfun (@isempty, tgt));   # no labels: tgt_allow all false
  v = m.src_vocab;
  fill = max (v.pad, 1);
  switch (m.config.family)
    case "decoder-only"
      seq = cellfun (@(s, t) [v.bos, s, t, v.eos], src, tgt, "UniformOutput", false);
      batch.src = zeros (0, N);
      batch.src_allow = false (0, N);
      batch.tgt_in = pad_columns (cellfun (@(q) q(1:end-1), seq, "UniformOutput", false), fill);
      [batch.labels, batch.tgt_allow] = pad_columns (
        cellfun (@(q) q(2:end), seq, "UniformOutput", false), fill);
    case "encoder-token"
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
      [batch.src, batch.src_allow] = pad_columns (src, fill);
      batch.labels = pad_columns (tgt, 1);
      batch.tgt_allow = batch.src_allow & labeled;
      batch.tgt_in = zeros (0, N);
    case "encoder-sentence"
      if (labeled && any (cellfun (@numel, tgt) != 1))
        error ("attention:size", "%s: the sentence classifier needs one label per sentence",
               fname);
      endif
      if (strcmp (m.config.readout, "cls"))
        cls = find (strcmp (v.words, "<cls>"));
        src = cellfun (@(s) [cls, s], src, "UniformOutput", false);
      endif
      [batch.src, batch.src_allow] = pad_columns (src, fill);
      batch.labels = ones (1, N);
      batch.tgt_allow = false (1, N);
      if (labeled)
        batch.labels = [tgt{:}];
        batch.tgt_allow(:) = true;
      endif
      batch.tgt_in = zeros (0, N);
  endswitch
endfunction
