## -*- texinfo -*-
## @deftypefn  {} {[@var{dX}, @var{dgain}, @var{dbias}] =} attn_layernorm_backward (@var{dY}, @var{xhat}, @var{sigma}, @var{gain})
## Gradients of attn_layernorm, for attention layers.  The gradients of
## @code{attn_layernorm} given @var{dY} = dL/dY
## (n×d×P@dots{}) and the forward pass's @var{xhat} (n×d×P@dots{}) and
## @var{sigma} (n×1×P@dots{}), in the order of operations of the formula
## written in Octave:
##
## @example
## @group
## g = dY .* gain;
## dX = (g - sum (g, 2) / d - xhat .* (sum (g .* xhat, 2) / d)) ./ sigma
## dgain, dbias: the sums of every row of dY .* xhat and of dY   (1×d)
## @end group
## @end example
##
## Errors: @code{attention:type}, @code{attention:size},
## @code{attention:nargin}, @code{attention:nargout}.
## @seealso{attn_layernorm}
## @end deftypefn

%!test
%! ## against finite differences of attn_layernorm
%! randn ("state", 5);
%! X = randn (3, 4, 2);  g = randn (1, 4);  b = randn (1, 4);  R = randn (3, 4, 2);
%! [~, ~, sigma, xhat] = attn_layernorm (X, g, b, 1e-5);
%! f = @(X, g, b) sum (attn_layernorm (X, g, b, 1e-5)(:) .* R(:));
%! [dX, dg, db] = attn_layernorm_backward (R, xhat, sigma, g);
%! assert (dX, ref_findiff (@(x) f (x, g, b), X), 1e-8);
%! assert (dg, ref_findiff (@(w) f (X, w, b), g), 1e-8);
%! assert (db, ref_findiff (@(c) f (X, g, c), b), 1e-8);

%!test
%! ## the formula bit for bit in every layout the kernel runs apart (a page
%! ## of rows, one row a page in groups of eight, one matrix); the sums
%! ## over rows page after page
%! randn ("state", 7);
%! for sz = {[5 7 3], [1 7 11], [1 7 8], [9 7]}
%!   X = randn (sz{1});  g = randn (1, 7);  dY = randn (sz{1});
%!   [~, ~, sigma, xhat] = attn_layernorm (X, g, zeros (1, 7), 1e-5);
%!   [dX, dg, db] = attn_layernorm_backward (dY, xhat, sigma, g);
%!   G = dY .* g;
%!   want = (G - sum (G, 2) / 7 - xhat .* (sum (G .* xhat, 2) / 7)) ./ sigma;
%!   assert (isequal (dX, want));
%!   rows_of = @(A) reshape (permute (A, [1 3 2]), [], 7);
%!   assert (isequal (dg, sum (rows_of (dY .* xhat), 1)) && isequal (db, sum (rows_of (dY), 1)));
%! endfor

%!error id=attention:size attn_layernorm_backward (ones (2, 3), ones (2, 2), ones (2, 1), ones (1, 3))
%!error id=attention:size attn_layernorm_backward (ones (2, 3), ones (2, 3), ones (2, 2), ones (1, 3))
