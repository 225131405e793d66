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
