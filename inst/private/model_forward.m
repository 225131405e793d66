## tr = model_forward (m, batch, mode): the forward pass of any model, assembled
## from the parts it holds (doc/ARCHITECTURE.md, "One pass from parts"):
## embeddings and positions -> encoder stack (when m has one) -> pooling
## and fusion (pooled designs) -> causal stack, its layers with
## cross-attention when they hold it -> vocabulary or class head.
## batch: src, src_allow (m×Bt), tgt_in, tgt_allow (n×Bt) as attn_batch
## makes them.  Returns the trace of doc/ARCHITECTURE.md ("The forward
## trace") without the labels; additions of the families:
##   encoder families: readout (1×d×Bt: the <cls> row or the mean),
##     pool_weights (m×1×Bt, mean readout), hidden_pre, hidden (MLP head:
##     1×d_hidden×Bt, or n×d_hidden×Bt for a token classifier), head_norm
##     (a token head's LayerNorm trace, as layer_norm gives it)
##   pooled: c (1×d×Bt, mean of encoded), pool_weights, target_tokens
##     (n×d×Bt lookups), u (add), concat and fused (concat), prefix (prefix)
## logits/probs: n×C×Bt (token), 1×C×Bt (sentence), n×V×Bt otherwise.
## mode "lean" (default "full"): the training pass, only what model_backward
## reads (the kernels' lean traces, no probs, no masks, no rows kept for
## inspection alone); the same logits and the same gradients.  "step": a
## pass without gradients (a loss alone), the kernels' step traces and no
## LayerNorm traces in the stacks; the same logits.  patch
## (attn_patch; default [] for none): an intervention in one attention
## block, patch.stack naming the stack (layer_stack takes the rest).
function tr = model_forward (m, batch, mode = "full", patch = [])
  c = m.config;
  family = model_family (m);
  full = strcmp (mode, "full");
  tr = struct ();
  if (isfield (m, "src_embed"))               # ids and masks first
    tr.source_ids = batch.src;
    if (full)
      tr.src_allow = batch.src_allow;
    endif
  endif
  if (isfield (m, "tgt_embed"))
    tr.target_ids = batch.tgt_in;
    if (full)
      tr.tgt_allow = batch.tgt_allow;
    endif
  endif
  E = src_allow = [];
  if (isfield (m, "encoder"))
    src_allow = batch.src_allow;
    tr = model_encode (m, batch.src, src_allow, tr, mode, stack_patch (patch, "encoder"));
    E = tr.encoded;
  endif
  if (! isfield (m, "decoder"))               # encoder families: a class head
    X = E;
    if (strcmp (family.readout, "sentence"))
      if (any (strcmp (c.readout, {"cls", "first"})))
        tr.readout = E(1,:,:);                  # the updated <cls> (or first) row
      else
        [tr.readout, tr.pool_weights] = mean_pool (E, src_allow);
      endif
      X = tr.readout;
    endif
    if (isfield (m, "W_hidden"))              # the MLP layer of the head
      tr.hidden_pre = attn_rows (X, m.W_hidden, m.b_hidden);
      tr.hidden = activation (c.head_activation, tr.hidden_pre);
      X = tr.hidden;
    endif
    if (isfield (m, "head_norm"))             # a token head's LayerNorm after it
      [X, tr.head_norm] = layer_norm (X, m.head_norm, c);
    endif
    tr.logits = vocab_logits (m, X);          # X*W_class, or tied X*src_embed.', + b_class
    if (full)
      tr.probs = softmax_rows (tr.logits);
    endif
    return;
  endif

  allow = batch.tgt_allow;
  if (! isempty (family.pool))                  # one pooled source vector
    [tr.c, tr.pool_weights] = mean_pool (E, src_allow);
  endif
  [X, tr] = decoder_input (m, batch.tgt_in, 0, tr);
  if (strcmp (family.pool, "prefix"))           # the source row is real
    allow = [true(1, columns (allow)); allow];
  endif
  if (full)
    tr.target_rows = X;
  endif
  [D, tr.decoder] = layer_stack (X, m.decoder, allow, true, c, E, src_allow, mode, [],
                                 stack_patch (patch, "decoder"));
  if (c.final_norm)
    [D, tr.decoder_norm] = layer_norm (D, m.decoder_norm, c);
  endif
  if (strcmp (family.pool, "prefix"))
    D = D(2:end,:,:);                           # no prediction at the source slot
  endif
  tr.decoder_out = D;
  tr.logits = vocab_logits (m, D);
  if (full)
    tr.probs = softmax_rows (tr.logits);
  endif
endfunction

## the patch when it is in the stack `stack`, else []
function q = stack_patch (patch, stack)
  q = [];
  if (! isempty (patch) && strcmp (patch.stack, stack))
    q = patch;
  endif
endfunction
