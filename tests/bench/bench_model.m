## Benchmark of the encoder-decoder model: training steps and greedy decoding
## on the MEX kernels against the same steps in plain Octave.  Run by
## `make bench` (src/, inst/ and tests/reference/ on the path).
##
## "plain Octave" runs the package's own model code with the attention
## kernels (attn_self, attn_masked, attn_cross, attn_backward, attn_sdpa)
## replaced by the package's plain-Octave definitions (attn_ref_block,
## attn_ref_block_backward, attn_ref_sdpa): the wrappers are written to a temporary
## folder put first on the path, so the model glue, embeddings, FFN,
## LayerNorm, head and optimiser are the same .m code in both columns.
##
##  (a) one SGD step (attn_loss + attn_sgd) of the seed-000 toy on its two
##      training pairs;
##  (b) one Adam step (attn_loss + attn_adam) of a 2-layer, d = 64, h = 4,
##      d_ff = 256, post-norm model on a batch of 32 pairs (sources 6-12
##      words, targets 5-11 words);
##  (c) greedy decoding of 20 tokens with that model (encoder once, cached
##      keys and values), and the uncached decoding for comparison.
## tokens/s counts label tokens for training and written tokens for decoding.

1;   # a script, with helper functions below

## Median over `runs` of the seconds one call of f () takes.
function t = seconds_per_call (f, runs)
  t = zeros (runs, 1);
  for r = 1:runs
    t0 = tic ();
    f ();
    t(r) = toc (t0);
  endfor
  t = median (t);
endfunction

## Wrappers that put the plain-Octave reference in the kernels' place.  The
## model layer may ask for the lean trace (mode "lean"); the reference's
## full trace holds every field of it.
function dir = plain_kernels ()
  dir = tempname ();
  mkdir (dir);
  cached = "  if (! isempty (c))\n    [Y, T] = plain_cached_block (%s, %s, B, a, c, %d);\n    return;\n  endif\n";
  wrap = {"attn_self",     ["function [Y, T] = attn_self (X, B, a = [], mode = \"\", c = [])\n" sprintf(cached, "X", "X", 0) "  [Y, T] = attn_ref_block (\"self\", X, [], B, a);\nendfunction\n"]
          "attn_masked",   ["function [Y, T] = attn_masked (X, B, a = [], mode = \"\", c = [])\n" sprintf(cached, "X", "X", 1) "  [Y, T] = attn_ref_block (\"masked\", X, [], B, a);\nendfunction\n"];
          "attn_cross",    ["function [Y, T] = attn_cross (D, E, B, a = [], mode = \"\", c = [])\n" sprintf(cached, "D", "E", 0) "  [Y, T] = attn_ref_block (\"cross\", D, E, B, a);\nendfunction\n"];
          "attn_backward", "function G = attn_backward (dY, T, B)\n  G = attn_ref_block_backward (dY, T, B);\nendfunction\n";
          "attn_sdpa",     "function [M, A, S] = attn_sdpa (varargin)\n  [M, A, S] = attn_ref_sdpa (varargin{:});\nendfunction\n"};
  for i = 1:rows (wrap)
    fid = fopen (fullfile (dir, [wrap{i,1} ".m"]), "w");
    fputs (fid, wrap{i,2});
    fclose (fid);
  endfor
endfunction

function s = random_sentence (words, lo, hi)
  s = strjoin (words(randi (numel (words), 1, randi ([lo hi]))), " ");
endfunction

function m = sgd_step (m, batch)
  [~, G] = attn_loss (m, batch);
  m = attn_sgd (m, G, 0.1);
endfunction

function m = adam_step (m, batch)
  [~, G] = attn_loss (m, batch);
  m = attn_adam (m, G, []);
endfunction

## (a) the seed-000 toy and its two pairs
toy = attn_toy ("river");
toy_batch = attn_batch (toy, {"the river bank", "the financial bank"}, {"la rive", "la banque"});
## (b) 2 layers, d = 64, h = 4, a batch of 32 random sentence pairs
old = rand ("state");
rand ("state", 1);
en = arrayfun (@(i) sprintf ("w%d", i), 1:60, "UniformOutput", false);
fr = arrayfun (@(i) sprintf ("m%d", i), 1:60, "UniformOutput", false);
src = arrayfun (@(i) random_sentence (en, 6, 12), 1:32, "UniformOutput", false);
tgt = arrayfun (@(i) random_sentence (fr, 5, 11), 1:32, "UniformOutput", false);
rand ("state", old);
c = struct ("src_vocab", attn_vocab (en), "tgt_vocab", attn_vocab (fr), "d", 64,
            "heads", 4, "d_ff", 256, "norm", "post", "encoder_layers", 2,
            "decoder_layers", 2, "seed", 1);
