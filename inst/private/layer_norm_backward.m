## [dX, G] = layer_norm_backward (dY, N, P): gradients of layer_norm.
## G.gain, G.bias 1×d (summed over rows and batch); dX n×d×Bt.
function [dX, G] = layer_norm_backward (dY, N, P)
  G.gain = sum (stack_rows (dY .* N.xhat), 1);
  G.bias = sum (stack_rows (dY), 1);
  dxhat = dY .* P.gain;                          # Y = xhat.*gain + bias
  ## xhat = (X - mu)/sigma: remove the mean and the xhat-direction parts
  d = columns (dY);
  dX = (dxhat - sum (dxhat, 2) / d - N.xhat .* (sum (dxhat .* N.xhat, 2) / d)) ./ N.sigma;
endfunction
