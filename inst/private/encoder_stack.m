## [x, L] = encoder_stack (x, P, key_allow, norm, attend): a stack of encoder
## layers (full self-attention, then the FFN if P has one).  attend (default
## @attn_self) is the attention kernel; @attn_masked makes the causal stack of
## seed 003's decoder-only and pooled-context models (attn_family).
## x m×d×Bt source rows; P 1×nl struct array (self, ffn, norm_self,
## norm_ffn); key_allow m×Bt or []; norm "none", "post" or "pre".
## L(l): input, self (kernel trace), norm_self, after_self, ffn, norm_ffn,
## after_ffn, out (the norm and ffn fields only when the model has them).
function [x, L] = encoder_stack (x, P, key_allow, norm, attend = @attn_self)
  L = struct ([]);
  for l = 1:numel (P)
    p = P(l);
    S = struct ("input", x);
    [x, S] = sublayer (x, S, p, "self", norm,
                       @(z) attend (z, p.self, key_allow));
    if (isfield (p, "ffn"))
      [x, S] = sublayer (x, S, p, "ffn", norm, @(z) ffn_forward (z, p.ffn));
    endif
    S.out = x;
    L = [L, S];
  endfor
endfunction
