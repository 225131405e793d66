## tr = add_labels (tr, m): token names for the trace's rows and columns:
## source_labels, target_labels (cells shaped like the ids: one column per
## batch item), vocab_labels (1×V).
function tr = add_labels (tr, m)
  if (isfield (tr, "source_ids"))       # a one-stack family has one side only
    tr.source_labels = reshape (m.src_vocab.words(tr.source_ids), size (tr.source_ids));
  endif
  if (isfield (tr, "target_ids"))
    tr.target_labels = reshape (m.tgt_vocab.words(tr.target_ids), size (tr.target_ids));
  endif
  tr.vocab_labels = m.tgt_vocab.words;
endfunction
