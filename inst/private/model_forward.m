## tr = model_forward (m, batch): the encoder-decoder forward pass on token
## ids.  batch: src, src_allow (m×Bt), tgt_in, tgt_allow (n×Bt).  Returns the
## trace of doc/ARCHITECTURE.md ("The forward trace") without the labels.
function tr = model_forward (m, batch)
  if (! strcmp (family_kind (m), "encoder-decoder"))
    tr = family_forward (m, batch);          # seed 003's other families
    return;
  endif
  norm = m.config.norm;
  ## ids and masks first, in the order of the trace table
  tr.source_ids = batch.src;
  tr.src_allow = batch.src_allow;
  tr.target_ids = batch.tgt_in;
  tr.tgt_allow = batch.tgt_allow;
  tr = family_encode (m, batch.src, batch.src_allow, tr);
  E = tr.encoded;
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
