## -*- texinfo -*-
## @deftypefn  {} {[@var{dX}, @var{dW}, @var{db}] =} attn_rows_backward (@var{dY}, @var{X}, @var{W})
## Gradients of attn_rows, for attention layers.  The gradients of
## @code{Y = attn_rows (X, W, b)} given @var{dY} = dL/dY.
##
## @example
## @group
## dX(:,:,k) = dY(:,:,k) * W'            # every page k
## dW = sum over k of X(:,:,k)' * dY(:,:,k)
## db = sum of every row of every page of dY      (1×c)
## @end group
## @end example
##
## @var{dY} is n×c×P@dots{}, @var{X} n×a×P@dots{} (the same pages),
## @var{W} a×c.  Each product is one dgemm over all n·P rows, stacked page
## after page, and the sum over rows runs in that order: the results are
## those of @code{D*W'}, @code{R'*D} and @code{sum (D, 1)} written on the
## stacked rows @code{R}, @code{D} in Octave.
##
## Errors: @code{attention:type}, @code{attention:size},
## @code{attention:nargin}, @code{attention:nargout}.
## @seealso{attn_rows}
## @end deftypefn

%!test
%! ## against finite differences of attn_rows
%! randn ("state", 3);
%! X = randn (3, 4, 2);  W = randn (4, 5);  b = randn (1, 5);  R = randn (3, 5, 2);
%! f = @(X, W, b) sum (attn_rows (X, W, b)(:) .* R(:));
%! [dX, dW, db] = attn_rows_backward (R, X, W);
%! assert (dX, ref_findiff (@(x) f (x, W, b), X), 1e-8);
%! assert (dW, ref_findiff (@(w) f (X, w, b), W), 1e-8);
%! assert (db, ref_findiff (@(c) f (X, W, c), b), 1e-8);

%!test
%! ## bit for bit the products on the stacked rows, the sum in their order
%! randn ("state", 4);
%! X = randn (7, 6, 5);  W = randn (6, 3);  dY = randn (7, 3, 5);
%! S = reshape (permute (X, [1 3 2]), [], 6);
%! D = reshape (permute (dY, [1 3 2]), [], 3);
%! [dX, dW, db] = attn_rows_backward (dY, X, W);
%! assert (isequal (dX, permute (reshape (D * W', 7, 5, 6), [1 3 2])));
%! assert (isequal (dW, S' * D) && isequal (db, sum (D, 1)));

%!test
%! ## no rows
%! [dX, dW, db] = attn_rows_backward (zeros (0, 2, 3), zeros (0, 2, 3), [1 2; 3 4]);
%! assert (size (dX), [0 2 3]);
%! assert (dW, zeros (2));
%! assert (db, zeros (1, 2));

%!error id=attention:size attn_rows_backward (ones (2, 2, 2), ones (2, 2, 3), ones (2, 2))
%!error id=attention:nargin attn_rows_backward (ones (2), ones (2), ones (2), "backward")
