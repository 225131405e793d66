## [dX, dW, db] = affine_rows_backward (dY, X, W): gradients of
## affine_rows given dY = dL/dY (n×c×Bt): dX n×a×Bt, dW a×c, db 1×c
## (summed over rows and batch).
function [dX, dW, db] = affine_rows_backward (dY, X, W)
  D = stack_rows (dY);                           # (n·Bt)×c
  dW = stack_rows (X)' * D;
  db = sum (D, 1);
  dX = unstack_rows (D * W', rows (X));
endfunction

%!test
%! ## forward page by page, backward against finite differences
%! randn ("state", 3);
%! X = randn (3, 4, 2);  W = randn (4, 5);  b = randn (1, 5);  R = randn (3, 5, 2);
%! f = @(X, W, b) sum (affine_rows (X, W, b)(:) .* R(:));
%! Y = affine_rows (X, W, b);
%! assert (Y(:,:,2), X(:,:,2) * W + b, 1e-14);
%! [dX, dW, db] = affine_rows_backward (R, X, W);
%! assert (dX, ref_findiff (@(x) f (x, W, b), X), 1e-8);
%! assert (dW, ref_findiff (@(w) f (X, w, b), W), 1e-8);
%! assert (db, ref_findiff (@(c) f (X, W, c), b), 1e-8);
