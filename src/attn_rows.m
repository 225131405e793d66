## -*- texinfo -*-
## @deftypefn  {} {@var{Y} =} attn_rows (@var{X}, @var{W})
## @deftypefnx {} {@var{Y} =} attn_rows (@var{X}, @var{W}, @var{b})
## Rows times a matrix, for attention layers.  Every row times one
## matrix, on the n×a×Bt layout the attention blocks take, with no change
## of layout: the FFN, the vocabulary and class heads, the pooled designs'
## fusion.
##
## @example
## @group
## Y(:,:,k) = X(:,:,k) * W + b            # every page k
## @end group
## @end example
##
## @var{X} is n×a×P@dots{} (the trailing dimensions are pages of rows),
## @var{W} a×c, @var{b} 1×c.  The product is one dgemm over all n·P rows,
## stacked page after page: the result is that of the same product written
## on the stacked rows in Octave (@code{R = reshape (permute (X, [1 3 2]),
## [], a)}, then @code{R*W + b}) whenever Octave calls dgemm for it (more
## than one row and one column).  Inf and NaN pass through as in
## @code{X*W}.  @code{attn_rows_backward} returns its gradients.
##
## Errors: @code{attention:type} (an argument not a real full double or single array),
## @code{attention:size} (shapes that do not agree),
## @code{attention:nargin}, @code{attention:nargout}.
##
## @example
## @group
## X = reshape (1:12, 2, 3, 2);
## attn_rows (X, eye (3), [10 20 30])(:,:,2)
##   @result{} ans =
##        17   29   41
##        18   30   42
## @end group
## @end example
## @seealso{attn_rows_backward, attn_layernorm, attn_self}
## @end deftypefn

%!test
%! ## against the product page by page
%! randn ("state", 3);
%! X = randn (3, 4, 2);  W = randn (4, 5);  b = randn (1, 5);
%! Y = attn_rows (X, W, b);
%! for k = 1:2
%!   assert (Y(:,:,k), X(:,:,k) * W + b, 1e-14);
%! endfor
%! assert (attn_rows (X, W), Y - b, 1e-14);

%!test
%! ## bit for bit the product on the stacked rows
%! randn ("state", 4);
%! X = randn (7, 6, 5);  W = randn (6, 3);  b = randn (1, 3);
%! S = reshape (permute (X, [1 3 2]), [], 6);
%! assert (isequal (attn_rows (X, W, b), permute (reshape (S * W + b, 7, 5, 3), [1 3 2])));

%!test
%! ## one page, one row, no rows, a 4-D batch
%! W = [1 2; 3 4];
%! assert (attn_rows ([1 1], W), [4 6]);
%! assert (size (attn_rows (zeros (0, 2, 3), W)), [0 2 3]);
%! X = rand (2, 2, 2, 3);
%! assert (attn_rows (X, W)(:,:,2,3), X(:,:,2,3) * W, 1e-15);
%! assert (attn_rows ([Inf 0], W), [Inf Inf]);

%!error id=attention:size attn_rows (ones (2, 3), ones (2, 2))
%!error id=attention:size attn_rows (ones (2, 2), ones (2, 2), ones (1, 3))
%!error id=attention:type attn_rows (single (ones (2)), ones (2))
%!error id=attention:type attn_rows (ones (2), sparse (ones (2)))
%!error id=attention:nargin attn_rows (ones (2), ones (2), ones (1, 2), "backward")
