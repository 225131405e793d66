## tr = family_forward (m, batch): forward pass of the families of
## attn_family on a batch from family_batch (or attn_batch for the pooled
## models).  The trace follows model_forward's names; additions:
##   encoder families: readout (1×d×Bt: the <cls> row or the mean),
##     pool_weights (m×1×Bt, mean readout), hidden_pre, hidden (MLP head)
##   pooled: c (1×d×Bt, mean of encoded), pool_weights, target_tokens
##     (n×d×Bt lookups), u (add), concat and fused (concat), prefix (prefix)
## logits/probs: n×C×Bt (token), 1×C×Bt (sentence), n×V×Bt otherwise.
function tr = family_forward (m, batch)
  norm = m.config.norm;
  kind = family_kind (m);
  tr = struct ();
  if (! strcmp (kind, "decoder-only"))
    tr = family_encode (m, batch.src, batch.src_allow);
    E = tr.encoded;
  endif
  if (strcmp (kind, "encoder"))
    X = E;
    if (strcmp (m.config.family, "encoder-sentence"))
      if (strcmp (m.config.readout, "cls"))
        tr.readout = E(1,:,:);                  # the updated <cls> row
      else
        [tr.readout, tr.pool_weights] = mean_pool (E, batch.src_allow);
      endif
      X = tr.readout;
      if (isfield (m, "W_hidden"))
        tr.hidden_pre = head_forward (X, m.W_hidden, m.b_hidden);
        tr.hidden = max (tr.hidden_pre, 0);
        X = tr.hidden;
      endif
    endif
    tr.logits = head_forward (X, m.W_class, m.b_class);
    tr.probs = softmax_rows (tr.logits);
    return;
  endif

  ## a causal stack reads the target side (decoder-only and pooled)
  ids = batch.tgt_in;
  allow = batch.tgt_allow;
  n = rows (ids);
  if (strcmp (kind, "decoder-only"))
    X = embed_forward (m.tgt_embed, m.tgt_pos, ids);
  else
    [tr.c, tr.pool_weights] = mean_pool (E, batch.src_allow);
    tr.target_tokens = embed_forward (m.tgt_embed, zeros (n, m.config.d), ids);
    switch (m.config.family)
      case "pooled-add"                         # e_t + u + p_t
        tr.u = linear_rows (tr.c, m.W_u);
        X = tr.target_tokens + tr.u + m.tgt_pos(1:n,:);
      case "pooled-concat"                      # [e_t, c]*W_F + p_t
        tr.concat = [tr.target_tokens, repmat(tr.c, n, 1)];
        tr.fused = linear_rows (tr.concat, m.W_F);
        X = tr.fused + m.tgt_pos(1:n,:);
      case "pooled-prefix"                      # c*W_P at position 1
        tr.prefix = linear_rows (tr.c, m.W_P);
        X = [tr.prefix; tr.target_tokens] + m.tgt_pos(1:n+1,:);
        allow = [true(1, columns (allow)); allow];
    endswitch
  endif
  tr.target_ids = ids;
  tr.tgt_allow = batch.tgt_allow;
  tr.target_rows = X;
  [D, tr.decoder] = encoder_stack (X, m.decoder, allow, norm, @attn_masked);
  if (strcmp (norm, "pre"))
    [D, tr.decoder_norm] = layer_norm (D, m.decoder_norm);
  endif
  if (strcmp (m.config.family, "pooled-prefix"))
    D = D(2:end,:,:);                           # no prediction at the source slot
  endif
  tr.decoder_out = D;
  tr.logits = head_forward (D, m.W_vocab, m.b_vocab);
  tr.probs = softmax_rows (tr.logits);
endfunction
