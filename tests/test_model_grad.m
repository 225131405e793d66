## Whole-model gradients of attn_loss against central finite differences,
## for every learned array of the seed-000 toy and of 2-layer,
## 2-head models with FFN and post- or pre-LayerNorm (a random sample of the
## entries of every array), on padded batches with label smoothing.

%!function L = leaves (S, subs)
%!  ## subscripts of every numeric array in S (depth first)
%!  L = {};
%!  if (! isstruct (S))
%!    L = {subs};
%!    return;
%!  endif
%!  names = fieldnames (S);
%!  for k = 1:numel (S)
%!    for i = 1:numel (names)
%!      s = [subs, substruct("()", {k}, ".", names{i})];
%!      L = [L, leaves(S(k).(names{i}), s)];
%!    endfor
%!  endfor
%!endfunction

%!function name = path_name (s)
%!  name = "";
%!  for t = s
%!    if (strcmp (t.type, "."))
%!      name = [name "." t.subs];
%!    elseif (numel (t.subs) && t.subs{1} > 1)
%!      name = sprintf ("%s(%d)", name, t.subs{1});
%!    endif
%!  endfor
%!endfunction

%!function check_gradients (m, loss, entries)
%!  ## G of every learned array (the model minus config, vocabularies and
%!  ## heads) against (loss(w+h) - loss(w-h))/2h on up to `entries` entries
%!  [~, G] = loss (m);
%!  learned = m;
%!  learned = rmfield (learned, {"config", "src_vocab", "tgt_vocab"});
%!  paths = leaves (learned, struct ("type", {}, "subs", {}));
%!  paths = paths(cellfun (@(s) ! any (strcmp (s(end).subs, {"heads", "kv_heads", "rope_base"})), paths));
%!  assert (numel (leaves (G, struct ("type", {}, "subs", {}))), numel (paths));
%!  h = 1e-5;
%!  for p = 1:numel (paths)
%!    s = paths{p};
%!    W = subsref (m, s);
%!    g = subsref (G, s);
%!    assert (size (g), size (W));
%!    pick = randperm (numel (W), min (numel (W), entries));
%!    num = zeros (size (pick));
%!    for e = 1:numel (pick)
%!      up = W;  up(pick(e)) += h;
%!      down = W;  down(pick(e)) -= h;
%!      num(e) = (loss (subsasgn (m, s, up)) - loss (subsasgn (m, s, down))) / (2*h);
%!    endfor
%!    err = norm (num - g(pick)) / max (norm (num), 1e-2);
%!    assert (err < 1e-7, "%s: relative error %g", path_name (s), err);
%!  endfor
%!endfunction

%!test
%! ## the seed-000 toy, every array (8 random entries each), both pairs
%! randn ("state", 1);  rand ("state", 1);
%! m = attn_toy ("river");
%! b = attn_batch (m, {"the river bank", "the financial bank"}, {"la rive", "la banque"});
%! check_gradients (m, @(mm) attn_loss (mm, b), 8);

%!test
%! ## 2 layers, 2 heads, FFN, post-norm, dk != dv, padding, label smoothing
%! randn ("state", 2);  rand ("state", 2);
%! c = struct ("src_vocab", {{"the river bank", "the financial bank on the hill"}},
%!             "tgt_vocab", {{"la rive", "la banque sur la colline"}},
%!             "d", 4, "heads", 2, "dk", 3, "dv", 2, "d_ff", 3, "max_len", 7,
%!             "encoder_layers", 2, "decoder_layers", 2, "norm", "post");
%! m = attn_model (c);
%! b = attn_batch (m, {"the river bank", "bank on the hill"}, {"la rive", "la banque sur la colline"});
%! check_gradients (m, @(mm) attn_loss (mm, b, "label_smoothing", 0.1), 3);

%!test
%! ## pre-norm (with the final LayerNorms) and sinusoidal positions, whose
%! ## fixed tables get zero gradients
%! randn ("state", 3);  rand ("state", 3);
%! c = struct ("src_vocab", {{"the river bank", "the financial bank on the hill"}},
%!             "tgt_vocab", {{"la rive", "la banque sur la colline"}},
%!             "d", 4, "heads", 2, "d_ff", 3, "max_len", 7, "positions", "sinusoidal",
%!             "encoder_layers", 2, "decoder_layers", 2, "norm", "pre");
%! m = attn_model (c);
%! b = attn_batch (m, {"the river bank", "hill"}, {"la rive", "la banque sur"});
%! loss = @(mm) attn_loss (mm, b);
%! [~, G] = loss (m);
%! assert (G.src_pos, zeros (size (m.src_pos)));
%! assert (G.tgt_pos, zeros (size (m.tgt_pos)));
%! m.config.positions = "learned";               # so the tables may be checked
%! check_gradients (m, loss, 3);

%!test
%! ## the FFN activations other than ReLU, through the whole model
%! randn ("state", 4);  rand ("state", 4);
%! for act = {"gelu", "gelu_tanh", "silu"}
%!   c = struct ("src_vocab", "the river bank", "tgt_vocab", "la rive", "d", 4,
%!               "heads", 2, "d_ff", 3, "max_len", 5, "encoder_layers", 1,
%!               "decoder_layers", 1, "activation", act{1});
%!   m = attn_model (c);
%!   b = attn_batch (m, {"the river bank", "bank"}, {"la rive", "rive"});
%!   check_gradients (m, @(mm) attn_loss (mm, b), 3);
%! endfor

