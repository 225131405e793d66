## [Y, T] = ffn_forward (X, P): position-wise feed-forward sublayer with
## its residual, the same convention as the attention blocks:
##   pre = X*W_1 + b_1  (n×d_ff×Bt),  hidden = relu (pre),
##   delta = hidden*W_2 + b_2  (n×d×Bt),  Y = X + delta.
## T: X, pre, hidden, delta, out.
function [Y, T] = ffn_forward (X, P)
  n = rows (X);
  T.X = X;
  pre = stack_rows (X) * P.W_1 + P.b_1;
  hidden = max (pre, 0);
  T.pre = unstack_rows (pre, n);
  T.hidden = unstack_rows (hidden, n);
  T.delta = unstack_rows (hidden * P.W_2 + P.b_2, n);
  T.out = X + T.delta;
  Y = T.out;
endfunction
