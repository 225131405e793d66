## tr = model_forward (m, batch): the encoder-decoder forward pass on token
## ids.  batch: src, src_allow (m×Bt), tgt_in, tgt_allow (n×Bt).  Returns the
## trace of doc/ARCHITECTURE.md ("The forward trace") without the labels.
function tr = model_forward (m, batch)
  if (! strcmp (family_kind (m), "encoder-decoder"))
    tr = family_forward (m, batch);          # seed 003's other families
    return;
  endif
  norm = m.config.norm;
  tr.source_ids = batch.src;
  tr.src_allow = batch.src_allow;
  tr.target_ids = batch.tgt_in;
  tr.tgt_allow = batch.tgt_allow;
  tr.source_rows = embed_forward (m.src_embed, m.src_pos, batch.src);
  [E, tr.encoder] = encoder_stack (tr.source_rows, m.encoder, batch.src_allow, norm);
  if (strcmp (norm, "pre"))
    [E, tr.encoder_norm] = layer_norm (E, m.encoder_norm);
  endif
  tr.encoded = E;
  tr.target_rows = embed_forward (m.tgt_embed, m.tgt_pos, batch.tgt_in);
  [D, tr.decoder] = decoder_stack (tr.target_rows, E, m.decoder,
                                   batch.tgt_allow, batch.src_allow, norm);
  if (strcmp (norm, "pre"))
    [D, tr.decoder_norm] = layer_norm (D, m.decoder_norm);
  endif
  tr.decoder_out = D;
  tr.logits = head_forward (D, m.W_vocab, m.b_vocab);
  tr.probs = softmax_rows (tr.logits);
endfunction
