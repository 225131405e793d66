## [dx, dE, G] = layer_stack_backward (dx, L, P, norm): gradients of
## layer_stack given dx = dL/d(its output): dL/d(its input rows), dL/dE
## (summed over the layers' cross blocks; 0 when none has one) and G
## (1×nl struct array in the layout of P, weights only).
function [dx, dE, G] = layer_stack_backward (dx, L, P, norm)
  G = struct ([]);
  dE = 0;
  for l = numel (P):-1:1
    p = P(l);
    S = L(l);
    g = cell2struct (cell (numfields (p), 1), fieldnames (p), 1);  # p's layout
    if (isfield (p, "ffn"))
      [dx, g] = sublayer_backward (dx, S, g, p, "ffn", norm,
                                   @(d) ffn_backward (d, S.ffn, p.ffn));
    endif
    if (isfield (p, "cross"))
      [dx, g, dEl] = sublayer_backward (dx, S, g, p, "cross", norm,
                                        @(d) block_backward (d, S.cross, p.cross));
      dE += dEl;
    endif
    [dx, g] = sublayer_backward (dx, S, g, p, "self", norm,
                                 @(d) block_backward (d, S.self, p.self));
    G = [g, G];
  endfor
endfunction

## [dXq, G, dXkv] = block_backward (dY, T, B): attn_backward for any of the
## three blocks, with the query-side input gradient (incl. the residual) in
## dXq, the key/value-side one in dXkv (cross only; [] otherwise) and the
## weight gradients alone in G (W_Q, W_K, W_V, W_O: the model's layout).
function [dXq, G, dXkv] = block_backward (dY, T, B)
  K = attn_backward (dY, T, B);
  G = struct ("W_Q", K.W_Q, "W_K", K.W_K, "W_V", K.W_V, "W_O", K.W_O);
  if (strcmp (T.kind, "cross"))
    dXq = K.dD;
    dXkv = K.dE;
  else
    dXq = K.dX;
    dXkv = [];
  endif
endfunction
