## Grader for the assignment "one training step of the seed 000 toy"
## (see handout.md).
## Submission: my_train_step.m
## Forbidden: attn_loss, attn_sgd, attn_adam, attn_train, attn_cross, attn_backward, attn_sdpa
## Forbidden: attn_sdpa_backward, attn_softmax, attn_softmax_backward
## Forbidden: attn_ref_block, attn_ref_block_backward, attn_ref_sdpa, attn_ref_sdpa_backward
##
##   attn_grade ("grade_train_step.m", "my/work/folder")
## runs every test and prints "k of N tests, p of P points".  Your numbers
## are compared with the package's attn_forward, attn_loss, attn_backward,
## attn_ref_block_backward and attn_sgd (through attn_compare); a failing test names the first wrong quantity in the
## order of the computation and the others that differ.

## attn_toy ("river") fits the toy each time it is called: once is enough
%!function m = toy ()
%!  persistent river
%!  if (isempty (river))
%!    river = attn_toy ("river");
%!  endif
%!  m = river;
%!endfunction

%!function m = two_heads ()
%!  river = toy ();
%!  c = struct ("d", 4, "heads", 2, "d_ff", 0, "norm", "none", "max_len", 8,
%!              "encoder_layers", 1, "decoder_layers", 1, "seed", 3);
%!  c.src_vocab = river.src_vocab;
%!  c.tgt_vocab = river.tgt_vocab;
%!  m = attn_model (c);
%!endfunction

## every zero but the head and the last cross block: the gradient the step uses
%!function G = head_and_cross (G)
%!  for f = fieldnames (G)'
%!    if (isstruct (G.(f{1})))
%!      G.(f{1}) = arrayfun (@head_and_cross, G.(f{1}));
%!    else
%!      G.(f{1}) = zeros (size (G.(f{1})));
%!    endif
%!  endfor
%!endfunction

## The reference: [loss, F, G, m] from the package
%!function [loss, F, G, m1] = reference (m, source, target, lr)
%!  [loss, Gm] = attn_loss (m, source, target);
%!  tr = attn_forward (m, source, target);
%!  T = tr.decoder(end).cross;
%!  B = m.decoder(end).cross;
%!  F = struct ("Q", T.Q, "K", T.K, "V", T.V, "scores", T.scores, "A", T.A,
%!              "message", T.message, "delta", T.delta, "out", T.out,
%!              "logits", tr.logits, "probs", tr.probs);
%!  labels = [attn_encode(m.tgt_vocab, target), m.tgt_vocab.eos];
%!  n = numel (labels);
%!  onehot = full (sparse (1:n, labels, 1, n, columns (tr.probs)));
%!  G.dlogits = (tr.probs - onehot) / n;
%!  G.W_vocab = Gm.W_vocab;
%!  G.b_vocab = Gm.b_vocab;
%!  G.dout = G.dlogits * m.W_vocab';
%!  Gb = attn_backward (G.dout, T, B);
%!  Gc = Gm.decoder(end).cross;
%!  [G.W_Q, G.W_K, G.W_V, G.W_O, G.dD, G.dE] = deal (Gc.W_Q, Gc.W_K, Gc.W_V, Gc.W_O, Gb.dD, Gb.dE);
%!  [~, D] = attn_ref_block_backward (G.dout, T, B);     # the trace's backward side
%!  [G.dmessage, G.dA, G.dscores, G.dQ, G.dK, G.dV] = deal (D.message, D.A, D.scores, D.Q, D.K, D.V);
%!  Gstep = head_and_cross (Gm);
%!  Gstep.W_vocab = Gm.W_vocab;
%!  Gstep.b_vocab = Gm.b_vocab;
%!  Gstep.decoder(end).cross = rmfield (Gc, setdiff (fieldnames (Gc), {"W_Q", "W_K", "W_V", "W_O"}));
%!  m1 = attn_sgd (m, Gstep, lr);
%!endfunction

