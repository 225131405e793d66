## G = model_backward (m, tr, dlogits): gradients of every learned array of
## m (same layout, weights only) given dlogits = dL/d(tr.logits).
function G = model_backward (m, tr, dlogits)
  if (! strcmp (family_kind (m), "encoder-decoder"))
    G = family_backward (m, tr, dlogits);    # seed 003's other families
    return;
  endif
  norm = m.config.norm;
  [dD, dW_vocab, db_vocab] = head_backward (dlogits, tr.decoder_out, m.W_vocab);
  if (strcmp (norm, "pre"))
    [dD, G_decoder_norm] = layer_norm_backward (dD, tr.decoder_norm, m.decoder_norm);
  endif
  [dT, dE, G_decoder] = decoder_stack_backward (dD, tr.decoder, m.decoder, norm);
  if (strcmp (norm, "pre"))
    [dE, G_encoder_norm] = layer_norm_backward (dE, tr.encoder_norm, m.encoder_norm);
  endif
  [dS, G_encoder] = encoder_stack_backward (dE, tr.encoder, m.encoder, norm);
  [G.src_embed, G.src_pos] = embed_backward (dS, tr.source_ids, m.src_embed, m.src_pos);
  [G.tgt_embed, G.tgt_pos] = embed_backward (dT, tr.target_ids, m.tgt_embed, m.tgt_pos);
  if (strcmp (m.config.positions, "sinusoidal"))   # fixed tables
    G.src_pos(:) = 0;
    G.tgt_pos(:) = 0;
  endif
  G.encoder = G_encoder;
  G.decoder = G_decoder;
  if (strcmp (norm, "pre"))
    G.encoder_norm = G_encoder_norm;
    G.decoder_norm = G_decoder_norm;
  endif
  G.W_vocab = dW_vocab;
  G.b_vocab = db_vocab;
endfunction
