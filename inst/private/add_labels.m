## tr = add_labels (tr, m [, written]): token names for the trace's rows
## and columns: source_labels, target_labels (cells shaped like the ids:
## one column per batch item), written_labels (the word each decoder row
## writes: the ids WRITTEN when given, e.g. the labels of teacher forcing,
## else the next token of the prefix and, at a sentence's last row, the
## model's most probable token), vocab_labels (1×V).
function tr = add_labels (tr, m, written)
  if (isfield (tr, "source_ids"))       # a one-stack family has one side only
    tr.source_labels = reshape (m.src_vocab.words(tr.source_ids), size (tr.source_ids));
  endif
  if (isfield (tr, "target_ids"))
    tr.target_labels = reshape (m.tgt_vocab.words(tr.target_ids), size (tr.target_ids));
    if (nargin < 3)
      [n, Bt] = size (tr.target_ids);
      written = [tr.target_ids(2:end,:); tr.target_ids(end,:)];
      [~, best] = max (tr.probs, [], 2);               # n×1×Bt
      last = sub2ind ([n, Bt], sum (tr.tgt_allow, 1), 1:Bt);
      written(last) = best(last);
    endif
    tr.written_labels = reshape (m.tgt_vocab.words(written), size (written));
  endif
  tr.vocab_labels = m.tgt_vocab.words;
endfunction
