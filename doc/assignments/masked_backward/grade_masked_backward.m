## Grader for the assignment "write the backward pass of the masked block"
## (see handout.md).
## Submission: my_masked_backward.m
## Forbidden: attn_backward, attn_sdpa_backward, attn_softmax_backward
## Forbidden: attn_ref_block_backward, attn_ref_sdpa_backward
##
##   attn_grade ("grade_masked_backward.m", "my/work/folder")
## runs every test and prints "k of N tests, p of P points".  Your
## gradients are compared with the package's attn_backward and
## attn_ref_block_backward (through attn_compare) and with central finite
## differences (through attn_gradcheck).  A failing comparison names the
## first wrong gradient in the order of the backward pass (W_O, dmessage,
## dA, dV, W_V, dscores, dQ, dK, W_Q, W_K, dX) and the others that differ.

%!function [X, B] = random_case (n, d, h, dk, dv, seed)
%!  randn ("state", seed);
%!  X = randn (n, d);
%!  B = struct ("W_Q", randn (d, h * dk) / sqrt (d), "W_K", randn (d, h * dk) / sqrt (d),
%!              "W_V", randn (d, h * dv), "W_O", randn (h * dv, d) / sqrt (h * dv), "heads", h);
%!endfunction

## the reference: the weight and input gradients from the package's kernel,
## the intermediate ones from its readable definition (the backward side
## of the trace, attn_ref_block_backward, which the tests hold to the kernels)
%!function G = reference (dY, T, B)
%!  G = attn_backward (dY, T, B);
%!  [~, D] = attn_ref_block_backward (dY, T, B);
%!  [G.dmessage, G.dA, G.dscores, G.dQ, G.dK, G.dV] = deal (D.message, D.A, D.scores, D.Q, D.K, D.V);
%!endfunction

## the loss L = sum (R .* Y) has dL/dY = R; P holds X and the weights
%!function [L, G] = weighted_loss (P, R)
%!  B = rmfield (P, "X");
%!  [Y, T] = attn_masked (P.X, B);
%!  L = sum (R(:) .* Y(:));
%!  G = my_masked_backward (R, T, B);
%!  G = struct ("W_Q", G.W_Q, "W_K", G.W_K, "W_V", G.W_V, "W_O", G.W_O, "dX", G.dX);
%!endfunction

## FIELDS: which gradients to compare (default: all of them)
%!function compare_with_kernel (n, d, h, dk, dv, seed, fields)
%!  [X, B] = random_case (n, d, h, dk, dv, seed);
%!  dY = randn (n, d);
%!  [~, T] = attn_masked (X, B);
%!  G = my_masked_backward (dY, T, B);
%!  ref = reference (dY, T, B);
%!  if (nargin < 7)
%!    fields = fieldnames (ref);
%!  endif
%!  attn_compare (ref, G, 1e-10, "fields", fields);
%!endfunction

%!function compare_with_differences (n, d, h, dk, dv, seed)
%!  [X, B] = random_case (n, d, h, dk, dv, seed);
%!  P = B;
%!  P.X = X;
%!  R = randn (n, d);
%!  [ok, ~, txt] = attn_gradcheck (@(Q) weighted_loss (Q, R), P);
%!  assert (ok, "gradients disagree with central differences:\n%s", txt);
%!endfunction

## the weight and input gradients, one head, seed 000's decoder shape (2 points)
%!test
%! compare_with_kernel (3, 3, 1, 3, 3, 1, {"W_Q", "W_K", "W_V", "W_O", "dX"});

## every intermediate gradient, one head (2 points)
%!test
%! compare_with_kernel (3, 3, 1, 3, 3, 1);
%! compare_with_kernel (4, 4, 1, 2, 3, 8);

## several heads, dk != dv != d (2 points)
%!test
%! compare_with_kernel (5, 6, 2, 4, 3, 2);
%! compare_with_kernel (4, 8, 4, 2, 2, 3);

## every parameter against central finite differences (2 points)
%!test
%! compare_with_differences (3, 3, 1, 3, 3, 4);
%! compare_with_differences (4, 6, 2, 2, 3, 5);

## large scores (1e3 and more): saturated weights, finite gradients
%!test
%! [X, B] = random_case (4, 4, 2, 2, 2, 9);
%! B.W_Q *= 1000;
%! dY = randn (4, 4);
%! [~, T] = attn_masked (X, B);
%! attn_compare (reference (dY, T, B), my_masked_backward (dY, T, B), 1e-9);

## causality: a loss on row 1 alone cannot reach rows 2..n of X
%!test
%! [X, B] = random_case (4, 6, 2, 3, 3, 6);
%! dY = zeros (4, 6);
%! dY(1,:) = randn (1, 6);
%! [~, T] = attn_masked (X, B);
%! G = my_masked_backward (dY, T, B);
%! assert (G.dX(2:end,:), zeros (3, 6), 1e-14);
%! attn_compare (reference (dY, T, B), G, 1e-10);

## one row: its only weight is 1 whatever the scores, so W_Q and W_K get none
%!test
%! [X, B] = random_case (1, 4, 2, 2, 2, 7);
%! [~, T] = attn_masked (X, B);
%! G = my_masked_backward (randn (1, 4), T, B);
%! assert (G.W_Q, zeros (4, 4), 1e-14);
%! assert (G.W_K, zeros (4, 4), 1e-14);
