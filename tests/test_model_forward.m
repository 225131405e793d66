## The encoder-decoder model (attn_forward, attn_loss) against the plain-Octave
## forward of tests/reference/ref_model_forward.m, written separately from the
## formulas: every configuration of norm placement, FFN, positions, heads and
## widths; batches with padding agree with each sentence run alone.

%!function m = small_model (varargin)
%!  c = struct ("src_vocab", {{"the river bank", "the financial bank on the hill"}},
%!              "tgt_vocab", {{"la rive", "la banque sur la colline"}},
%!              "d", 6, "heads", 2, "d_ff", 5, "max_len", 9,
%!              "encoder_layers", 2, "decoder_layers", 2);
%!  for i = 1:2:numel (varargin)
%!    c.(varargin{i}) = varargin{i+1};
%!  endfor
%!  m = attn_model (c);
%!endfunction

%!function check_batch (m)
%!  ## each column of a padded batch agrees with the reference on its own
%!  sources = {"the river bank", "bank", "the financial bank on the hill"};
%!  targets = {"la rive", "la banque sur la colline", "banque"};
%!  b = attn_batch (m, sources, targets);
%!  tr = attn_forward (m, b);
%!  for k = 1:numel (sources)
%!    src = b.src(b.src_allow(:,k), k);
%!    tgt = b.tgt_in(b.tgt_allow(:,k), k);
%!    r = ref_model_forward (m, src, tgt);
%!    n = numel (tgt);
%!    assert (tr.encoded(1:numel (src),:,k), r.encoded, 1e-12);
%!    assert (tr.decoder_out(1:n,:,k), r.decoder_out, 1e-12);
%!    assert (tr.logits(1:n,:,k), r.logits, 1e-12);
%!    assert (tr.probs(1:n,:,k), r.probs, 1e-12);
%!  endfor
%!endfunction

%!test
%! for norm = {"none", "post", "pre"}
%!   check_batch (small_model ("norm", norm{1}));
%! endfor

%!test
%! ## every FFN activation (a model trained with GELU is not a ReLU model)
%! for act = {"gelu", "gelu_tanh", "silu"}
%!   check_batch (small_model ("activation", act{1}, "norm", "pre"));
%! endfor

%!test
%! ## the norm options: RMSNorm, another epsilon, a final norm after a
%! ## post-norm stack, none after a pre-norm one
%! check_batch (small_model ("norm", "pre", "norm_kind", "rmsnorm", "norm_eps", 1e-6));
%! check_batch (small_model ("norm", "post", "norm_kind", "rmsnorm", "final_norm", true));
%! check_batch (small_model ("norm", "post", "norm_eps", 1e-12, "final_norm", true));
%! check_batch (small_model ("norm", "pre", "final_norm", false));
%! m = small_model ("norm", "pre", "norm_kind", "rmsnorm");
%! assert (fieldnames (m.encoder(1).norm_self), {"gain"});
%! assert (isfield (small_model ("norm", "post", "final_norm", true), "decoder_norm"));

%!test
%! ## gated FFNs (SwiGLU, GeGLU), with and without biases
%! check_batch (small_model ("activation", "silu", "ffn_gated", true, "ffn_bias", false));
%! check_batch (small_model ("activation", "gelu", "ffn_gated", true));
%! m = small_model ("ffn_bias", false);
%! assert (fieldnames (m.decoder(1).ffn), {"W_1"; "W_2"});
%! check_batch (m);

%!test
%! ## attention options: projection biases, grouped key/value heads, rotary
%! ## positions (no position tables)
%! m = small_model ("attn_bias", true, "heads", 2, "d", 6);
%! m.decoder(2).cross.b_K = randn (size (m.decoder(2).cross.b_K));
%! m.encoder(1).self.b_O = randn (size (m.encoder(1).self.b_O));
%! check_batch (m);
%! check_batch (small_model ("heads", 4, "kv_heads", 2, "d", 8, "dk", 2, "dv", 3));
%! m = small_model ("positions", "rope", "rope_base", 100, "norm", "pre", "d", 8,
%!                  "heads", 2, "kv_heads", 1, "attn_bias", true);
%! assert (! isfield (m, "src_pos") && ! isfield (m.decoder(1).cross, "rope_base"));
%! assert (m.decoder(1).self.rope_base, 100);
%! check_batch (m);

%!test
%! ## the embedding options: rows scaled by sqrt (d), normalised, a head
%! ## tied to the target embeddings
%! check_batch (small_model ("embed_scale", true));
%! check_batch (small_model ("embed_norm", true, "norm", "pre"));
%! check_batch (small_model ("embed_norm", true, "norm_kind", "rmsnorm"));
%! m = small_model ("tie_embeddings", true);
%! assert (! isfield (m, "W_vocab"));
%! m.b_vocab = randn (size (m.b_vocab));
%! check_batch (m);
%! m = small_model ("tie_embeddings", true, "head_bias", false);
%! assert (! isfield (m, "b_vocab"));
%! check_batch (m);