%!test
%! ## RMSNorm with its own epsilon, pre-norm; post-norm with final norms
%! randn ("state", 5);  rand ("state", 5);
%! c = struct ("src_vocab", "the river bank", "tgt_vocab", "la rive", "d", 4,
%!             "heads", 2, "d_ff", 3, "max_len", 5, "encoder_layers", 1,
%!             "decoder_layers", 1, "norm", "pre", "norm_kind", "rmsnorm", "norm_eps", 1e-6);
%! for post = [false, true]
%!   if (post)
%!     c.norm = "post";  c.final_norm = true;
%!   endif
%!   m = attn_model (c);
%!   b = attn_batch (m, {"the river bank", "bank"}, {"la rive", "rive"});
%!   check_gradients (m, @(mm) attn_loss (mm, b), 3);
%! endfor

%!test
%! ## the embedding options: scaled rows, their norms, a tied head
%! randn ("state", 6);  rand ("state", 6);
%! c = struct ("src_vocab", "the river bank", "tgt_vocab", "la rive", "d", 4,
%!             "heads", 2, "d_ff", 3, "max_len", 5, "encoder_layers", 1,
%!             "decoder_layers", 1, "embed_scale", true, "embed_norm", true,
%!             "tie_embeddings", true, "head_bias", false);
%! m = attn_model (c);
%! b = attn_batch (m, {"the river bank", "bank"}, {"la rive", "rive"});
%! check_gradients (m, @(mm) attn_loss (mm, b), 4);

%!test
%! ## attention options: biases, grouped key/value heads, rotary positions
%! randn ("state", 8);  rand ("state", 8);
%! c = struct ("src_vocab", "the river bank", "tgt_vocab", "la rive", "d", 4,
%!             "heads", 2, "kv_heads", 1, "attn_bias", true, "positions", "rope",
%!             "d_ff", 3, "max_len", 5, "encoder_layers", 1, "decoder_layers", 1);
%! m = attn_model (c);
%! b = attn_batch (m, {"the river bank", "bank"}, {"la rive", "rive"});
%! check_gradients (m, @(mm) attn_loss (mm, b), 3);

%!test
%! ## gated FFNs with and without biases
%! randn ("state", 7);  rand ("state", 7);
%! c = struct ("src_vocab", "the river bank", "tgt_vocab", "la rive", "d", 4,
%!             "heads", 2, "d_ff", 3, "max_len", 5, "encoder_layers", 1,
%!             "decoder_layers", 1, "activation", "silu", "ffn_gated", true);
%! for bias = [true, false]
%!   m = attn_model (setfield (c, "ffn_bias", bias));
%!   b = attn_batch (m, {"the river bank", "bank"}, {"la rive", "rive"});
%!   check_gradients (m, @(mm) attn_loss (mm, b), 3);
%! endfor

%!test
%! ## the trace's backward side (attn_loss's info.grads) against the weight
%! ## gradients the finite-difference tests above hold: each weight's
%! ## gradient is its input rows' transpose times the gradient of what it
%! ## makes (one sentence: no batch sum)
%! randn ("state", 9);  rand ("state", 9);
%! for norm = {"post", "pre"}
%!   c = struct ("src_vocab", "the river bank", "tgt_vocab", "la rive", "d", 4,
%!               "heads", 2, "d_ff", 3, "max_len", 5, "encoder_layers", 2,
%!               "decoder_layers", 2, "norm", norm{1});
%!   m = attn_model (c);
%!   [~, G, info] = attn_loss (m, "the river bank", "la rive");
%!   R = info.grads;
%!   tr = info.trace;
%!   ms = rows (tr.source_rows);
%!   n = rows (tr.target_rows);
%!   assert (R.source_rows, G.src_pos(1:ms,:), 1e-13);
%!   assert (R.target_rows, G.tgt_pos(1:n,:), 1e-13);
%!   for l = 1:2
%!     T = tr.decoder(l);
%!     assert (G.decoder(l).cross.W_V, T.cross.E' * R.decoder(l).cross.V, 1e-13);
%!     assert (G.decoder(l).cross.W_Q, T.cross.D' * R.decoder(l).cross.Q, 1e-13);
%!     assert (G.decoder(l).self.W_O, T.self.message' * R.decoder(l).self.delta, 1e-13);
%!     assert (G.decoder(l).ffn.W_1, T.ffn.X' * R.decoder(l).ffn.pre, 1e-13);
%!     assert (G.encoder(l).self.W_K, tr.encoder(l).self.X' * R.encoder(l).self.K, 1e-13);
%!     ## dL/dA of each head: dmessage_j * V_j'
%!     dm = R.decoder(l).cross.message;
%!     assert (R.decoder(l).cross.A(:,:,2), dm(:,3:4) * T.cross.V(:,3:4)', 1e-13);
%!   endfor
%! endfor
