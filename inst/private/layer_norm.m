## [Y, N] = layer_norm (X, P): LayerNorm of every row of X (n×d×Bt) over its
## d entries, then Y = xhat .* P.gain + P.bias (gain, bias 1×d).
## N (trace): X, mu, sigma (n×1×Bt), xhat, out.
function [Y, N] = layer_norm (X, P)
  N.X = X;
  N.mu = mean (X, 2);
  centred = X - N.mu;
  N.sigma = sqrt (mean (centred .^ 2, 2) + 1e-5);
  N.xhat = centred ./ N.sigma;
  Y = N.xhat .* P.gain + P.bias;
  N.out = Y;
endfunction