## the reference of each case once per grading (the tests share cases)
%!function ref = cached_reference (m, source, target, lr)
%!  persistent seen
%!  if (isempty (seen))
%!    seen = struct ("key", {}, "ref", {});
%!  endif
%!  key = sprintf ("%s|%s|%.17g|%.17g|%d", source, target, lr,
%!                 sum (m.W_vocab(:)) + sum (m.decoder(end).cross.W_Q(:)), m.config.heads);
%!  k = find (strcmp ({seen.key}, key), 1);
%!  if (isempty (k))
%!    ref = cell (1, 4);
%!    [ref{:}] = reference (m, source, target, lr);
%!    seen(end+1) = struct ("key", key, "ref", {ref});
%!  else
%!    ref = seen(k).ref;
%!  endif
%!endfunction

## WHAT: "loss", "F", "G" or "m"; FIELDS: the ones to compare (all when empty)
%!function check (m, source, target, lr, what, fields, tol)
%!  if (nargin < 7)
%!    tol = 1e-10;
%!  endif
%!  got = cell (1, 4);
%!  ref = cell (1, 4);
%!  [got{:}] = my_train_step (m, source, target, lr);
%!  ref = cached_reference (m, source, target, lr);
%!  k = find (strcmp (what, {"loss", "F", "G", "m"}));
%!  if (isempty (fields))
%!    attn_compare (ref{k}, got{k}, tol, "name", what);
%!  else
%!    attn_compare (ref{k}, got{k}, tol, "fields", fields);
%!  endif
%!endfunction

## the forward pass of the cross block (2 points)
%!test
%! check (toy (), "the river bank", "la rive", 0.1, "F",
%!        {"Q", "K", "V", "scores", "A", "message", "delta", "out"});

## the logits and probabilities of the vocabulary head
%!test
%! check (toy (), "the river bank", "la rive", 0.1, "F", {});

## the loss is attn_loss's mean cross-entropy
%!test
%! check (toy (), "the river bank", "la rive", 0.1, "loss", {});

## the head's gradients: dlogits, W_vocab, b_vocab (2 points)
%!test
%! check (toy (), "the river bank", "la rive", 0.1, "G",
%!        {"dlogits", "W_vocab", "b_vocab"});

## the cross block's weight gradients are attn_loss's (2 points)
%!test
%! check (toy (), "the river bank", "la rive", 0.1, "G",
%!        {"W_Q", "W_K", "W_V", "W_O"});

## every gradient on the way, down to dD and dE (2 points)
%!test
%! check (toy (), "the river bank", "la rive", 0.1, "G", {});

## the SGD step is attn_sgd's on the head and the cross block only (2 points)
%!test
%! check (toy (), "the river bank", "la rive", 0.1, "m", {});
%! check (toy (), "the river bank", "la rive", 2.5, "m", {});

## a small step lowers the loss
%!test
%! m = toy ();
%! before = attn_loss (m, "the financial bank", "la banque");
%! [~, ~, ~, m1] = my_train_step (m, "the financial bank", "la banque", 0.05);
%! after = attn_loss (m1, "the financial bank", "la banque");
%! assert (after < before, "the loss went from %.6g to %.6g", before, after);

## large logits and scores, 1e3 and more: no overflow, no NaN (2 points)
%!test
%! m = toy ();
%! m.W_vocab *= 1000;
%! m.decoder(end).cross.W_Q *= 300;
%! check (m, "the river bank", "la rive", 1e-3, "loss", {}, 1e-9);
%! check (m, "the river bank", "la rive", 1e-3, "F", {}, 1e-9);
%! check (m, "the river bank", "la rive", 1e-3, "G", {}, 1e-9);

## two heads, width 4 (2 points)
%!test
%! m = two_heads ();
%! check (m, "the river bank", "la rive", 0.1, "F", {});
%! check (m, "the river bank", "la rive", 0.1, "G", {});
%! check (m, "the river bank", "la rive", 0.1, "m", {});

## the other sentence pair
%!test
%! check (toy (), "the financial bank", "la banque", 0.1, "G", {});
%! check (toy (), "the financial bank", "la banque", 0.1, "loss", {});

## the steps you write call no package function that does them
%!test
%! ## (the header's Forbidden: line makes such a call an error)
%! [~] = my_train_step (toy (), "the river bank", "la rive", 0.1);
