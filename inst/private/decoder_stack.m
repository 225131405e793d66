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
    [x, S] = sublayer (x, S, p, "self", norm,
                       @(z) attn_masked (z, p.self, tgt_allow));
    [x, S] = sublayer (x, S, p, "cross", norm,
                       @(z) attn_cross (z, E, p.cross, src_allow));
    if (isfield (p, "ffn"))
      [x, S] = sublayer (x, S, p, "ffn", norm, @(z) ffn_forward (z, p.ffn));
    endif
    S.out = x;
    L = [L, S];
  endfor
endfunction
