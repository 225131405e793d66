## [dX, G] = layer_norm_backward (dY, N, P, c): gradients of layer_norm,
## G.gain (and G.bias for LayerNorm) 1×d, summed over rows and batch; dX
## n×d×Bt.  With g = dY .* gain:
##   layernorm: dX = (g - sum (g, 2)/d - xhat .* (sum (g .* xhat, 2)/d)) ./ sigma
##     (the mean and the xhat-direction parts removed), one pass in
##     attn_layernorm_backward
##   rmsnorm:   dX = (g - xhat .* (sum (g .* xhat, 2)/d)) ./ sigma
function [dX, G] = layer_norm_backward (dY, N, P, c)
  switch (c.norm_kind)
    case "layernorm"
      [dX, G.gain, G.bias] = attn_layernorm_backward (dY, N.xhat, N.sigma, P.gain);
    case "rmsnorm"
      g = dY .* P.gain;
      dX = (g - N.xhat .* (sum (g .* N.xhat, 2) / columns (g))) ./ N.sigma;
      G.gain = sum (reshape (permute (dY .* N.xhat, [1 3 2]), [], columns (dY)), 1);
  endswitch
endfunction

%!shared X, P, R, f, c
%! randn ("state", 1);
%! X = randn (3, 4, 2);
%! P = struct ("gain", randn (1, 4), "bias", randn (1, 4));
%! R = randn (3, 4, 2);                      # L = sum (R .* Y)
%! c = struct ("norm_kind", "layernorm", "norm_eps", 1e-5);
%! f = @(X, P) sum (layer_norm (X, P, c)(:) .* R(:));

%!test
%! ## forward against the formula: epsilon inside the square root
%! mu = mean (X, 2);
%! Y = (X - mu) ./ sqrt (mean ((X - mu) .^ 2, 2) + 1e-5) .* P.gain + P.bias;
%! assert (layer_norm (X, P, c), Y, 1e-14);
%! ## bit for bit the formula in Octave's order of operations
%! d = columns (X);
%! mu = sum (X, 2) / d;  centred = X - mu;  sigma = sqrt (sumsq (centred, 2) / d + 1e-5);
%! [Y, N] = layer_norm (X, P, c);
%! assert (isequal (Y, (centred ./ sigma) .* P.gain + P.bias) && isequal (N.mu, mu)
%!         && isequal (N.sigma, sigma) && isequal (N.xhat, centred ./ sigma));
%! assert (isequal (layer_norm (X(:,:,1), P, c), Y(:,:,1)));

%!test
%! ## backward against finite differences
%! [~, N] = layer_norm (X, P, c);
%! [dX, G] = layer_norm_backward (R, N, P, c);
%! assert (dX, ref_findiff (@(x) f (x, P), X), 1e-8);
%! assert (G.gain, ref_findiff (@(g) f (X, setfield (P, "gain", g)), P.gain), 1e-8);
%! assert (G.bias, ref_findiff (@(b) f (X, setfield (P, "bias", b)), P.bias), 1e-8);
%! ## bit for bit the formula in Octave's order of operations
%! g = R .* P.gain;  d = columns (X);
%! S = reshape (permute (R, [1 3 2]), [], d);  Sx = reshape (permute (R .* N.xhat, [1 3 2]), [], d);
%! assert (isequal (dX, (g - sum (g, 2) / d - N.xhat .* (sum (g .* N.xhat, 2) / d)) ./ N.sigma));
%! assert (isequal (G.gain, sum (Sx, 1)) && isequal (G.bias, sum (S, 1)));

%!test
%! ## RMSNorm and another epsilon: forward against the formula, backward
%! ## against finite differences
%! r = struct ("norm_kind", "rmsnorm", "norm_eps", 1e-6);
%! Q = struct ("gain", P.gain);
%! [Y, N] = layer_norm (X, Q, r);
%! assert (Y, X ./ sqrt (mean (X .^ 2, 2) + 1e-6) .* P.gain, 1e-14);
%! fr = @(X, Q) sum (layer_norm (X, Q, r)(:) .* R(:));
%! [dX, G] = layer_norm_backward (R, N, Q, r);
%! assert (fieldnames (G), {"gain"});
%! assert (dX, ref_findiff (@(x) fr (x, Q), X), 1e-8);
%! assert (G.gain, ref_findiff (@(g) fr (X, setfield (Q, "gain", g)), Q.gain), 1e-8);
%! e = struct ("norm_kind", "layernorm", "norm_eps", 1e-12);
%! mu = mean (X, 2);
%! assert (layer_norm (X, P, e), (X - mu) ./ sqrt (mean ((X - mu) .^ 2, 2) + 1e-12) .* P.gain + P.bias, 1e-13);
