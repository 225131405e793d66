## Train seed 003's families on generated tasks and measure them on held-out
## data (run: make train-demo, or run ("doc/train_demo.m") with src/ and
## inst/ on the path).
##
## 1. Translation (attn_corpus_translation): the cross-attention
##    encoder-decoder against the three pooled-context encoder-decoders
##    (add u = c*W_u, concatenate [e_t, c]*W_F, prefix c*W_P), same data,
##    same widths, same training time; exact match and token accuracy on the
##    test split (word combinations never seen in training), accuracy by
##    source length (table and accuracy_by_length.png: one pooled vector
##    against cross-attention), loss curves, alignment heatmaps.
## 2. Decoder-only language model on attn_corpus_lm, trained on the answer
##    alone: answer exact match on held-out stories against guessing, its
##    training curve (lm_loss.png), the layer-1 head that gathers each fact
##    into its "." (lm_gather_head.png) and the layer-2 head that copies the
##    answer from there (lm_copy_head.png).
## 3. Encoder-only token classifier (NER) and sentence classifiers (<cls>
##    and mean readout) on attn_corpus_ner.
##
## Environment: ATTN_BUDGET seconds of training per translation model (300),
## ATTN_OUT the folder for figures and the summary (make train-demo:
## train-demo-output at the top of the tree; under run () a relative name
## is taken from doc/, the script's folder),
## ATTN_QUICK=1 small corpora (a smoke test of the script, not of the models).

budget = str2double (getenv ("ATTN_BUDGET"));
if (isnan (budget))
  budget = 300;
endif
out = getenv ("ATTN_OUT");
if (isempty (out))
  out = "train-demo-output";
endif
if (! exist (out, "dir"))
  mkdir (out);
endif
quick = strcmp (getenv ("ATTN_QUICK"), "1");
sizes = @(n) struct ("n_train", n(1), "n_valid", n(2), "n_test", n(3));
set (0, "defaultfigurevisible", "off");
summary = fopen (fullfile (out, "summary.txt"), "w");
say = @(varargin) cellfun (@(f) fprintf (f, varargin{:}), {stdout, summary});

## Train M on CORPUS one epoch at a time until the validation exact match
## reaches 0.99 or BUDGET seconds of training (validation not counted) are
## spent; a progress bar per epoch.  The model of the epoch with the best
## validation exact match is kept (a late epoch can swing: the LM's answer
## loss near 0 makes Adam's steps jumpy).  Further arguments go to
## attn_train.
function [m, hist] = train_for (m, corpus, valid, budget, name, lr, varargin)
  hist = struct ("loss", [], "epoch_valid", [], "seconds", 0, "kept_epoch", 0);
  epoch = 0;
  best = -1;
  kept = m;
  while (hist.seconds < budget)
    epoch++;
    [m, h] = attn_train (m, corpus, "epochs", 1, "batch_size", 64, "lr", lr,
                         "seed", epoch, "verbose", false, varargin{:});
    hist.loss = [hist.loss, h.loss];
    hist.seconds += h.seconds;
    S = attn_score (m, valid);
    hist.epoch_valid(end+1) = S.exact;
    if (S.exact > best)
      [best, kept, hist.kept_epoch] = deal (S.exact, m, epoch);
    endif
    done = min (1, hist.seconds / budget);
    printf ("\r%-14s [%-30s] %3.0f%%  epoch %2d  loss %.3f  valid exact %.3f  %.0f tokens/s",
            name, repmat ("#", 1, round (30 * done)), 100 * done, epoch,
            mean (h.loss), S.exact, h.tokens_per_s);
    fflush (stdout);
    if (S.exact >= 0.99)
      break;
    endif
  endwhile
  printf ("\n");
  m = kept;
endfunction

function v = ifelse_quick (quick, small, full)
  v = full;
  if (quick)
    v = small;
  endif
endfunction

function c = first_n (D, n)
  n = min (n, numel (D.source));
  c = struct ("source", {D.source(1:n)}, "target", {D.target(1:n)});
endfunction

## ---------------------------------------------------------------- translation
say ("== Translation: English -> French, held-out word combinations\n");
tic;
C = attn_corpus_translation (sizes (ifelse_quick (quick, [300 20 40], [6000 500 500])));
say ("corpus: %d train, %d valid, %d test pairs (%.0f s to generate)\n",
     numel (C.train.source), numel (C.valid.source), numel (C.test.source), toc);
base = struct ("src_vocab", attn_vocab (C.train.source), "tgt_vocab", attn_vocab (C.train.target),
               "d", 64, "heads", 4, "d_ff", 128, "encoder_layers", 1, "decoder_layers", 1,
               "max_len", 20, "norm", "pre", "seed", 1);
