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
