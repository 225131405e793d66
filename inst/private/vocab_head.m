## [W, b] = vocab_head (m): the vocabulary head of a model with a decoder,
## logits = rows*W + b: W (d×V) is m.W_vocab, or the target embeddings
## transposed when the config ties them (tie_embeddings); b (1×V) is
## m.b_vocab, or zeros when the config has no head bias (head_bias).
function [W, b] = vocab_head (m)
  if (m.config.tie_embeddings)
    W = m.tgt_embed.';
  else
    W = m.W_vocab;
  endif
  if (isfield (m, "b_vocab"))
    b = m.b_vocab;
  else
    b = zeros (1, columns (W));
  endif
endfunction
