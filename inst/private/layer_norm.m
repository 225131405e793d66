## [Y, N] = layer_norm (X, P): LayerNorm of every row of X (n×d×Bt) over its
## d entries, then Y = xhat .* P.gain + P.bias (gain, bias 1×d).
## N (trace, built only when asked for): X, mu, sigma (n×1×Bt), xhat, out.
function [Y, N] = layer_norm (X, P)
  d = columns (X);
  mu = sum (X, 2) / d;
  centred = X - mu;
  sigma = sqrt (sumsq (centred, 2) / d + 1e-5);
  xhat = centred ./ sigma;
  Y = xhat .* P.gain + P.bias;
  if (nargout > 1)
    N = struct ("X", X, "mu", mu, "sigma", sigma, "xhat", xhat, "out", Y);
  endif
endfunction
