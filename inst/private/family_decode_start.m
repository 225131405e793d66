## state = family_decode_start (m, src): incremental decoding state of a
## decoder-only or pooled-context model (attn_family), like decode_start.
## Pooled models run the encoder once here and keep c (and u); the prefix
## design also runs its source slot (position 1) through the stack.
## state: t (target rows so far), K, V (per layer caches), and for pooled
## models encoded, c, u (add).  src 1×m ids (ignored by decoder-only).
function state = family_decode_start (m, src)
  state.t = 0;
  nl = numel (m.decoder);
  state.K = state.V = cell (1, nl);
  for l = 1:nl
    S = m.decoder(l).self;
    state.K{l} = zeros (0, columns (S.W_K) / S.heads, S.heads);
    state.V{l} = zeros (0, columns (S.W_V) / S.heads, S.heads);
  endfor
  state.offset = 0;                     # position of target row t is t + offset
  if (strcmp (family_kind (m), "decoder-only"))
    return;
  endif
  allow = true (numel (src), 1);
  state.encoded = model_encode (m, src(:), allow).encoded;
  state.c = mean_pool (state.encoded, allow);
  switch (m.config.family)
    case "pooled-add"
      state.u = state.c * m.W_u;
    case "pooled-prefix"
      state = run_row (m, state, state.c * m.W_P + m.tgt_pos(1,:));
      state.offset = 1;
  endswitch
endfunction
