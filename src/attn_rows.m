## -*- texinfo -*-
## @deftypefn  {} {@var{Y} =} attn_rows (@var{X}, @var{W})
## @deftypefnx {} {@var{Y} =} attn_rows (@var{X}, @var{W}, @var{b})
## @deftypefnx {} {[@var{dX}, @var{dW}, @var{db}] =} attn_rows (@var{dY}, @var{X}, @var{W}, "backward")
## @deftypefnx {} {@var{s} =} attn_rows (@var{X}, "sum")
## @deftypefnx {} {[@var{Y}, @var{mu}, @var{sigma}, @var{xhat}] =} attn_rows (@var{X}, @var{gain}, @var{bias}, @var{epsilon}, "layernorm")
## @deftypefnx {} {[@var{dX}, @var{dgain}, @var{dbias}] =} attn_rows (@var{dY}, @var{xhat}, @var{sigma}, @var{gain}, "layernorm_backward")
## Rows times a matrix, and LayerNorm, for attention layers. The row-wise
## maps of the model layer on the n×a×Bt layout the attention blocks take,
## with no change of layout: every row times one matrix (FFN, vocabulary and
## class heads, the pooled designs' fusion), and LayerNorm.
##
## @example
## @group
## Y(:,:,k) = X(:,:,k) * W + b            # every page k
## dX(:,:,k) = dY(:,:,k) * W'
## dW = sum over k of X(:,:,k)' * dY(:,:,k)
## db = sum of every row of every page of dY      (1×c)
## s  = sum of every row of every page of X       (1×a)
## @end group
## @end example
##
## @var{X} is n×a×P@dots{} (the trailing dimensions are pages of rows),
## @var{W} a×c, @var{b} 1×c, @var{dY} n×c×P@dots{}.  Each product is one
## dgemm over all n·P rows, stacked page after page, and every sum over rows
## runs in that order: the results are those of the same product written
## on the stacked rows in Octave (@code{R = reshape (permute (X, [1 3 2]),
## [], a)}, then @code{R*W + b}, @code{R'*D}, @code{sum (D, 1)}) whenever
## Octave calls dgemm for it (more than one row and one column).  Inf and
## NaN pass through as in @code{X*W}.
##
## @qcode{"layernorm"} normalises every row over its d entries and its
## backward form returns the gradients, in the order of operations of the
## formula written in Octave (the same numbers bit for bit):
##
## @example
## @group
## mu = sum (X, 2) / d;   sigma = sqrt (sumsq (X - mu, 2) / d + epsilon);
## xhat = (X - mu) ./ sigma;   Y = xhat .* gain + bias
## g = dY .* gain;
## dX = (g - sum (g, 2) / d - xhat .* (sum (g .* xhat, 2) / d)) ./ sigma
## dgain, dbias: the sums of every row of dY .* xhat and of dY
## @end group
## @end example
##
## Errors: @code{attention:type} (an argument not a real full double array),
## @code{attention:size} (shapes that do not agree), @code{attention:option}
## (an unknown mode),
## @code{attention:nargin}, @code{attention:nargout}.
##
## @example
## @group
## X = reshape (1:12, 2, 3, 2);
## attn_rows (X, eye (3), [10 20 30])(:,:,2)
##   @result{} ans =
##        17   29   41
##        18   30   42
## attn_rows (X, "sum")
##   @result{} ans =
##        18   26   34
## @end group
## @end example
## @seealso{attn_self, attn_backward}
## @end deftypefn

%!test
%! ## against the product page by page and against finite differences
%! randn ("state", 3);
%! X = randn (3, 4, 2);  W = randn (4, 5);  b = randn (1, 5);  R = randn (3, 5, 2);
%! Y = attn_rows (X, W, b);
%! for k = 1:2
%!   assert (Y(:,:,k), X(:,:,k) * W + b, 1e-14);
%! endfor
%! assert (attn_rows (X, W), Y - b, 1e-14);
%! f = @(X, W, b) sum (attn_rows (X, W, b)(:) .* R(:));
%! [dX, dW, db] = attn_rows (R, X, W, "backward");
%! assert (dX, ref_findiff (@(x) f (x, W, b), X), 1e-8);
%! assert (dW, ref_findiff (@(w) f (X, w, b), W), 1e-8);
%! assert (db, ref_findiff (@(c) f (X, W, c), b), 1e-8);
%! assert (attn_rows (R, "sum"), sum (sum (R, 1), 3), 1e-14);

