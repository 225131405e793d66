## [G, R] = model_backward (m, tr, dlogits): gradients of every learned
## array of any model given dlogits = dL/d(tr.logits), the steps of
## model_forward in reverse (tr its full or lean trace).  G has m's layout
## (model_schema's learned parts; fixed sinusoidal tables get zeros),
## without config, vocabularies and heads.  R, asked for with the full
## trace, is the trace's backward side: dL/d(matrix) for the matrices of
## tr under their names (logits, decoder_out, encoded, target_rows,
## source_rows, and the layers' as layer_stack_backward gives them).
function [G, R] = model_backward (m, tr, dlogits)
  R = struct ("logits", dlogits);
  trace = nargout > 1;
  c = m.config;
  family = model_family (m);
  d = c.d;
  dE = 0;                                      # dL/d(tr.encoded)
  if (! isfield (m, "decoder"))                # encoder families: the class head
    X = tr.encoded;                            # the rows the head reads, in its order
    if (isfield (tr, "readout"))
      X = tr.readout;
    endif
    H = X;
    if (isfield (m, "W_hidden"))
      H = tr.hidden;
    endif
    if (isfield (m, "head_norm"))
      H = tr.head_norm.out;
    endif
    [dX, dW, G.b_class] = vocab_logits (m, H, dlogits);
    if (isfield (m, "head_norm"))              # H = LN (hidden)
      [dX, G.head_norm] = layer_norm_backward (dX, tr.head_norm, m.head_norm, c);
    endif
    if (isfield (m, "W_hidden"))               # hidden = act (X*W_hidden + b_hidden)
      [~, slope] = activation (c.head_activation, tr.hidden_pre);
      [dX, G.W_hidden, G.b_hidden] = attn_rows_backward (dX .* slope, X, m.W_hidden);
    endif
    if (isfield (tr, "pool_weights"))          # readout = sum (w .* E)
      dE = tr.pool_weights .* dX;
    elseif (isfield (tr, "readout"))           # readout = E(1,:,:)
      dE = zeros (size (tr.encoded), class (dX));
      dE(1,:,:) = dX;
    else                                       # a class a row
      dE = dX;
    endif
  else
    [dD, dW, db] = vocab_logits (m, tr.decoder_out, dlogits);
    R.decoder_out = dD;
    if (c.head_bias)
      G.b_vocab = db;
    endif
    if (strcmp (family.pool, "prefix"))
      dD = [zeros(1, d, size (dD, 3), class (dD)); dD];    # the source slot's row is not read
    endif
    if (c.final_norm)
      [dD, G.decoder_norm] = layer_norm_backward (dD, tr.decoder_norm, m.decoder_norm, c);
    endif
    if (trace)
      [dX, dE, G.decoder, R.decoder] = layer_stack_backward (dD, tr.decoder, m.decoder, c);
      R.target_rows = dX;
    else
      [dX, dE, G.decoder] = layer_stack_backward (dD, tr.decoder, m.decoder, c);
    endif
    if (c.embed_norm)
      [dX, G.tgt_embed_norm] = layer_norm_backward (dX, tr.tgt_embed_norm, m.tgt_embed_norm, c);
    endif
    if (isfield (m, "tgt_pos"))
      G.tgt_pos = zeros (size (m.tgt_pos), class (m.tgt_pos));
      G.tgt_pos(1:rows (dX),:) = sum (dX, 3);  # every design adds p_t last
    endif
    switch (family.pool)
      case ""
        dtok = dX;
      case "add"                               # X = tok + c*W_u + p
        [dc, G.W_u] = attn_rows_backward (sum (dX, 1), tr.c, m.W_u);
        dtok = dX;
      case "concat"                            # fused = [tok, c]*W_F
        [dcat, G.W_F] = attn_rows_backward (dX, tr.concat, m.W_F);
        dtok = dcat(:,1:d,:);
        dc = sum (dcat(:,d+1:end,:), 1);
      case "prefix"                            # X = [c*W_P; tok] + p
        [dc, G.W_P] = attn_rows_backward (dX(1,:,:), tr.c, m.W_P);
        dtok = dX(2:end,:,:);
    endswitch
    G.tgt_embed = embed_backward (dtok, tr.target_ids, m.tgt_embed, c);
    if (isfield (tr, "c"))                     # c = sum (w .* E)
      dE = tr.pool_weights .* dc;
    endif
  endif
  if (isfield (m, "encoder"))
    R.encoded = dE;
    if (c.final_norm)
      [dE, G.encoder_norm] = layer_norm_backward (dE, tr.encoder_norm, m.encoder_norm, c);
    endif
    if (trace)
      [dS, ~, G.encoder, R.encoder] = layer_stack_backward (dE, tr.encoder, m.encoder, c);
      R.source_rows = dS;
    else
      [dS, ~, G.encoder] = layer_stack_backward (dE, tr.encoder, m.encoder, c);
    endif
    if (c.embed_norm)
      [dS, G.src_embed_norm] = layer_norm_backward (dS, tr.src_embed_norm, m.src_embed_norm, c);
    endif
    G.src_embed = embed_backward (dS, tr.source_ids, m.src_embed, c);
    if (isfield (m, "src_pos"))
      G.src_pos = zeros (size (m.src_pos), class (m.src_pos));
      G.src_pos(1:rows (dS),:) = sum (dS, 3);
    endif
  endif
  if (c.tie_embeddings)                        # the head's share of its table
    table = merge (isfield (m, "decoder"), "tgt_embed", "src_embed");
    G.(table) += dW;
  else
    G.(merge (isfield (m, "decoder"), "W_vocab", "W_class")) = dW;
  endif
  if (! strcmp (c.positions, "learned"))      # fixed tables
    for f = {"src_pos", "tgt_pos"}
      if (isfield (G, f{1}))
        G.(f{1})(:) = 0;
      endif
    endfor
  endif
  names = fieldnames (m);                      # optimisers pair G with m by layout
  G = orderfields (G, names(isfield (G, names)));
endfunction

## dtable = embed_backward (drows, ids, table, c): the gradient of
## embed_forward's token table.  drows n×d×Bt; each table row collects the
## gradient of every place its token was looked up (in the order of the
## rows, item after item).  (A position's gradient is the sum over the
## batch of its rows.)
function dtable = embed_backward (drows, ids, table, c)
  [V, d] = size (table);
  n = rows (ids);
  at = reshape (ids, n, 1, []) + V * (0:d-1);   # embed_forward's lookup
  dtable = reshape (accumarray (at(:), drows(:), [V * d, 1]), V, d);
  if (c.embed_scale)
    dtable *= sqrt (d);
  endif
endfunction
