## [dx, dE, G, R] = layer_stack_backward (dx, L, P, c): gradients of
## layer_stack given dx = dL/d(its output): dL/d(its input rows), dL/dE
## (summed over the layers' cross blocks; 0 when none has one) and G
## (1×nl struct array in the layout of P, weights only).  L may be the
## full or the lean trace.  R (asked for with the full trace L) is the
## backward side of L: R(l).out, R(l).input (the layer's output and input
## rows), and R(l).self, .cross, .ffn the gradient at every matrix of those
## traces, under their names (attn_ref_block_backward's D; the FFN's out,
## delta, hidden, up, pre, X).
function [dx, dE, G, R] = layer_stack_backward (dx, L, P, c)
  G = struct ([]);
  R = struct ([]);
  dE = 0;
  for l = numel (P):-1:1
    p = P(l);
    S = L(l);
    g = cell2struct (cell (numfields (p), 1), fieldnames (p), 1);  # p's layout
    r = struct ("out", dx);
    if (isfield (p, "ffn"))
      back = @(d) ffn_backward (d, S.ffn, p.ffn, c);
      if (nargout > 3)
        [dx, g, ~, ~, r.ffn] = sublayer_backward (dx, S, g, p, "ffn", c, back);
      else
        [dx, g] = sublayer_backward (dx, S, g, p, "ffn", c, back);
      endif
    endif
    if (isfield (p, "cross"))
      [dx, g, dEl, dout] = sublayer_backward (dx, S, g, p, "cross", c,
                                              @(d) block_backward (d, S.cross, p.cross));
      dE += dEl;
      if (nargout > 3)
        [~, r.cross] = attn_ref_block_backward (dout, S.cross, p.cross);
      endif
    endif
    [dx, g, ~, dout] = sublayer_backward (dx, S, g, p, "self", c,
                                          @(d) block_backward (d, S.self, p.self));
    if (nargout > 3)
      [~, r.self] = attn_ref_block_backward (dout, S.self, p.self);
      r.input = dx;
      R = [r, R];
    endif
    G = [g, G];
  endfor
endfunction

## [dx, g, dkv, dout, D] = sublayer_backward (dy, S, g, p, name, c, back):
## gradients of sublayer NAME of a layer with trace S and parameters p;
## dout the gradient at the sublayer's own output (before a post-norm).
## back (dout) -> [dz, G, dkv, D] differentiates fwd (signature of
## block_backward and ffn_backward): dz includes the residual path (dout
## itself), dkv is the key/value-side gradient of a cross block ([] else),
## D (asked for only when this function's D is) the backward side of the
## sublayer's trace.  Records g.NAME = G and, with LayerNorm,
## g.norm_NAME (gain, bias).
function [dx, g, dkv, dout, D] = sublayer_backward (dy, S, g, p, name, c, back)
  norm_name = ["norm_" name];
  dout = dy;
  if (strcmp (c.norm, "post"))             # y = LN (o),  o = x + delta(x)
    [dout, Gn] = layer_norm_backward (dy, S.(norm_name), p.(norm_name), c);
  endif
  out = cell (1, 3 + (nargout > 4));
  [out{:}] = back (dout);
  [dx, G, dkv] = out{1:3};
  if (strcmp (c.norm, "pre"))              # y = x + delta(z),  z = LN (x)
    [dx, Gn] = layer_norm_backward (dx - dy, S.(norm_name), p.(norm_name), c);
    dx += dy;                              # (dx - dy: d delta/dz alone)
  endif
  if (nargout > 4)
    D = out{4};
  endif
  g.(name) = G;
  if (! strcmp (c.norm, "none"))
    g.(norm_name) = Gn;
  endif
endfunction

## [dX, G, none, D] = ffn_backward (dY, T, P, c): gradients of
## ffn_forward; dX includes the residual path (dY itself), like the
## attention kernels' backward.  The third output ([]) mirrors
## block_backward's key/value side; D is the backward side of the trace T
## (out, delta, hidden, up when gated, pre, X).  Like ffn_forward, on the
## rows stacked (T's arrays are when T is lean).
function [dX, G, none, D] = ffn_backward (dY, T, P, c)
  none = [];
  n = rows (dY);
  G = cell2struct (cell (numfields (P), 1), fieldnames (P), 1);   # P's layout
  ## delta = hidden*W_2 + b_2
  [dhidden, G.W_2, db] = attn_rows_backward (stack_rows (dY), stack_rows (T.hidden), P.W_2);
  G = set_bias (G, "b_2", db);
  ## hidden = act (pre) [.* up],  pre = X*W_1 + b_1,  up = X*W_3 + b_3
  trace = nargout > 3;
  if (trace)
    D = struct ("out", dY, "delta", dY, "hidden", unstack_rows (dhidden, n));
  endif
  X = stack_rows (T.X);
  pre = stack_rows (T.pre);
  gated = isfield (P, "W_3");
  if (gated)
    [act, slope] = activation (c.activation, pre);
    dup = dhidden .* act;
    [dX3, G.W_3, db] = attn_rows_backward (dup, X, P.W_3);
    G = set_bias (G, "b_3", db);
    dhidden .*= stack_rows (T.up);
    if (trace)
      D.up = unstack_rows (dup, n);
    endif
  else
    [~, slope] = activation (c.activation, pre);   # no hidden: relu's max unmade
  endif
  dhidden .*= slope;                       # in place: dhidden becomes dpre
  dpre = dhidden;
  [dX1, G.W_1, db] = attn_rows_backward (dpre, X, P.W_1);
  G = set_bias (G, "b_1", db);
  dX = dY + unstack_rows (dX1, n);
  if (gated)
    dX += unstack_rows (dX3, n);
  endif
  if (trace)
    [D.pre, D.X] = deal (unstack_rows (dpre, n), dX);
  endif
