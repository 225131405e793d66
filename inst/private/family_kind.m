## k = family_kind (m): which arrangement of seed 003 the model m is:
## "encoder-decoder" (attn_model, attn_toy), "decoder-only", "encoder" (token
## or sentence classifier) or "pooled" (pooled-context encoder-decoder).
function k = family_kind (m)
  k = "encoder-decoder";
  if (isfield (m.config, "family"))
    k = m.config.family;
  endif
  if (strncmp (k, "encoder-", 8) && ! strcmp (k, "encoder-decoder"))
    k = "encoder";
  elseif (strncmp (k, "pooled-", 7))
    k = "pooled";
  endif
endfunction
