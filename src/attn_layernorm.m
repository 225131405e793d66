## -*- texinfo -*-
## @deftypefn  {} {[@var{Y}, @var{mu}, @var{sigma}, @var{xhat}] =} attn_layernorm (@var{X}, @var{gain}, @var{bias}, @var{epsilon})
## LayerNorm of every row, for attention layers.  Every row of @var{X}
## (n×d×P@dots{}) is normalised over its d entries, in the order of
## operations of the formula written in Octave (the same
## numbers bit for bit):
##
## @example
## @group
## mu = sum (X, 2) / d;   sigma = sqrt (sumsq (X - mu, 2) / d + epsilon);
## xhat = (X - mu) ./ sigma;   Y = xhat .* gain + bias
## @end group
## @end example
##
## @var{gain} and @var{bias} are 1×d, @var{epsilon} a scalar; @var{mu} and
## @var{sigma} are n×1×P@dots{}, @var{xhat} the shape of @var{X}.
## @code{attn_layernorm_backward} returns the gradients.
##
## Errors: @code{attention:type}, @code{attention:size},
## @code{attention:nargin}, @code{attention:nargout}.
##
## @example
## @group
## attn_layernorm ([1 2 3], [1 1 1], [0 0 0], 0)
##   @result{} ans =
##        -1.2247        0   1.2247
## @end group
## @end example
## @seealso{attn_layernorm_backward, attn_rows}
## @end deftypefn

%!test
%! ## the formula bit for bit
%! randn ("state", 5);
%! X = randn (3, 4, 2);  g = randn (1, 4);  b = randn (1, 4);
%! [Y, mu, sigma, xhat] = attn_layernorm (X, g, b, 1e-5);
%! m = sum (X, 2) / 4;  s = sqrt (sumsq (X - m, 2) / 4 + 1e-5);
%! assert (isequal (mu, m) && isequal (sigma, s) && isequal (xhat, (X - m) ./ s));
%! assert (isequal (Y, xhat .* g + b));
%! assert (attn_layernorm ([1 1 1], [1 1 1], [0 0 0], 1e-5), [0 0 0]);

%!test
%! ## the formula bit for bit in every layout the kernel runs apart: a page
%! ## of rows, one row a page (decoding steps: pages in groups of eight,
%! ## the last group short), one matrix
%! randn ("state", 6);
%! for sz = {[5 7 3], [1 7 11], [1 7 8], [9 7]}
%!   X = 3 * randn (sz{1});  g = randn (1, 7);  b = randn (1, 7);
%!   [Y, mu, sigma, xhat] = attn_layernorm (X, g, b, 1e-5);
%!   m = sum (X, 2) / 7;  s = sqrt (sumsq (X - m, 2) / 7 + 1e-5);
%!   assert (isequal (mu, m) && isequal (sigma, s) && isequal (xhat, (X - m) ./ s));
%!   assert (isequal (Y, xhat .* g + b));
%! endfor

%!error id=attention:size attn_layernorm (ones (2, 3), ones (1, 2), ones (1, 3), 1e-5)
%!error id=attention:type attn_layernorm (ones (2, 3), ones (1, 3), ones (1, 3), "x")
%!error id=attention:nargin attn_layernorm (ones (2, 3), ones (1, 3), ones (1, 3), 1e-5, "layernorm")
