## Z = vocab_logits (m, x): the output head of a model on the rows it reads,
## x (n×d×Bt): Z = x*W + b (n×V×Bt, one product over the stacked rows), W
## and b being W_vocab, b_vocab for a model with a decoder and W_class,
## b_class for a classifier.  With tied embeddings (config tie_embeddings)
## the matrix is the token table's transpose (tgt_embed' for a vocabulary
## head, src_embed' for a token classifier, whose classes are then the
## words): x*table.' is one product that reads the table in place (a
## transposed copy of a 50,257×768 table at every call would cost more than
## the product).  Without a bias (head_bias false) none is added.
##
## [dx, dW, db] = vocab_logits (m, x, dZ): its gradients given dZ =
## dL/dZ: dx (n×d×Bt), dW (of W, or tied the table's share, V×d) and db
## (1×V, also when the head has no bias).
function [Z, dW, db] = vocab_logits (m, x, dZ)
  if (isfield (m, "tgt_embed"))
    names = {"W_vocab", "b_vocab", "tgt_embed"};
  else
    names = {"W_class", "b_class", "src_embed"};
  endif
  tied = m.config.tie_embeddings;
  if (nargin > 2)                             # the backward: Z holds dx
    if (tied)                                 # Z = x*table.' + b
      S = stack_rows (dZ);                    # (n·Bt)×V
      Z = unstack_rows (S * m.(names{3}), rows (dZ));
      dW = S.' * stack_rows (x);              # V×d
      db = sum (S, 1);
    else
      [Z, dW, db] = attn_rows_backward (dZ, x, m.(names{1}));
    endif
  elseif (tied)
    Z = unstack_rows (stack_rows (x) * m.(names{3}).', rows (x));
    if (isfield (m, names{2}))
      Z += m.(names{2});
    endif
  elseif (isfield (m, names{2}))
    Z = attn_rows (x, m.(names{1}), m.(names{2}));
  else
    Z = attn_rows (x, m.(names{1}));
  endif
endfunction