endfunction

## G.(name) = db when the layer has that bias
function G = set_bias (G, name, db)
  if (isfield (G, name))
    G.(name) = db;
  endif
endfunction

## [dXq, G, dXkv] = block_backward (dY, T, B): attn_backward for any of the
## three blocks, with the query-side input gradient (incl. the residual) in
## dXq, the key/value-side one in dXkv (cross only; [] otherwise) and the
## gradients of the block's learned arrays alone in G (W_Q, W_K, W_V, W_O
## and the biases it has, in the block's order: the model's layout).
function [dXq, G, dXkv] = block_backward (dY, T, B)
  K = attn_backward (dY, T, B);
  G = struct ();
  for f = fieldnames (B)'                     # the learned ones, in B's order
    if (isfield (K, f{1}))
      G.(f{1}) = K.(f{1});
    endif
  endfor
  if (strcmp (T.kind, "cross"))
    dXq = K.dD;
    dXkv = K.dE;
  else
    dXq = K.dX;
    dXkv = [];
  endif
endfunction

%!test
%! ## the stack against finite differences: encoder-like (full self-attention,
%! ## FFN) and decoder-like (causal, cross-attention) layers, every norm,
%! ## padded keys on both sides
%! randn ("state", 6);
%! base = struct ("src_vocab", "a b", "tgt_vocab", "x y", "d", 4, "heads", 2, "d_ff", 3,
%!                "encoder_layers", 2, "decoder_layers", 2, "seed", 1);
%! x = randn (3, 4, 2);  E = randn (2, 4, 2);  R = randn (3, 4, 2);
%! allow = logical ([1 1; 1 1; 1 0]);  src_allow = logical ([1 1; 1 0]);
%! for norm = {"none", "post", "pre"}
%!   m = attn_model (setfield (base, "norm", norm{1}));
%!   for side = {{m.encoder, false}, {m.decoder, true}}
%!     [P, causal] = side{1}{:};
%!     f = @(x, E, P) sum (layer_stack (x, P, allow, causal, m.config, E, src_allow)(:) .* R(:));
%!     [~, L] = layer_stack (x, P, allow, causal, m.config, E, src_allow);
%!     [dx, dE, G] = layer_stack_backward (R, L, P, m.config);
%!     [y, Ll] = layer_stack (x, P, allow, causal, m.config, E, src_allow, "lean");
%!     [dxl, dEl, Gl] = layer_stack_backward (R, Ll, P, m.config);
%!     assert (isequal (y, layer_stack (x, P, allow, causal, m.config, E, src_allow)));
%!     assert (isequal ({dxl, dEl, Gl}, {dx, dE, G}));
%!     assert (! isfield (Ll, "after_self") && ! isfield (Ll(1).self, "scores"));
%!     assert (dx, ref_findiff (@(z) f (z, E, P), x), 1e-7);
%!     if (causal)
%!       assert (dE, ref_findiff (@(e) f (x, e, P), E), 1e-7);
%!       W = P(1).cross.W_V;
%!       assert (G(1).cross.W_V, ref_findiff (@(w) f (x, E, setfield (P, {1}, "cross", "W_V", w)), W), 1e-7);
%!     else
%!       assert (dE, 0);
%!     endif
%!     W = P(2).self.W_Q;
%!     assert (G(2).self.W_Q, ref_findiff (@(w) f (x, E, setfield (P, {2}, "self", "W_Q", w)), W), 1e-7);
%!     W = P(1).ffn.W_1;
%!     assert (G(1).ffn.W_1, ref_findiff (@(w) f (x, E, setfield (P, {1}, "ffn", "W_1", w)), W), 1e-7);
%!     b = P(2).ffn.b_2;
%!     assert (G(2).ffn.b_2, ref_findiff (@(w) f (x, E, setfield (P, {2}, "ffn", "b_2", w)), b), 1e-7);
%!     if (! strcmp (norm{1}, "none"))
%!       g = P(2).norm_ffn.gain;
%!       assert (G(2).norm_ffn.gain, ref_findiff (@(w) f (x, E, setfield (P, {2}, "norm_ffn", "gain", w)), g), 1e-7);
%!     endif
%!   endfor
%! endfor
