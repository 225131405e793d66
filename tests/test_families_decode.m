## Decoding and training of seed 003's other families through the
## encoder-decoder's entry points (attn_greedy, attn_train).

%!function m = pooled (family, varargin)
%!  c = struct ("family", family, "d", 8, "heads", 2, "d_ff", 6, "max_len", 9, "seed", 3,
%!              "src_vocab", {{"raghav goes to delhi", "meera goes to school in delhi"}},
%!              "tgt_vocab", {{"raghav va a delhi", "meera va a l ecole"}}, varargin{:});
%!  m = attn_family (c);
%!endfunction

## cached decoding (one row per step) gives the probabilities of rerunning
## the whole prefix, for the three designs and the three norm placements
%!test
%! for f = {"pooled-add", "pooled-concat", "pooled-prefix"}
%!   for norm = {"none", "post", "pre"}
%!     m = pooled (f{1}, "norm", norm{1});
%!     m.b_vocab(m.tgt_vocab.eos) = -50;          # run to the length limit
%!     [t1, i1] = attn_greedy (m, "meera goes to delhi");
%!     [t2, i2] = attn_greedy (m, "meera goes to delhi", "cache", false);
%!     assert (t1, t2);
%!     assert (i1.probs, i2.probs, 1e-12);
%!     assert (i1.encoder_passes, 1);
%!     assert (i1.decoder_steps, 9 - strcmp (f{1}, "pooled-prefix"));
%!     assert (size (i1.A), [i1.decoder_steps, 5, 0, 2]);
%!   endfor
%! endfor

## the first step's distribution is the trace's last row
%!test
%! m = pooled ("pooled-concat");
%! [~, info] = attn_greedy (m, "raghav goes to delhi", "max_len", 1);
%! tr = attn_forward (m, "raghav goes to delhi", "<bos>");
%! assert (info.probs(1,:), tr.probs(end,:), 1e-12);

## attn_train fits the pooled models, the decoder-only model and the
## classifiers: the loss on the training pairs falls
%!test
%! pairs = {"raghav goes to delhi", "raghav va a delhi";
%!          "meera goes to school in delhi", "meera va a l ecole"};
%! for f = {"pooled-add", "pooled-concat", "pooled-prefix"}
%!   m = pooled (f{1});
%!   before = attn_loss (m, pairs(:,1), pairs(:,2));
%!   m = attn_train (m, pairs, "epochs", 80, "batch_size", 2, "lr", 0.01, "verbose", false);
%!   assert (attn_loss (m, pairs(:,1), pairs(:,2)) < before / 4);
%!   assert (attn_greedy (m, pairs{2,1}), pairs{2,2});
%! endfor

%!test
%! lm = attn_family (struct ("family", "decoder-only", "d", 8, "heads", 2, "layers", 1,
%!                           "vocab", "raghav goes to school in delhi", "seed", 2));
%! data = {"raghav goes", "to school in delhi"};
%! before = attn_loss (lm, data(1), data(2));
%! lm = attn_train (lm, data, "epochs", 60, "batch_size", 1, "lr", 0.02, "verbose", false);
%! assert (attn_loss (lm, data(1), data(2)) < before / 4);
%! assert (attn_continue (lm, "raghav goes"), "to school in delhi");

## A cell of sentences decodes as one batch (one encoder pass over the
## padded sources, one decoder step for every live row): each sentence's
## text, ids and tokens equal decoding it alone, its probabilities and
## alignments to 1e-12, on every generating family, for greedy and beam,
## cached and uncached; sentences of different lengths stop at their own
## <eos> or length limit.
%!function models = batch_models ()
%!  ## {model, sources}: the five generating designs, small and untrained
%!  sv = {"raghav goes to delhi", "meera goes to school in delhi"};
%!  tv = {"raghav va a delhi", "meera va a l ecole"};
%!  src = {"meera goes to delhi", "raghav", "goes to school in delhi raghav", "", "delhi goes"};
%!  c = struct ("src_vocab", {sv}, "tgt_vocab", {tv}, "d", 8, "heads", 2, "d_ff", 6,
%!              "max_len", 9, "seed", 4, "norm", "pre", "encoder_layers", 2,
%!              "decoder_layers", 2);
%!  models = {attn_model(c), src};
%!  for f = {"pooled-add", "pooled-concat", "pooled-prefix"}
%!    models(end+1,:) = {attn_family(setfield (c, "family", f{1})), src};
%!  endfor
%!  d = struct ("family", "decoder-only", "d", 8, "heads", 2, "layers", 2, "d_ff", 6,
%!              "max_len", 9, "norm", "post", "seed", 5, "vocab", {[sv, tv]});
%!  models(end+1,:) = {attn_family(d), {"raghav goes", "meera", "", "delhi va a l", "goes"}};
%!endfunction

