## -*- texinfo -*-
## @deftypefn {} {[@var{loss}, @var{F}, @var{G}, @var{m}] =} my_train_step (@var{m}, @var{source}, @var{target}, @var{lr})
## Your training step of the seed 000 toy (see handout.md).
##
## @var{m}: the model (@code{attn_toy ("river")}); @var{source},
## @var{target}: one sentence pair; @var{lr}: the learning rate.  Return
## the loss, the forward pass @var{F}, the gradients @var{G} and the model
## @var{m} after one SGD step on the vocabulary head and the last
## cross-attention block.
## @end deftypefn

function [loss, F, G, m] = my_train_step (m, source, target, lr)
  tr = attn_forward (m, source, target);
  D = tr.decoder(end).after_self;                # n×d: the cross block's queries
  E = tr.encoded;                                # m×d: the source rows
  B = m.decoder(end).cross;
  labels = [attn_encode(m.tgt_vocab, target), m.tgt_vocab.eos];

  ## 1. Forward: the cross block (F.Q ... F.out), then F.logits, F.probs
  ##    and the mean cross-entropy loss.

  ## 2. Backward: G.dlogits, the head (G.W_vocab, G.b_vocab, G.dout), then
  ##    the cross block (G.W_O, G.dmessage, G.dA, G.dV, G.W_V, G.dscores,
  ##    G.dQ, G.dK, G.W_Q, G.W_K, G.dD, G.dE).

  ## 3. One SGD step: W <- W - lr*G.W for the head and the cross block.

  error ("my_train_step: not written yet (see handout.md)");
endfunction
