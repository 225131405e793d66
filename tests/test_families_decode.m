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
