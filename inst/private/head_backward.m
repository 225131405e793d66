## [dX, dW, db] = head_backward (dlogits, X, W): gradients of head_forward.
function [dX, dW, db] = head_backward (dlogits, X, W)
  D = stack_rows (dlogits);                      # (n·Bt)×V
  dW = stack_rows (X)' * D;
  db = sum (D, 1);
  dX = unstack_rows (D * W', rows (X));
endfunction
