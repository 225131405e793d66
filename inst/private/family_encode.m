## tr = family_encode (m, src, src_allow): the encoder of a family model
## (attn_family): source_ids, src_allow, source_rows, encoder (layer
## traces), encoder_norm (pre-norm), encoded (m×d×Bt).
function tr = family_encode (m, src, src_allow)
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
