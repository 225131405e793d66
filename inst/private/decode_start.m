## state = decode_start (m, src): run the encoder once on one source (ids,
## column) and cache, for every decoder layer l, the cross-attention keys
## and values cross_K{l} (m×dk×h), cross_V{l} (m×dv×h), with empty
## self-attention caches self_K{l}, self_V{l} (0×dk×h, 0×dv×h) that
## decode_step grows by one row per token.
function state = decode_start (m, src)
  if (! strcmp (family_kind (m), "encoder-decoder"))
    state = family_decode_start (m, src);    # pooled-context (attn_family)
    return;
  endif
  norm = m.config.norm;
  X = embed_forward (m.src_embed, m.src_pos, src);
  [E, state.encoder] = layer_stack (X, m.encoder, [], false, norm);
  if (strcmp (norm, "pre"))
    E = layer_norm (E, m.encoder_norm);
  endif
  state.encoded = E;
  state.t = 0;
  for l = 1:numel (m.decoder)
    B = m.decoder(l).cross;
    h = B.heads;
    state.cross_K{l} = reshape (E * B.W_K, rows (E), [], h);
    state.cross_V{l} = reshape (E * B.W_V, rows (E), [], h);
    S = m.decoder(l).self;
    state.self_K{l} = zeros (0, columns (S.W_K) / S.heads, S.heads);
    state.self_V{l} = zeros (0, columns (S.W_V) / S.heads, S.heads);
  endfor
endfunction
