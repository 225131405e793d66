## [dx, G, Gn, dkv] = sublayer_backward (dy, N, norm, Pn, back): gradients
## of sublayer.  back (dout) -> [dz, G, dkv] differentiates fwd (signature
## of block_backward and ffn_backward): dz includes the residual path (dout
## itself), dkv is the key/value-side gradient of a cross block ([] else).
## Gn: the LayerNorm's gain/bias gradients ([] for "none").
function [dx, G, Gn, dkv] = sublayer_backward (dy, N, norm, Pn, back)
  Gn = [];
  switch (norm)
    case "none"
      [dx, G, dkv] = back (dy);
    case "post"                          # y = LN (o),  o = x + delta(x)
      [dout, Gn] = layer_norm_backward (dy, N, Pn);
      [dx, G, dkv] = back (dout);
    case "pre"                           # y = x + delta(z),  z = LN (x)
      [dz, G, dkv] = back (dy);          # dz = dy + d delta/dz
      [dxn, Gn] = layer_norm_backward (dz - dy, N, Pn);
      dx = dy + dxn;
  endswitch
endfunction