%!test
%! ## bit for bit the product on the stacked rows, sums in their order
%! randn ("state", 4);
%! X = randn (7, 6, 5);  W = randn (6, 3);  b = randn (1, 3);  dY = randn (7, 3, 5);
%! S = reshape (permute (X, [1 3 2]), [], 6);
%! D = reshape (permute (dY, [1 3 2]), [], 3);
%! assert (isequal (attn_rows (X, W, b), permute (reshape (S * W + b, 7, 5, 3), [1 3 2])));
%! [dX, dW, db] = attn_rows (dY, X, W, "backward");
%! assert (isequal (dX, permute (reshape (D * W', 7, 5, 6), [1 3 2])));
%! assert (isequal (dW, S' * D) && isequal (db, sum (D, 1)));
%! assert (isequal (attn_rows (X, "sum"), sum (S, 1)));

%!test
%! ## one page, one row, no rows, a 4-D batch
%! W = [1 2; 3 4];
%! assert (attn_rows ([1 1], W), [4 6]);
%! assert (size (attn_rows (zeros (0, 2, 3), W)), [0 2 3]);
%! [dX, dW, db] = attn_rows (zeros (0, 2, 3), zeros (0, 2, 3), W, "backward");
%! assert (size (dX), [0 2 3]);
%! assert (dW, zeros (2));
%! assert (db, zeros (1, 2));
%! X = rand (2, 2, 2, 3);
%! assert (attn_rows (X, W)(:,:,2,3), X(:,:,2,3) * W, 1e-15);
%! assert (attn_rows ([Inf 0], W), [Inf Inf]);

%!test
%! ## LayerNorm: the formula bit for bit, its gradients by finite differences
%! randn ("state", 5);
%! X = randn (3, 4, 2);  g = randn (1, 4);  b = randn (1, 4);  R = randn (3, 4, 2);
%! [Y, mu, sigma, xhat] = attn_rows (X, g, b, 1e-5, "layernorm");
%! m = sum (X, 2) / 4;  s = sqrt (sumsq (X - m, 2) / 4 + 1e-5);
%! assert (isequal (mu, m) && isequal (sigma, s) && isequal (xhat, (X - m) ./ s));
%! assert (isequal (Y, xhat .* g + b));
%! f = @(X, g, b) sum (attn_rows (X, g, b, 1e-5, "layernorm")(:) .* R(:));
%! [dX, dg, db] = attn_rows (R, xhat, sigma, g, "layernorm_backward");
%! assert (dX, ref_findiff (@(x) f (x, g, b), X), 1e-8);
%! assert (dg, ref_findiff (@(w) f (X, w, b), g), 1e-8);
%! assert (db, ref_findiff (@(c) f (X, g, c), b), 1e-8);
%! assert (attn_rows ([1 1 1], [1 1 1], [0 0 0], 1e-5, "layernorm"), [0 0 0]);

%!error id=attention:size attn_rows (ones (2, 3), ones (1, 2), ones (1, 3), 1e-5, "layernorm")
%!error id=attention:size attn_rows (ones (2, 3), ones (2, 2), ones (2, 1), ones (1, 3), "layernorm_backward")
%!error id=attention:size attn_rows (ones (2, 3), ones (2, 2))
%!error id=attention:size attn_rows (ones (2, 2), ones (2, 2), ones (1, 3))
%!error id=attention:size attn_rows (ones (2, 2, 2), ones (2, 2, 3), ones (2, 2), "backward")
%!error id=attention:type attn_rows (single (ones (2)), ones (2))
%!error id=attention:type attn_rows (ones (2), sparse (ones (2)))
%!error id=attention:option attn_rows (ones (2), "total")
%!error id=attention:nargin attn_rows (ones (2))
%!error id=attention:nargout [a, b] = attn_rows (ones (2), ones (2))