families = {"encoder-decoder", "pooled-add", "pooled-concat", "pooled-prefix"};
titles = {"cross-attention", "pooled: add u", "pooled: concat", "pooled: prefix"};
valid = first_n (C.valid, 100);
models = cell (1, 4);
curves = {};
scores = cell (1, 4);
buckets = [3 5; 6 8; 9 11; 12 14];
for f = 1:4
  if (f == 1)
    m = attn_model (base);
  else
    m = attn_family (setfield (base, "family", families{f}));
  endif
  [m, hist] = train_for (m, C.train, valid, budget, titles{f}, 2e-3);
  models{f} = m;
  curves{f} = hist.loss;
  S = attn_score (m, C.test);
  scores{f} = S;
  say ("%-16s trained %5.0f s  test exact %.3f  token accuracy %.3f\n", titles{f},
       hist.seconds, S.exact, S.token_accuracy);
endfor
say ("\nexact match on the test split by English length (words):\n%-16s", "");
say ("  %2d-%-2d  ", buckets');
say ("\n");
for f = 1:4
  say ("%-16s", titles{f});
  for b = 1:rows (buckets)
    in = scores{f}.source_length >= buckets(b,1) & scores{f}.source_length <= buckets(b,2);
    say ("  %.3f  ", mean (scores{f}.correct(in)));
  endfor
  say ("\n");
endfor
say ("%-16s", "sentences");
for b = 1:rows (buckets)
  say ("  %5d  ", nnz (scores{1}.source_length >= buckets(b,1)
                       & scores{1}.source_length <= buckets(b,2)));
endfor
say ("\n");

## loss curves (per step, running mean over 20 steps) and alignments
L = nan (max (cellfun (@numel, curves)), 4);
for f = 1:4
  s = [0; cumsum(curves{f}(:))];              # mean of the last (up to) 20 steps
  k = (1:numel (curves{f}))';
  L(k, f) = (s(k+1) - s(max (k - 20, 0) + 1)) ./ min (k, 20);
endfor
attn_plot_loss (L, "labels", titles, "log", true, "xlabel", "step",
                "title", "translation: training loss", "file", fullfile (out, "loss.png"));
## exact match and token accuracy (teacher forced) by source length, the
## four models side by side: one pooled vector has to carry the whole
## sentence, cross-attention reads every word
acc = nan (rows (buckets), 4, 2);
for f = 1:4
  right = zeros (numel (C.test.source), 2);    # tokens right, tokens
  for i = 1:numel (C.test.source)
    tr = attn_forward (models{f}, C.test.source{i}, ["<bos> " C.test.target{i}]);
    want = attn_encode (models{f}.tgt_vocab, [strsplit(C.test.target{i}), {"<eos>"}]);
    [~, got] = max (tr.probs, [], 2);
    right(i,:) = [sum(got(:)' == want(:)'), numel(want)];
  endfor
  for b = 1:rows (buckets)
    in = scores{f}.source_length >= buckets(b,1) & scores{f}.source_length <= buckets(b,2);
    acc(b,f,:) = [mean(scores{f}.correct(in)), sum(right(in,1)) / sum(right(in,2))];
  endfor
endfor
say ("token accuracy (teacher forced) by English length:\n");
for f = 1:4
  say ("%-16s%s\n", titles{f}, sprintf ("  %.3f  ", acc(:,f,2)));
endfor
fig = figure ("position", [100 100 900 720]);
what = {"test exact match", "token accuracy"};
for k = 1:2
  axes ("position", [0.08, 0.56 - 0.47 * (k - 1), 0.88, 0.36]);
  bar (acc(:,:,k));
  set (gca (), "xticklabel", arrayfun (@(b) sprintf ("%d-%d", buckets(b,:)), 1:rows (buckets),
                                       "UniformOutput", false), "ylim", [0 1.3]);
  for f = 1:4                                 # the numbers on the bars
    x = (1:rows (buckets)) - 0.4 + (f - 0.5) * 0.2;
    text (x, acc(:,f,k)' + 0.03, arrayfun (@(v) sprintf ("%.2f", v), acc(:,f,k)', "UniformOutput", false),
          "horizontalalignment", "center", "fontsize", 8);
  endfor
  ylabel (what{k});
  grid ("on");
  if (k == 1)
    title ("translation: cross-attention against one pooled source vector");
    legend (titles, "location", "north", "orientation", "horizontal");
  else
    title ("token accuracy, teacher forced");
    xlabel ("English sentence length (words)");
  endif
endfor
set (fig, "paperunits", "inches", "paperposition", [0 0 9 7.2]);
print (fig, "-dpng", "-r100", fullfile (out, "accuracy_by_length.png"));
close (fig);
say ("accuracy_by_length.png: exact match and token accuracy by English length, the four models\n");

