## Z = vocab_logits (m, x): the vocabulary head of a model with a decoder on
## its rows x (n×d×Bt): Z = x*W_vocab + b_vocab (n×V×Bt, one product over
## the stacked rows).  With tied embeddings (config tie_embeddings) the
## matrix is tgt_embed': x*tgt_embed.' is one product that reads the table
## in place (a transposed copy of a 50,257×768 table at every call would
## cost more than the product).  Without a head bias (head_bias false) no
## bias is added.
function Z = vocab_logits (m, x)
  if (m.config.tie_embeddings)
    Z = unstack_rows (stack_rows (x) * m.tgt_embed.', rows (x));
    if (isfield (m, "b_vocab"))
      Z += m.b_vocab;
    endif
  elseif (isfield (m, "b_vocab"))
    Z = attn_rows (x, m.W_vocab, m.b_vocab);
  else
    Z = attn_rows (x, m.W_vocab);
  endif
endfunction
