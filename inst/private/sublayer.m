## [y, S] = sublayer (x, S, p, name, norm, fwd, mode): one residual sublayer
## around fwd (z) -> [z + delta, T] (an attention block or the FFN; T.delta
## is read with pre-norm), with LayerNorm placed by norm:
##   "none": y = x + delta(x)
##   "post": y = LN (x + delta(x))
##   "pre":  y = x + delta(LN (x))
## The LayerNorm parameters are p.norm_NAME.  Asked for S, records in the
## layer trace S the sublayer's trace S.NAME, its LayerNorm trace
## S.norm_NAME (not for "none") and, unless mode is "lean" (default
## "full"), the rows after it, S.after_NAME.  Called with one output
## (y = sublayer (x, [], p, name, norm, fwd)) it builds no trace at all.
function [y, S] = sublayer (x, S, p, name, norm, fwd, mode = "full")
  norm_name = ["norm_" name];
  if (nargout < 2)                           # no trace: the decoding step
    switch (norm)
      case "none"
        y = fwd (x);
      case "post"
        y = layer_norm (fwd (x), p.(norm_name));
      case "pre"
        [~, T] = fwd (layer_norm (x, p.(norm_name)));
        y = x + T.delta;
    endswitch
    return;
  endif
  switch (norm)
    case "none"
      [y, T] = fwd (x);
    case "post"
      [o, T] = fwd (x);
      [y, N] = layer_norm (o, p.(norm_name));
    case "pre"
      [z, N] = layer_norm (x, p.(norm_name));
      [~, T] = fwd (z);
      y = x + T.delta;
  endswitch
  S.(name) = T;
  if (! strcmp (norm, "none"))
    S.(norm_name) = N;
  endif
  if (strcmp (mode, "full"))
    S.(["after_" name]) = y;
  endif
endfunction