%!test
%! ## the two layouts of the sinusoidal table, from the formula
%! for layout = {"sinusoidal", "sinusoidal_concat"}
%!   m = small_model ("positions", layout{1}, "d", 6, "max_len", 9);
%!   p = (0:8)';
%!   angle = @(k) p / 10000 ^ (2 * k / 6);
%!   if (strcmp (layout{1}, "sinusoidal"))
%!     want = [sin(angle (0)), cos(angle (0)), sin(angle (1)), cos(angle (1)), sin(angle (2)), cos(angle (2))];
%!   else
%!     want = [sin(angle (0)), sin(angle (1)), sin(angle (2)), cos(angle (0)), cos(angle (1)), cos(angle (2))];
%!   endif
%!   assert (m.src_pos, want, 1e-15);
%!   assert (m.tgt_pos, want, 1e-15);
%!   check_batch (m);
%! endfor

%!test
%! ## no FFN, sinusoidal positions, dk != dv, 3 heads, 1 and 3 layers
%! check_batch (small_model ("d_ff", 0, "positions", "sinusoidal", "heads", 3,
%!                           "dk", 2, "dv", 1, "encoder_layers", 1,
%!                           "decoder_layers", 3, "norm", "pre"));

%!test
%! ## the seed toys
%! for name = {"river", "blackcat"}
%!   m = attn_toy (name{1});
%!   src = attn_encode (m.src_vocab, {"the", m.src_vocab.words{end}, "<eos>"});
%!   tr = attn_forward (m, src, [m.tgt_vocab.bos 2 3]);
%!   r = ref_model_forward (m, src, [m.tgt_vocab.bos 2 3]);
%!   assert (tr.source_rows, r.source_rows, 1e-14);
%!   assert (tr.target_rows, r.target_rows, 1e-14);
%!   assert (tr.probs, r.probs, 1e-12);
%! endfor

%!test
%! ## the trace's layout: names, shapes and labels
%! m = small_model ("norm", "post");
%! tr = attn_forward (m, "the river bank", "la rive");
%! assert (tr.source_labels', {"the", "river", "bank", "<eos>"});
%! assert (tr.target_labels', {"<bos>", "la", "rive"});
%! assert (tr.vocab_labels, m.tgt_vocab.words);
%! assert (size (tr.source_rows), [4 6]);
%! assert (size (tr.decoder(2).cross.A), [3 4 2]);
%! assert (size (tr.decoder(1).self.A), [3 3 2]);
%! assert (tr.decoder(1).self.A(1,2:3,:), zeros (1, 2, 2));
%! assert (size (tr.encoder(1).ffn.hidden), [4 5]);
%! assert (tr.encoder(2).input, tr.encoder(1).out);
%! assert (tr.decoder(1).after_self, tr.decoder(1).norm_self.out);
%! assert (tr.decoder(2).cross.E, tr.encoded);
%! assert (size (tr.logits), [3 numel(m.tgt_vocab.words)]);

%!test
%! ## the loss: mean cross-entropy over the real labels of a padded batch,
%! ## with label smoothing, against the reference probabilities
%! m = small_model ("norm", "pre");
%! sources = {"the river bank", "the financial bank on the hill"};
%! targets = {"la rive", "la banque sur la colline"};
%! for eps = [0 0.1]
%!   [loss, ~, info] = attn_loss (m, sources, targets, "label_smoothing", eps);
%!   total = 0;  count = 0;
%!   for k = 1:2
%!     y = attn_encode (m.tgt_vocab, targets{k});
%!     r = ref_model_forward (m, [attn_encode(m.src_vocab, sources{k}), m.src_vocab.eos],
%!                            [m.tgt_vocab.bos, y]);
%!     labels = [y, m.tgt_vocab.eos];
%!     V = columns (r.probs);
%!     for i = 1:numel (labels)
%!       row = -(1 - eps) * log (r.probs(i,labels(i))) - eps / V * sum (log (r.probs(i,:)));
%!       assert (info.row_loss(i,k), row, 1e-12);
%!       total += row;  count += 1;
%!     endfor
%!   endfor
%!   assert (loss, total / count, 1e-12);
%!   assert (info.tokens, count);
%!   assert (info.row_loss(4:end,1), zeros (3, 1));
%! endfor

%!error id=attention:size attn_forward (small_model (), "the river bank on the hill the bank the river")
%!error id=attention:model attn_forward (struct ("config", 1), "the")
%!error id=attention:option attn_loss (small_model (), "the", "la", "smoothing", 0.1)
%!error id=attention:option attn_loss (small_model (), "the", "la", "label_smoothing", 1)
