## [y, S] = sublayer (x, S, p, name, norm, fwd): one residual sublayer
## around fwd (z) -> [z + delta, T] (an attention block or the FFN), with
## LayerNorm placed by norm:
##   "none": y = x + delta(x)
##   "post": y = LN (x + delta(x))
##   "pre":  y = x + delta(LN (x))
## The LayerNorm parameters are p.norm_NAME.  Records in the layer trace S
## the sublayer's trace S.NAME, its LayerNorm trace S.norm_NAME (not for
## "none") and the rows after it, S.after_NAME.
function [y, S] = sublayer (x, S, p, name, norm, fwd)
  norm_name = ["norm_" name];
  Pn = field_or_empty (p, norm_name);
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
  S.(name) = T;
  if (! strcmp (norm, "none"))
    S.(norm_name) = N;
  endif
  S.(["after_" name]) = y;
endfunction
