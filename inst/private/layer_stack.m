## [x, L] = layer_stack (x, P, allow, causal, norm, E, src_allow): the one
## stack of layers.  Every layer p of P (1×nl struct array) runs its
## self-attention (attn_masked when causal, attn_self otherwise, keys
## allowed by allow: n×Bt or []), its cross-attention to E (m×d×Bt, keys
## src_allow) when p has a cross block, and its FFN when p has one, each
## a residual sublayer with the LayerNorm placed by norm (sublayer).
## x n×d×Bt.  L(l): input, self, norm_self, after_self, cross, norm_cross,
## after_cross, ffn, norm_ffn, after_ffn, out (only the sublayers p has;
## norm fields unless norm is "none").
function [x, L] = layer_stack (x, P, allow, causal, norm, E = [], src_allow = [])
  if (causal)
    attend = @attn_masked;
  else
    attend = @attn_self;
  endif
  L = struct ([]);
  for l = 1:numel (P)
    p = P(l);
    S = struct ("input", x);
    [x, S] = sublayer (x, S, p, "self", norm, @(z) attend (z, p.self, allow));
    if (isfield (p, "cross"))
      [x, S] = sublayer (x, S, p, "cross", norm, @(z) attn_cross (z, E, p.cross, src_allow));
    endif
    if (isfield (p, "ffn"))
      [x, S] = sublayer (x, S, p, "ffn", norm, @(z) ffn_forward (z, p.ffn));
    endif
    S.out = x;
    L = [L, S];
  endfor
endfunction
