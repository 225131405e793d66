## W = vocab_head (m): the d×V matrix of the vocabulary head of a model
## with a decoder (logits = rows*W + b_vocab): m.W_vocab, or the target
## embeddings transposed when the config ties them (tie_embeddings).
function W = vocab_head (m)
  if (m.config.tie_embeddings)
    W = m.tgt_embed.';
  else
    W = m.W_vocab;
  endif
endfunction
