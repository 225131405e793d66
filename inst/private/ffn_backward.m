## [dX, G, none] = ffn_backward (dY, T, P): gradients of ffn_forward; dX
## includes the residual path (dY itself), like the attention kernels'
## backward.  The third output ([]) mirrors block_backward's key/value side.
function [dX, G, none] = ffn_backward (dY, T, P)
  none = [];
  n = rows (dY);
  ddelta = stack_rows (dY);                      # (n·Bt)×d
  hidden = stack_rows (T.hidden);
  dpre = (ddelta * P.W_2') .* (stack_rows (T.pre) > 0);   # hidden = relu (pre)
  G = struct ("W_1", stack_rows (T.X)' * dpre,   # pre = X*W_1 + b_1
              "b_1", sum (dpre, 1),
              "W_2", hidden' * ddelta,           # delta = hidden*W_2 + b_2
              "b_2", sum (ddelta, 1));
  dX = dY + unstack_rows (dpre * P.W_1', n);
endfunction

%!test
%! ## forward against the formula, backward against finite differences
%! randn ("state", 2);
%! X = randn (3, 4, 2);
%! P = struct ("W_1", randn (4, 5), "b_1", randn (1, 5), "W_2", randn (5, 4), "b_2", randn (1, 4));
%! R = randn (3, 4, 2);
%! f = @(X, P) sum (ffn_forward (X, P)(:) .* R(:));
%! [Y, T] = ffn_forward (X, P);
%! for b = 1:2
%!   assert (Y(:,:,b), X(:,:,b) + max (X(:,:,b) * P.W_1 + P.b_1, 0) * P.W_2 + P.b_2, 1e-13);
%! endfor
%! [dX, G] = ffn_backward (R, T, P);
%! assert (dX, ref_findiff (@(x) f (x, P), X), 1e-8);
%! for name = {"W_1", "b_1", "W_2", "b_2"}
%!   assert (G.(name{1}), ref_findiff (@(w) f (X, setfield (P, name{1}, w)), P.(name{1})), 1e-8);
%! endfor
