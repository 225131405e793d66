## [dx, g, dkv] = sublayer_backward (dy, S, g, p, name, norm, back):
## gradients of sublayer NAME of a layer with trace S and parameters p.
## back (dout) -> [dz, G, dkv] differentiates fwd (signature of
## block_backward and ffn_backward): dz includes the residual path (dout
## itself), dkv is the key/value-side gradient of a cross block ([] else).
## Records g.NAME = G and, with LayerNorm, g.norm_NAME (gain, bias).
function [dx, g, dkv] = sublayer_backward (dy, S, g, p, name, norm, back)
  norm_name = ["norm_" name];
  N = field_or_empty (S, norm_name);
  Pn = field_or_empty (p, norm_name);
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
  g.(name) = G;
  if (! strcmp (norm, "none"))
    g.(norm_name) = Gn;
  endif
endfunction