big = attn_model (c);
big_batch = attn_batch (big, src, tgt);
printf ("(b): %d pairs, %d label tokens, padded to %d source x %d target rows\n",
        columns (big_batch.src), nnz (big_batch.tgt_allow), rows (big_batch.src),
        rows (big_batch.tgt_in));

names = {"(a) toy: SGD step", "(b) d=64 h=4: Adam step, batch 32", ...
         "(c) greedy, 20 tokens, cached", "    greedy, 20 tokens, uncached"};
steps = {@() sgd_step(toy, toy_batch), @() adam_step(big, big_batch), ...
         @() attn_greedy(big, src{1}, "max_len", 20), ...
         @() attn_greedy(big, src{1}, "max_len", 20, "cache", false)};
tokens = [nnz(toy_batch.tgt_allow), nnz(big_batch.tgt_allow), 20, 20];
runs = [200, 10, 20, 5];

t = zeros (numel (steps), 2);
for i = 1:numel (steps)
  t(i,1) = seconds_per_call (steps{i}, runs(i));
endfor
dir = plain_kernels ();
addpath (dir);
unwind_protect
  assert (strncmp (which ("attn_self"), dir, numel (dir)));
  for i = 1:numel (steps)
    t(i,2) = seconds_per_call (steps{i}, max (3, runs(i) / 4));
  endfor
unwind_protect_cleanup
  rmpath (dir);
  confirm_recursive_rmdir (false, "local");
  rmdir (dir, "s");
end_unwind_protect

printf ("\n%-36s %12s %12s %8s %12s %12s\n", "", "MEX ms", "plain ms", "speed-up",
        "MEX tok/s", "plain tok/s");
for i = 1:numel (steps)
  printf ("%-36s %12.3f %12.3f %7.1fx %12.0f %12.0f\n", names{i}, 1e3 * t(i,1),
          1e3 * t(i,2), t(i,2) / t(i,1), tokens(i) / t(i,1), tokens(i) / t(i,2));
endfor

## (d) single against double (attn_cast): an Adam step of the train-demo's
## translation model (doc/train_demo.m: d = 64, h = 4, d_ff = 128, one
## encoder and one decoder layer, pre-norm, batches of 64 pairs of 3-14
## words), the Adam step of (b), and the greedy decoding of (c).  Double
## and single run in turn, one call each, so that other work on the
## machine slows both alike; the ratio is that of the medians.
old = rand ("state");
rand ("state", 2);
src64 = arrayfun (@(i) random_sentence (en, 3, 14), 1:64, "UniformOutput", false);
tgt64 = arrayfun (@(i) random_sentence (fr, 3, 14), 1:64, "UniformOutput", false);
rand ("state", old);
demo = attn_model (struct ("src_vocab", attn_vocab (en), "tgt_vocab", attn_vocab (fr),
                           "d", 64, "heads", 4, "d_ff", 128, "encoder_layers", 1,
                           "decoder_layers", 1, "max_len", 20, "norm", "pre", "seed", 1));
demo_batch = attn_batch (demo, src64, tgt64);
cases = {"train-demo: Adam step, batch 64", @(m) adam_step (m, demo_batch), demo, 15;
         "(b) d=64 h=4: Adam step, batch 32", @(m) adam_step (m, big_batch), big, 10;
         "(c) greedy, 20 tokens, cached", @(m) attn_greedy (m, src{1}, "max_len", 20), big, 20};
printf ("\n(d) single vs double, in turn\n%-36s %12s %12s %8s\n", "", "double ms",
        "single ms", "ratio");
for i = 1:rows (cases)
  [name, f, m, runs] = cases{i,:};
  ms = attn_cast (m, "single");
  f (m);  f (ms);                                   # warm up
  [td, ts] = deal (zeros (runs, 1));
  for r = 1:runs
    td(r) = seconds_per_call (@() f (m), 1);
    ts(r) = seconds_per_call (@() f (ms), 1);
  endfor
  printf ("%-36s %12.3f %12.3f %7.2fx\n", name, 1e3 * median (td), 1e3 * median (ts),
          median (td) / median (ts));
endfor
