## [x, L] = decoder_stack (x, E, P, tgt_allow, src_allow, norm): a stack of
## decoder layers: masked self-attention, cross-attention to the encoded
## source E (m×d_src×Bt), then the FFN if P has one.
## x n×d×Bt target rows; tgt_allow n×Bt, src_allow m×Bt (or []).
## L(l): input, self, norm_self, after_self, cross, norm_cross, after_cross,
## ffn, norm_ffn, after_ffn, out (norm and ffn fields only when present).
function [x, L] = decoder_stack (x, E, P, tgt_allow, src_allow, norm)
  L = struct ([]);
  for l = 1:numel (P)
    p = P(l);
    S = struct ("input", x);
    [x, S.self, N] = sublayer (x, norm, field_or_empty (p, "norm_self"),
                               @(z) attn_masked (z, p.self, tgt_allow));
    S = add_norm (S, "norm_self", N, norm);
    S.after_self = x;
    [x, S.cross, N] = sublayer (x, norm, field_or_empty (p, "norm_cross"),
                                @(z) attn_cross (z, E, p.cross, src_allow));
    S = add_norm (S, "norm_cross", N, norm);
    S.after_cross = x;
    if (isfield (p, "ffn"))
      [x, S.ffn, N] = sublayer (x, norm, field_or_empty (p, "norm_ffn"),
                                @(z) ffn_forward (z, p.ffn));
      S = add_norm (S, "norm_ffn", N, norm);
      S.after_ffn = x;
    endif
    S.out = x;
    L = [L, S];
  endfor
endfunction
