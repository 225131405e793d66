## tr = model_encode (m, src, src_allow, tr): the encoder of any model with
## one (source embeddings and positions, the encoder stack, its final
## LayerNorm when pre-norm).  Adds to the trace tr (default: an empty
## struct; fields it has keep their place) source_rows (m×d×Bt), encoder
## (layer traces), encoder_norm (pre-norm) and encoded (m×d×Bt).
function tr = model_encode (m, src, src_allow, tr = struct ())
  norm = m.config.norm;
  tr.source_rows = embed_forward (m.src_embed, m.src_pos, src);
  [E, tr.encoder] = layer_stack (tr.source_rows, m.encoder, src_allow, false, norm);
  if (strcmp (norm, "pre"))
    [E, tr.encoder_norm] = layer_norm (E, m.encoder_norm);
  endif
  tr.encoded = E;
endfunction
