## -*- texinfo -*-
## @deftypefn {} {[@var{loss}, @var{F}, @var{G}, @var{m}] =} my_train_step (@var{m}, @var{source}, @var{target}, @var{lr})
## A wrong solution, for testing the grader: head j takes every h-th column instead of its own block.
##
## @var{F}: the forward pass (@code{Q} @dots{} @code{out} of the cross
## block, @code{logits}, @code{probs}); @var{G}: the gradients (@code{dlogits},
## @code{W_vocab}, @code{b_vocab}, @code{dout}, @code{W_O}, @code{dmessage},
## @code{dA}, @code{dV}, @code{W_V}, @code{dscores}, @code{dQ}, @code{dK},
## @code{W_Q}, @code{W_K}, @code{dD}, @code{dE}); @var{m}: the model after
## the step.
## @end deftypefn

function [loss, F, G, m] = my_train_step (m, source, target, lr)
  tr = attn_forward (m, source, target);
  D = tr.decoder(end).after_self;                # n×d: the cross block's queries
  E = tr.encoded;                                # m×d: the source rows
  B = m.decoder(end).cross;
  labels = [attn_encode(m.tgt_vocab, target), m.tgt_vocab.eos];
  n = rows (D);
  h = B.heads;
  dk = columns (B.W_Q) / h;
  dv = columns (B.W_V) / h;

  ## forward: the cross block
  F.Q = D * B.W_Q;
  F.K = E * B.W_K;
  F.V = E * B.W_V;
  F.scores = zeros (n, rows (E), h);
  F.A = zeros (n, rows (E), h);
  F.message = zeros (n, h * dv);
  for j = 1:h
    qk = j:h:h * dk;                             # wrong: interleaved
    vv = j:h:h * dv;
    S = F.Q(:,qk) * F.K(:,qk)' / sqrt (dk);      # n×m
    W = exp (S - max (S, [], 2));
    F.scores(:,:,j) = S;
    F.A(:,:,j) = W ./ sum (W, 2);
    F.message(:,vv) = F.A(:,:,j) * F.V(:,vv);
  endfor
  F.delta = F.message * B.W_O;
  F.out = D + F.delta;
  ## the vocabulary head and the loss
  F.logits = F.out * m.W_vocab + m.b_vocab;      # n×V
  Z = exp (F.logits - max (F.logits, [], 2));
  F.probs = Z ./ sum (Z, 2);
  picked = sub2ind (size (F.probs), (1:n)', labels(:));
  loss = -mean (log (F.probs(picked)));

  ## backward: the head
  onehot = zeros (size (F.probs));
  onehot(picked) = 1;
  G.dlogits = (F.probs - onehot) / n;
  G.W_vocab = F.out' * G.dlogits;
  G.b_vocab = sum (G.dlogits, 1);
  G.dout = G.dlogits * m.W_vocab';
  ## backward: the cross block (out = D + message*W_O)
  G.W_O = F.message' * G.dout;
  G.dmessage = G.dout * B.W_O';
  G.dA = zeros (size (F.A));
  G.dscores = zeros (size (F.A));
  G.dQ = zeros (size (F.Q));
  G.dK = zeros (size (F.K));
  G.dV = zeros (size (F.V));
  for j = 1:h
    qk = j:h:h * dk;
    vv = j:h:h * dv;
    A = F.A(:,:,j);
    dA = G.dmessage(:,vv) * F.V(:,vv)';
    G.dV(:,vv) = A' * G.dmessage(:,vv);
    dS = A .* (dA - sum (dA .* A, 2));
    G.dQ(:,qk) = dS * F.K(:,qk) / sqrt (dk);
    G.dK(:,qk) = dS' * F.Q(:,qk) / sqrt (dk);
    G.dA(:,:,j) = dA;
    G.dscores(:,:,j) = dS;
  endfor
  G.W_V = E' * G.dV;
  G.W_Q = D' * G.dQ;
  G.W_K = E' * G.dK;
  G.dD = G.dout + G.dQ * B.W_Q';
  G.dE = G.dK * B.W_K' + G.dV * B.W_V';

  ## one SGD step on the head and the cross block
  m.W_vocab -= lr * G.W_vocab;
  m.b_vocab -= lr * G.b_vocab;
  for w = {"W_Q", "W_K", "W_V", "W_O"}
    m.decoder(end).cross.(w{1}) -= lr * G.(w{1});
  endfor
endfunction
