## [dX, dW, db] = affine_rows_backward (dY, X, W): gradients of
## affine_rows given dY = dL/dY (n×c×Bt): dX n×a×Bt, dW a×c, db 1×c
## (summed over rows and batch).
function [dX, dW, db] = affine_rows_backward (dY, X, W)
  D = stack_rows (dY);                           # (n·Bt)×c
  dW = stack_rows (X)' * D;
  db = sum (D, 1);
  dX = unstack_rows (D * W', rows (X));
endfunction
