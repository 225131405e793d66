## [Y, N] = layer_norm (X, P): LayerNorm of every row of X (n×d×Bt) over its
## d entries, then Y = xhat .* P.gain + P.bias (gain, bias 1×d):
##   mu = sum (X, 2) / d,  sigma = sqrt (sumsq (X - mu, 2) / d + 1e-5),
##   xhat = (X - mu) ./ sigma
## (epsilon inside the square root), one pass in attn_layernorm, which keeps
## this order of operations.  N (trace, built only when asked for): X, mu,
## sigma (n×1×Bt), xhat, out.
function [Y, N] = layer_norm (X, P)
  if (nargout < 2)
    Y = attn_layernorm (X, P.gain, P.bias, 1e-5);
  else
    [Y, mu, sigma, xhat] = attn_layernorm (X, P.gain, P.bias, 1e-5);
    N = struct ("X", X, "mu", mu, "sigma", sigma, "xhat", xhat, "out", Y);
  endif
endfunction
