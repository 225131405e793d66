## tr = model_encode (m, src, src_allow, tr, mode): the encoder of any model
## with one (source embeddings and positions, the encoder stack, its final
## norm when config.final_norm).  Adds to the trace tr (default: an empty
## struct; fields it has keep their place) src_embed_norm (the norm of
## the embedded rows, with embed_norm), source_rows (m×d×Bt), encoder
## (layer traces), encoder_norm (final norm) and encoded (m×d×Bt).  mode
## "lean" or "step" (default "full"): those layer traces (layer_stack) and
## no source_rows; "step" has no encoder_norm either.  patch:
## an intervention in the encoder stack (layer_stack), or [].
function tr = model_encode (m, src, src_allow, tr = struct (), mode = "full", patch = [])
  X = embed_forward (m.src_embed, field_or_empty (m, "src_pos"), src, m.config);
  if (m.config.embed_norm)
    [X, tr.src_embed_norm] = layer_norm (X, m.src_embed_norm, m.config);
  endif
  if (strcmp (mode, "full"))
    tr.source_rows = X;
  endif
  [E, tr.encoder] = layer_stack (X, m.encoder, src_allow, false, m.config, [], [], mode,
                                   [], patch);
  if (m.config.final_norm && strcmp (mode, "step"))   # no trace: decoding
    E = layer_norm (E, m.encoder_norm, m.config);
  elseif (m.config.final_norm)
    [E, tr.encoder_norm] = layer_norm (E, m.encoder_norm, m.config);
  endif
  tr.encoded = E;
endfunction
