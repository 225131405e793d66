## tr = add_labels (tr, m): token names for the trace's rows and columns:
## source_labels, target_labels (shaped like the ids), vocab_labels.
function tr = add_labels (tr, m)
  tr.source_labels = m.src_vocab.words(tr.source_ids);
  tr.target_labels = m.tgt_vocab.words(tr.target_ids);
  tr.vocab_labels = m.tgt_vocab.words;
endfunction
