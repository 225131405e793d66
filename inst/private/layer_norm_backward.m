## [dX, G] = layer_norm_backward (dY, N, P): gradients of layer_norm.
## G.gain, G.bias 1×d (summed over rows and batch); dX n×d×Bt.
function [dX, G] = layer_norm_backward (dY, N, P)
  G.gain = attn_rows (dY .* N.xhat, "sum");      # sums over every row of every page
  G.bias = attn_rows (dY, "sum");
  dxhat = dY .* P.gain;                          # Y = xhat.*gain + bias
  ## xhat = (X - mu)/sigma: remove the mean and the xhat-direction parts
  d = columns (dY);
  dX = (dxhat - sum (dxhat, 2) / d - N.xhat .* (sum (dxhat .* N.xhat, 2) / d)) ./ N.sigma;
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

%!test
%! ## backward against finite differences
%! [~, N] = layer_norm (X, P);
%! [dX, G] = layer_norm_backward (R, N, P);
%! assert (dX, ref_findiff (@(x) f (x, P), X), 1e-8);
%! assert (G.gain, ref_findiff (@(g) f (X, setfield (P, "gain", g)), P.gain), 1e-8);
%! assert (G.bias, ref_findiff (@(b) f (X, setfield (P, "bias", b)), P.bias), 1e-8);
