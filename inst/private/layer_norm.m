## [Y, N] = layer_norm (X, P, c): the normalisation the config c names,
## of every row of X (n×d×Bt) over its d entries, with epsilon c.norm_eps:
##   c.norm_kind "layernorm":  mu = sum (X, 2) / d,
##     sigma = sqrt (sumsq (X - mu, 2) / d + eps),  xhat = (X - mu) ./ sigma,
##     Y = xhat .* P.gain + P.bias  (gain, bias 1×d; epsilon inside the
##     square root; one pass in attn_layernorm, which keeps this order)
##   c.norm_kind "rmsnorm":  sigma = sqrt (sumsq (X, 2) / d + eps),
##     xhat = X ./ sigma,  Y = xhat .* P.gain  (no mean taken out, no bias)
## N (trace, built only when asked for): X, mu (layernorm), sigma
## (n×1×Bt), xhat, out.
function [Y, N] = layer_norm (X, P, c)
  switch (c.norm_kind)
    case "layernorm"
      if (nargout < 2)
        Y = attn_layernorm (X, P.gain, P.bias, c.norm_eps);
      else
        [Y, mu, sigma, xhat] = attn_layernorm (X, P.gain, P.bias, c.norm_eps);
        N = struct ("X", X, "mu", mu, "sigma", sigma, "xhat", xhat, "out", Y);
      endif
    case "rmsnorm"
      sigma = sqrt (sumsq (X, 2) / columns (X) + c.norm_eps);
      xhat = X ./ sigma;
      Y = xhat .* P.gain;
      if (nargout > 1)
        N = struct ("X", X, "sigma", sigma, "xhat", xhat, "out", Y);
      endif
  endswitch
endfunction
