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
      [dx, g.ffn, Gn] = sublayer_backward (dx, field_or_empty (S, "norm_ffn"),
                          norm, field_or_empty (p, "norm_ffn"),
                          @(d) ffn_backward (d, S.ffn, p.ffn));
      g = add_norm (g, "norm_ffn", Gn, norm);
    endif
    [dx, g.self, Gn] = sublayer_backward (dx, field_or_empty (S, "norm_self"),
                         norm, field_or_empty (p, "norm_self"),
                         @(d) block_backward (d, S.self, p.self));
    g = add_norm (g, "norm_self", Gn, norm);
    G = [g, G];
  endfor
endfunction
