## [y, T, N] = sublayer (x, norm, Pn, fwd): one residual sublayer around
## fwd (z) -> [z + delta, T] (an attention block or the FFN), with
## LayerNorm placed by norm:
##   "none": y = x + delta(x)
##   "post": y = LN (x + delta(x))       (N: trace of that LN)
##   "pre":  y = x + delta(LN (x))       (N: trace of that LN)
## Pn: the LayerNorm parameters (gain, bias), unused for "none".
function [y, T, N] = sublayer (x, norm, Pn, fwd)
  N = [];
  switch (norm)
    case "none"
      [y, T] = fwd (x);
    case "post"
      [o, T] = fwd (x);
      [y, N] = layer_norm (o, Pn);
    case "pre"
      [z, N] = layer_norm (x, Pn);
      [~, T] = fwd (z);
      y = x + T.delta;
  endswitch
endfunction
