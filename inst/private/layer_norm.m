## [Y, N] = layer_norm (X, P): LayerNorm of every row of X (n×d×Bt) over its
## d entries, then Y = xhat .* P.gain + P.bias (gain, bias 1×d).
## N (trace): X, mu, sigma (n×1×Bt), xhat, out.
function [Y, N] = layer_norm (X, P)
  d = columns (X);
  N.X = X;
  N.mu = sum (X, 2) / d;
  centred = X - N.mu;
  N.sigma = sqrt (sumsq (centred, 2) / d + 1e-5);
  N.xhat = centred ./ N.sigma;
  Y = N.xhat .* P.gain + P.bias;
  N.out = Y;
endfunction
