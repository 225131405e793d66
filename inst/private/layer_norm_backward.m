## [dX, G] = layer_norm_backward (dY, N, P): gradients of layer_norm.
## G.gain, G.bias 1×d (summed over rows and batch); dX n×d×Bt:
##   with g = dY .* gain:  dX = (g - sum (g, 2)/d - xhat .* (sum (g .* xhat, 2)/d)) ./ sigma
## (xhat = (X - mu)/sigma: the mean and the xhat-direction parts removed),
## one pass in attn_layernorm_backward.
function [dX, G] = layer_norm_backward (dY, N, P)
  [dX, G.gain, G.bias] = attn_layernorm_backward (dY, N.xhat, N.sigma, P.gain);
endfunction

%!shared X, P, R, f
%! randn ("state", 1);
%! X = randn (3, 4, 2);
%! P = struct ("gain", randn (1, 4), "bias", randn (1, 4));
%! R = randn (3, 4, 2);                      # L = sum (R .* Y)
%! f = @(X, P) sum (layer_norm (X, P)(:) .* R(:));

%!test
%! ## forward against the formula: epsilon inside the square root
%! mu = mean (X, 2);
%! Y = (X - mu) ./ sqrt (mean ((X - mu) .^ 2, 2) + 1e-5) .* P.gain + P.bias;
%! assert (layer_norm (X, P), Y, 1e-14);
%! ## bit for bit the formula in Octave's order of operations
%! d = columns (X);
%! mu = sum (X, 2) / d;  c = X - mu;  sigma = sqrt (sumsq (c, 2) / d + 1e-5);
%! [Y, N] = layer_norm (X, P);
%! assert (isequal (Y, (c ./ sigma) .* P.gain + P.bias) && isequal (N.mu, mu)
%!         && isequal (N.sigma, sigma) && isequal (N.xhat, c ./ sigma));
%! assert (isequal (layer_norm (X(:,:,1), P), Y(:,:,1)));

%!test
%! ## backward against finite differences
%! [~, N] = layer_norm (X, P);
%! [dX, G] = layer_norm_backward (R, N, P);
%! assert (dX, ref_findiff (@(x) f (x, P), X), 1e-8);
%! assert (G.gain, ref_findiff (@(g) f (X, setfield (P, "gain", g)), P.gain), 1e-8);
%! assert (G.bias, ref_findiff (@(b) f (X, setfield (P, "bias", b)), P.bias), 1e-8);
%! ## bit for bit the formula in Octave's order of operations
%! g = R .* P.gain;  d = columns (X);
%! S = reshape (permute (R, [1 3 2]), [], d);  Sx = reshape (permute (R .* N.xhat, [1 3 2]), [], d);
%! assert (isequal (dX, (g - sum (g, 2) / d - N.xhat .* (sum (g .* N.xhat, 2) / d)) ./ N.sigma));
%! assert (isequal (G.gain, sum (Sx, 1)) && isequal (G.bias, sum (S, 1)));
