## [n, m, Bt, h, h_kv, dk, dv] = block_sizes (B, Xq, Xkv): the sizes of an
## attention block of the readable definition (attn_ref_block and its
## backward): n query rows, m key rows, Bt batch items, h heads, h_kv
## key/value heads (B.kv_heads, else h), per-head widths dk and dv.
function [n, m, Bt, h, h_kv, dk, dv] = block_sizes (B, Xq, Xkv)
  [n, ~, Bt] = size (Xq);
  m = rows (Xkv);
  h = B.heads;
  h_kv = field_or_empty (B, "kv_heads");
  if (isempty (h_kv))
    h_kv = h;
  endif
  dk = columns (B.W_Q) / h;
  dv = columns (B.W_V) / h_kv;
endfunction