## alignment heatmaps of long test sentences the cross-attention model
## translates right (the longest right ones when none has 9 words or more)
long = find (scores{1}.source_length >= 9 & scores{1}.correct, 3);
if (isempty (long) && any (scores{1}.correct))
  [~, by_len] = sort (scores{1}.source_length .* scores{1}.correct, "descend");
  long = by_len(1:min (3, nnz (scores{1}.correct)));
  say ("no test sentence of 9 or more words is translated right yet (budget %g s): alignments of the longest right ones\n",
       budget);
elseif (isempty (long))
  say ("no alignment figures: the cross-attention model translates no test sentence right yet (budget %g s)\n",
       budget);
endif
for k = 1:numel (long)
  s = C.test.source{long(k)};
  [~, info] = attn_greedy (models{1}, s);
  A = mean (info.A(:,:,:,end), 3);                # last layer, heads averaged
  attn_heatmap (A, info.tokens, info.source_labels, "cross.A, last layer, mean of the heads",
                "axes", {"target", "source"}, "file", fullfile (out, sprintf ("alignment%d.png", k)));
  say ("alignment%d.png: %s -> %s\n", k, s, strjoin (info.tokens, " "));
  [w, at] = max (A, [], 2);                       # each written word's heaviest source word
  say ("  heaviest: %s\n", strjoin (cellfun (@(t, f, x) sprintf ("%s<-%s %.2f", t, f, x),
                                            info.tokens(:)', info.source_labels(at(:)'),
                                            num2cell (w(:)'), "UniformOutput", false), ", "));
endfor
if (! isempty (long))
  say (["  (where a row reads is not why it writes its word: a noun reading \"and\" or\n", ...
        "  \"<eos>\" may take its gender from the layers below; switch heads off with\n", ...
        "  attn_ablate, or patch them with attn_patch, to test a reading)\n"]);
endif
wrong = find (! scores{1}.correct, 5);
for k = wrong'
  say ("cross-attention miss: %s -> %s (want %s)\n", C.test.source{k},
       scores{1}.predictions{k}, C.test.target{k});
endfor

## ---------------------------------------------------------------- decoder-only
## The loss is on the answer and <eos> alone (prompt_weight 0): the facts'
## names and places are random draws no model can predict, so with the loss
## on every token about 16 of a story's 17 labels are noise, the answer's
## gradient is drowned and the model settles on guessing a name or place of
## the right kind.  With the loss on the answer alone 3000 stories are
## learnt by heart (held-out exact ~0.45); 60000 stories leave copying --
## a two-layer lookup circuit: in layer 1 each fact's "." gathers its name
## and its place, in layer 2 the question's "?" finds the "." of the asked
## fact and copies the partner from it (one head for each kind of question).
say ("\n== Decoder-only language model: facts, question, answer\n");
M = attn_corpus_lm (sizes (ifelse_quick (quick, [300 20 40], [60000 200 200])));
lm_cfg = {"d", 64, "heads", 4, "d_ff", 128, "layers", 2, "max_len", 40, "norm", "pre", ...
          "seed", 1};
lm_lr = 2e-3;
lm = attn_family (struct ("family", "decoder-only", "vocab", {M.train.text}, lm_cfg{:}));
[lm, hist] = train_for (lm, M.train, first_n (M.valid, 100), budget, "decoder-only", lm_lr,
                        "prompt_weight", 0);
S = attn_score (lm, M.test);
n_facts = cellfun (@(s) numel (strfind (s, " . ")), M.test.source);
guess = mean (1 ./ n_facts);
say ("decoder-only     trained %5.0f s (%d steps of 64 stories, %d epochs of %d)  test answer exact %.3f\n",
     hist.seconds, numel (hist.loss), numel (hist.epoch_valid), numel (M.train.source), S.exact);
say ("(guessing among the prompt's names or places of the asked kind: %.3f)\n", guess);
say ("validation answer exact after each epoch: %s(epoch %d kept)\n", sprintf ("%.2f ", hist.epoch_valid),
     hist.kept_epoch);
k = (1:numel (hist.loss))';                     # running mean over 20 steps
s = [0; cumsum(hist.loss(:))];
attn_plot_loss (struct ("step", k', "loss", ((s(k+1) - s(max (k - 20, 0) + 1)) ./ min (k, 20))'),
                "log", true, "xlabel", "step",
                "title", "decoder-only: training loss on the answer and <eos>",
                "file", fullfile (out, "lm_loss.png"));
show = find (n_facts == max (n_facts), 1);       # a test story with the most facts
say ("prompt: %s -> %s\n", M.test.source{show}, attn_continue (lm, M.test.source{show}, "max_len", 2));

## The circuit, read off the weights of 100 test prompts.  Each fact is
## "name lives in place .", found by the question's name ("where does X
## live ?") or place ("who lives in Y ?").  Layer 1: the weight each head
## puts, from a fact's "." row, on that fact's name and place (a head that
## gathers the fact into its "."). Last layer: the weight each head puts,
## from the last prompt row ("?", it predicts the answer), on the asked
## fact's "." and on each other fact's "." (a head that finds the fact and
## copies from it), for each kind of question.
nq = min (100, numel (M.test.source));
[H, last] = deal (lm.config.heads, numel (lm.decoder));
kinds = {"who", "where"};
is_where = @(words) strcmp (words{end-4}, "where");
[gather, find_asked, find_other] = deal (zeros (2, H));
[n_kind, n_other] = deal (zeros (2, 1));
for i = 1:nq
  tr = attn_forward (lm, M.test.source{i});
  words = tr.target_labels;
  where = is_where (words);
  at = find (strcmp (words, words{end - 1 - where}), 1);     # first mention: the fact
  name = at - 3 * ! where;                                    # the asked fact's name
  dots = find (strcmp (words, "."));
  A_last = permute (tr.decoder(last).self.A(end, :, :), [2 3 1]);           # positions x heads
  gather += permute (tr.decoder(1).self.A(name + 4, name + [0 3], :), [2 3 1]) / nq;  # name/place x heads
  find_asked(1 + where,:) += A_last(name + 4, :);
  find_other(1 + where,:) += sum (A_last(setdiff (dots, name + 4), :), 1);
  n_kind(1 + where) += 1;
  n_other(1 + where) += numel (dots) - 1;
endfor
find_asked ./= max (n_kind, 1);
find_other ./= max (n_other, 1);
say ("layer 1, from a fact's \".\": weight on its name / place (%d test prompts)\n  %s\n", nq,
     sprintf ("head %d %.2f/%.2f   ", [1:H; gather]));
say ("layer %d, from \"?\": weight on the asked fact's \".\" / on another fact's \".\"\n", last);
for k = 1:2
  say ("  %-5s (%2d)  %s\n", kinds{k}, n_kind(k),
       sprintf ("head %d %.2f/%.2f   ", [1:H; find_asked(k,:); find_other(k,:)]));
endfor
[~, h_gather] = max (max (gather));
tr = attn_forward (lm, M.test.source{show});
[~, h_find] = max (find_asked(1 + is_where (tr.target_labels),:));
attn_heatmap (tr, "decoder(1).self.A", "head", h_gather, "file", fullfile (out, "lm_gather_head.png"));
attn_heatmap (tr, sprintf ("decoder(%d).self.A", last), "head", h_find,
              "file", fullfile (out, "lm_copy_head.png"));
say ("lm_gather_head.png: layer 1 head %d; lm_copy_head.png: layer %d head %d, the head that copies; on: %s\n",
     h_gather, last, h_find, M.test.source{show});

## ---------------------------------------------------------------- encoders
say ("\n== Encoder-only: token classifier (NER) and sentence classifiers\n");
N = attn_corpus_ner (sizes (ifelse_quick (quick, [300 20 40], [2000 200 200])));
enc = struct ("vocab", {N.train.source}, "classes", {N.classes}, "d", 32, "heads", 4,
              "d_ff", 64, "layers", 2, "norm", "pre", "seed", 1);
ner = attn_family (setfield (enc, "family", "encoder-token"));
ner_data = @(D) struct ("source", {D.source}, "target", {D.target});
[ner, hist] = train_for (ner, ner_data (N.train), ner_data (N.valid), budget / 3, "NER", 3e-3);
S = attn_score (ner, ner_data (N.test));
say ("token classifier trained %5.0f s  test token accuracy %.3f  sentences all right %.3f\n",
     hist.seconds, S.token_accuracy, S.exact);
tr = attn_forward (ner, "raghav goes to school in delhi");
[~, best] = max (tr.probs, [], 2);
say ("raghav goes to school in delhi -> %s (6x4 scores)\n",
     strjoin (ner.tgt_vocab.words(best), " "));
topic = @(D) struct ("source", {D.source}, "target", {D.topic});
enc.classes = N.topics;
enc.family = "encoder-sentence";
for readout = {"cls", "mean"}
  for head = {"linear", "mlp"}
    sc = attn_family (setfield (setfield (enc, "readout", readout{1}), "head", head{1}));
    [sc, hist] = train_for (sc, topic (N.train), topic (N.valid), budget / 6,
                            [readout{1} " + " head{1}], 3e-3);
    S = attn_score (sc, topic (N.test));
    say ("topic: %-4s %-6s trained %5.0f s  test accuracy %.3f\n", readout{1}, head{1},
         hist.seconds, S.exact);
  endfor
endfor
fclose (summary);
printf ("figures and summary.txt in %s\n", out);
