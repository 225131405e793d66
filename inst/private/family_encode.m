## tr = family_encode (m, src, src_allow, tr): the encoder of a model
## (model_forward, attn_family): adds source_ids, src_allow, source_rows,
## encoder (layer traces), encoder_norm (pre-norm), encoded (m×d×Bt) to the
## trace tr (default: an empty struct; fields it already has keep their place).
function tr = family_encode (m, src, src_allow, tr = struct ())
  norm = m.config.norm;
  tr.source_ids = src;
  tr.src_allow = src_allow;
  tr.source_rows = embed_forward (m.src_embed, m.src_pos, src);
  [E, tr.encoder] = encoder_stack (tr.source_rows, m.encoder, src_allow, norm);
  if (strcmp (norm, "pre"))
    [E, tr.encoder_norm] = layer_norm (E, m.encoder_norm);
  endif
  tr.encoded = E;
endfunction
