## [y, S] = sublayer (x, S, p, name, c, fwd, mode): one residual sublayer
## around fwd (z) -> [z + delta, T] (an attention block or the FFN; T.delta
## is read with pre-norm), with the normalisation (layer_norm, of the
## config c) placed by c.norm:
##   "none": y = x + delta(x)
##   "post": y = LN (x + delta(x))
##   "pre":  y = x + delta(LN (x))
## The LayerNorm parameters are p.norm_NAME.  Asked for S, records in the
## layer trace S the sublayer's trace S.NAME, its LayerNorm trace
## S.norm_NAME (not for "none", nor in mode "step": a decoding pass reads
## none, and its xhat is an array the size of x) and in mode "full" (the
## default; "lean" for training) the rows after it, S.after_NAME.  Called
## with one output
## (y = sublayer (x, [], p, name, c, fwd)) it builds no trace at all.
function [y, S] = sublayer (x, S, p, name, c, fwd, mode = "full")
  norm = c.norm;
  norm_name = ["norm_" name];
  if (nargout < 2)                           # no trace: the decoding step
    switch (norm)
      case "none"
        y = fwd (x);
      case "post"
        y = layer_norm (fwd (x), p.(norm_name), c);
      case "pre"
        [~, T] = fwd (layer_norm (x, p.(norm_name), c));
        y = x + T.delta;
    endswitch
    return;
  endif
  keep_norm = ! strcmp (mode, "step");
  switch (norm)
    case "none"
      [y, T] = fwd (x);
    case "post"
      [o, T] = fwd (x);
      if (keep_norm)
        [y, N] = layer_norm (o, p.(norm_name), c);
      else
        y = layer_norm (o, p.(norm_name), c);
      endif
    case "pre"
      if (keep_norm)
        [z, N] = layer_norm (x, p.(norm_name), c);
      else
        z = layer_norm (x, p.(norm_name), c);
      endif
      [~, T] = fwd (z);
      y = x + T.delta;
  endswitch
  S.(name) = T;
  if (keep_norm && ! strcmp (norm, "none"))
    S.(norm_name) = N;
  endif
  if (strcmp (mode, "full"))
    S.(["after_" name]) = y;
  endif
endfunction

%!test
%! ## the three placements against their formulas; one output (no trace)
%! ## gives the same rows; the lean mode leaves out after_NAME, the step
%! ## mode the LayerNorm trace too
%! randn ("state", 7);
%! x = randn (3, 4, 2);
%! F = struct ("W_1", randn (4, 5), "b_1", randn (1, 5), "W_2", randn (5, 4), "b_2", randn (1, 4));
%! p = struct ("ffn", F, "norm_ffn", struct ("gain", randn (1, 4), "bias", randn (1, 4)));
%! c = struct ("activation", "relu", "norm_kind", "layernorm", "norm_eps", 1e-5);
%! delta = @(z) ffn_forward (z, F, c) - z;
%! LN = @(z) layer_norm (z, p.norm_ffn, c);
%! want = struct ("none", x + delta (x), "post", LN (x + delta (x)), "pre", x + delta (LN (x)));
%! for norm = {"none", "post", "pre"}
%!   fwd = @(z) ffn_forward (z, F, c);
%!   [y, S] = sublayer (x, struct (), p, "ffn", setfield (c, "norm", norm{1}), fwd);
%!   assert (y, want.(norm{1}), 1e-13);
%!   assert (isequal (sublayer (x, [], p, "ffn", setfield (c, "norm", norm{1}), fwd), y));
%!   z = x;
%!   if (strcmp (norm{1}, "pre"))
%!     z = LN (x);
%!   endif
%!   assert (isequal (S.after_ffn, y) && isequal (S.ffn.X, z));
%!   [yl, Sl] = sublayer (x, struct (), p, "ffn", setfield (c, "norm", norm{1}),
%!                      @(z) ffn_forward (z, F, c, "lean"), "lean");
%!   assert (isequal (yl, y) && ! isfield (Sl, "after_ffn"));
%!   [ys, Ss] = sublayer (x, struct (), p, "ffn", setfield (c, "norm", norm{1}),
%!                      @(z) ffn_forward (z, F, c, "step"), "step");
%!   assert (isequal (ys, y) && isequal (fieldnames (Ss), {"ffn"}));
%!   assert (isfield (Sl, "norm_ffn"), ! strcmp (norm{1}, "none"));
%! endfor
