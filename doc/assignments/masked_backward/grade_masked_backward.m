## Grader for the assignment "write the backward pass of the masked block"
## (see handout.md).
##
## Put your my_masked_backward.m and this folder on the path, then
##   test grade_masked_backward
## Your gradients are compared with the package's attn_backward (through
## attn_compare) and with central finite differences (through
## attn_gradcheck); a failing test names the first field and element that
## differ, or prints the per-parameter table of the gradient check.

%!function [X, B] = random_case (n, d, h, dk, dv, seed)
%!  randn ("state", seed);
%!  X = randn (n, d);
%!  B = struct ("W_Q", randn (d, h * dk) / sqrt (d), "W_K", randn (d, h * dk) / sqrt (d),
%!              "W_V", randn (d, h * dv), "W_O", randn (h * dv, d) / sqrt (h * dv), "heads", h);
%!endfunction

## the loss L = sum (R .* Y) has dL/dY = R; P holds X and the weights
%!function [L, G] = weighted_loss (P, R)
%!  B = rmfield (P, "X");
%!  [Y, T] = attn_masked (P.X, B);
%!  L = sum (R(:) .* Y(:));
%!  G = my_masked_backward (R, T, B);
%!endfunction

%!function compare_with_kernel (n, d, h, dk, dv, seed)
%!  [X, B] = random_case (n, d, h, dk, dv, seed);
%!  dY = randn (n, d);
%!  [~, T] = attn_masked (X, B);
%!  G = my_masked_backward (dY, T, B);
%!  attn_compare (attn_backward (dY, T, B), G, 1e-10);
%!endfunction

%!function compare_with_differences (n, d, h, dk, dv, seed)
%!  [X, B] = random_case (n, d, h, dk, dv, seed);
%!  P = B;
%!  P.X = X;
%!  R = randn (n, d);
%!  [ok, ~, txt] = attn_gradcheck (@(Q) weighted_loss (Q, R), P);
%!  assert (ok, "gradients disagree with central differences:\n%s", txt);
%!endfunction

## one head, seed 000's decoder shape: three target rows of width 3
%!test
%! compare_with_kernel (3, 3, 1, 3, 3, 1);

## several heads, dk != dv != d
%!test
%! compare_with_kernel (5, 6, 2, 4, 3, 2);
%! compare_with_kernel (4, 8, 4, 2, 2, 3);

## the same gradients against finite differences, every parameter
%!test
%! compare_with_differences (3, 3, 1, 3, 3, 4);
%! compare_with_differences (4, 6, 2, 2, 3, 5);

## causality: a loss on row 1 alone cannot reach rows 2..n of X
%!test
%! [X, B] = random_case (4, 6, 2, 3, 3, 6);
%! dY = zeros (4, 6);
%! dY(1,:) = randn (1, 6);
%! [~, T] = attn_masked (X, B);
%! G = my_masked_backward (dY, T, B);
%! assert (G.dX(2:end,:), zeros (3, 6), 0);

## one row: the only weight is 1 whatever the scores, so W_Q and W_K get no
## gradient
%!test
%! [X, B] = random_case (1, 4, 2, 2, 2, 7);
%! [~, T] = attn_masked (X, B);
%! G = my_masked_backward (randn (1, 4), T, B);
%! assert (G.W_Q, zeros (4, 4), 1e-14);
%! assert (G.W_K, zeros (4, 4), 1e-14);