%!test
%! models = batch_models ();
%! stops = {};
%! for i = 1:rows (models)
%!   [m, src] = models{i,:};
%!   for bias = [1.5, -50]                      # some stop at <eos> / all at the limit
%!     m.b_vocab(m.tgt_vocab.eos) = bias;
%!     for cache = [true, false]
%!       [T, I] = attn_greedy (m, src, "cache", cache);
%!       [B, J] = attn_beam (m, src, 2, "cache", cache, "max_len", 5);
%!       assert (size (T), size (src));
%!       assert (size (I), size (src));
%!       for s = 1:numel (src)
%!         [t, g] = attn_greedy (m, src{s}, "cache", cache);
%!         assert (T{s}, t);
%!         assert (isequal ({I(s).ids, I(s).tokens, I(s).stopped, I(s).decoder_steps, ...
%!                           I(s).encoder_passes, I(s).source_labels}, ...
%!                          {g.ids, g.tokens, g.stopped, g.decoder_steps, ...
%!                           g.encoder_passes, g.source_labels}),
%!                 "%s: greedy sentence %d", m.config.family, s);
%!         assert (I(s).probs, g.probs, 1e-12);
%!         assert (I(s).A, g.A, 1e-12);
%!         [b, k] = attn_beam (m, src{s}, 2, "cache", cache, "max_len", 5);
%!         assert (B{s}, b);
%!         assert (isequal (J(s).ids, k.ids) && isequal ({J(s).beams.ids}, {k.beams.ids}),
%!                 "%s: beam sentence %d", m.config.family, s);
%!         assert ([J(s).beams.score], [k.beams.score], 1e-12);
%!         assert (J(s).probs, k.probs, 1e-12);
%!         assert (J(s).A, k.A, 1e-12);
%!         stops{end+1} = g.stopped;
%!       endfor
%!     endfor
%!   endfor
%!   ## the greedy batch against a whole forward pass per sentence and step
%!   m.b_vocab(m.tgt_vocab.eos) = 1.5;
%!   [~, I] = attn_greedy (m, src);
%!   v = m.tgt_vocab;
%!   for s = 1:numel (src)
%!     ids = I(s).ids;
%!     for n = 1:numel (ids)
%!       if (strcmp (m.config.family, "decoder-only"))
%!         tr = attn_forward (m, [v.bos, attn_encode(v, src{s}), ids(1:n-1)]);
%!       else
%!         tr = attn_forward (m, src{s}, [v.bos, ids(1:n-1)]);
%!       endif
%!       [~, best] = max (tr.probs(end,:));
%!       assert (ids(n), best);
%!     endfor
%!   endfor
%! endfor
%! assert (any (strcmp (stops, "eos")) && any (strcmp (stops, "length")));

## a batch of one is the single sentence; an empty batch decodes nothing
%!test
%! m = attn_toy ("blackcat");
%! [t, info] = attn_greedy (m, {"the white dog"});
%! [u, g] = attn_greedy (m, "the white dog");
%! assert (t, {u});
%! assert (isequal (info, g));
%! [t, info] = attn_beam (m, {}, 2);
%! assert (size (t), [0 0]);
%! assert (isempty (info));

%!test
%! ## a Llama-shaped decoder (rotary positions, grouped key/value heads,
%! ## RMSNorm, gated SiLU FFN without biases, tied head) and an
%! ## encoder-decoder with rotary positions and biases: the K/V-cached
%! ## decoding equals the decoding that runs the whole prefix at every step
%! c = struct ("family", "decoder-only", "vocab", "a b c d e f g", "d", 8, "heads", 4,
%!             "kv_heads", 2, "layers", 2, "positions", "rope", "attn_bias", true,
%!             "norm", "pre", "norm_kind", "rmsnorm", "activation", "silu",
%!             "ffn_gated", true, "ffn_bias", false, "tie_embeddings", true, "seed", 3);
%! m = attn_family (c);
%! [t1, i1] = attn_continue (m, "a b", "max_len", 6);
%! [t2, i2] = attn_continue (m, "a b", "max_len", 6, "cache", false);
%! assert (t1, t2);
%! assert (i1.probs, i2.probs, 1e-14);
%! m = attn_model (struct ("src_vocab", "a b c", "tgt_vocab", "x y z", "d", 8, "heads", 2,
%!                         "positions", "rope", "attn_bias", true, "kv_heads", 1, "seed", 4));
%! [s1, j1] = attn_greedy (m, "a b c", "max_len", 5);
%! [s2, j2] = attn_greedy (m, "a b c", "max_len", 5, "cache", false);
%! assert (s1, s2);
%! assert (j1.probs, j2.probs, 1e-14);
