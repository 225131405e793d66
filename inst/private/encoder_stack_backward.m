## [dx, G] = encoder_stack_backward (dx, L, P, norm): gradients of
## encoder_stack given dx = dL/d(its output).  Returns dL/d(input rows) and
## G (1×nl struct array in the layout of P, weights only).
function [dx, G] = encoder_stack_backward (dx, L, P, norm)
  G = struct ([]);
  for l = numel (P):-1:1
    p = P(l);
    S = L(l);
    g = cell2struct (cell (numfields (p), 1), fieldnames (p), 1);  # p's layout
    if (isfield (p, "ffn"))
      [dx, g] = sublayer_backward (dx, S, g, p, "ffn", norm,
                                   @(d) ffn_backward (d, S.ffn, p.ffn));
    endif
    [dx, g] = sublayer_backward (dx, S, g, p, "self", norm,
                                 @(d) block_backward (d, S.self, p.self));
    G = [g, G];
  endfor
endfunction
