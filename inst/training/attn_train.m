## -*- texinfo -*-
## @deftypefn  {} {[@var{m}, @var{history}] =} attn_train (@var{m}, @var{corpus})
## @deftypefnx {} {[@var{m}, @var{history}] =} attn_train (@var{m}, @var{corpus}, @var{name}, @var{value}, @dots{})
## Train an attention model with teacher forcing.  It learns from a
## parallel corpus in mini-batches.
##
## @var{corpus} is an N×2 cell array of @{source, target@} sentences, or a
## struct with cell fields @code{source} and @code{target}.  The corpus is
## encoded and padded once; each epoch visits every pair once in batches of
## @code{batch_size} (shuffled from @code{seed} when @code{shuffle}), each
## batch the columns of the padded corpus that @code{attn_batch} would
## build for its pairs, and each batch is one @code{attn_loss} (its
## computation: the model and the corpus are checked once, not every step)
## and one fused optimiser step (@code{attn_step}).
##
## Options: @code{epochs} (10), @code{batch_size} (32), @code{optimizer}
## (@qcode{"adam"} or @qcode{"sgd"}), @code{lr} (1e-3), @code{beta1},
## @code{beta2}, @code{epsilon} (Adam), @code{clip} (global gradient norm
## limit, Inf = none), @code{label_smoothing} (0), @code{prompt_weight} (1:
## for a decoder-only model, the weight of the prompt's labels in the loss;
## 0 trains on the answer and @code{<eos>} alone), @code{shuffle} (true),
## @code{bucket} (false: true batches pairs of similar length together, the
## batches in random order, which cuts the padding), @code{seed} (0; the
## caller's random state is kept), @code{verbose} (true: one line per epoch
## with the epoch, mean loss, tokens per second and the time left),
## @code{checkpoint} (a file name, @qcode{""} = none) and
## @code{checkpoint_every} (100 steps).
##
## @strong{Validation.}  @code{validation} (@qcode{@{@}} = none) is a
## held-out corpus of the same form as @var{corpus}, its sentences text.
## At the end of every epoch the model of that moment is measured on it
## and the history records @code{val_loss} (the training objective on the
## validation pairs: @code{attn_loss} with the same @code{label_smoothing}
## and, for a decoder-only model, the same prompt weights; without either
## it is @code{attn_loss (m, sources, targets)}), and @code{val_exact} and
## @code{val_token_accuracy} (@code{attn_score}'s @code{exact} and
## @code{token_accuracy}: a generating model's greedy output equals the
## target, a token classifier's every label of a sentence is right, a
## sentence classifier's class is right; and per token).  The epoch's
## line prints them.  Greedy decoding of the whole set runs every epoch:
## a few hundred pairs are plenty.  @code{samples} (0 = none): every that
## many steps, print what the model of that step makes of the first three
## validation sources (of the training corpus when there is no validation
## corpus) beside their targets.  Neither changes the run: the model and
## the losses are those of the same call without them, bit for bit.
##
## @strong{Checkpoints.}  With @code{checkpoint}, the whole training state
## is saved in that file: at the start, every @code{checkpoint_every}
## steps, at the end, when the loss diverges and when the run is
## interrupted (Ctrl-C) or fails.  The state is the model, the optimiser's
## moments and step count, the epoch and step reached, the epoch's pair
## order, the random state and the history.  The file is a safetensors
## file (data only, never evaluated: see @code{attn_save}; the model's
## arrays are named @qcode{"model.@dots{}"}, the rest @qcode{"train.@dots{}"},
## and the format tag is @qcode{"attention-checkpoint 1"}), written
## atomically, so an interrupt during a save keeps the previous checkpoint.
## When the file exists, @code{attn_train} continues from it: the model,
## corpus and options (all but @code{epochs}, @code{verbose} and the
## checkpoint options) must be those it was written with
## (@code{attention:checkpoint} otherwise); @code{epochs} may be larger to
## train on.  An interrupted run continued this way ends with the model and
## losses of the same run uninterrupted, bit for bit.  The file is read as
## strictly as @code{attn_load} reads a model (@code{attention:file} for
## anything damaged).  Without a checkpoint an interrupt prints how to keep
## the progress next time.
##
## @strong{Divergence.}  A step whose loss is NaN, Inf or above
## 1000 × max (first loss of the run, log V) (V the target vocabulary; a
## kernel overflow counts as Inf) stops the run with the warning
## @code{attention:diverged} naming the step and the learning rate.  The
## model returned (and saved) is the one before that step, the last whose
## loss was finite and sane, so that nothing learned is lost; the history
## says where it stopped.
##
## @var{history}: @code{loss} (one entry per step; after a divergence the
## last entry is the diverged loss), @code{epoch_loss} (token-weighted mean
## per finished epoch), @code{epoch_step} (the step each finished epoch
## ended at: @code{attn_plot_loss} draws @code{epoch_loss} and the
## validation curve there), @code{val_loss}, @code{val_exact},
## @code{val_token_accuracy} (per epoch; empty without @code{validation}),
## @code{tokens_per_s} (per epoch), @code{seconds}
## (total), @code{diverged} (the step whose loss diverged, 0 if none).
##
## @example
## @group
## m = attn_toy ("blackcat");
## corpus = @{"the black cat", "le chat noir"; "the white dog", "le chien blanc"@};
## [m, h] = attn_train (m, corpus, "epochs", 5, "lr", 0.01, "verbose", false);
## h.epoch_loss(end) < h.epoch_loss(1)
##   @result{} ans = 1
## @end group
## @end example
## @seealso{attn_loss, attn_adam, attn_sgd, attn_clip, attn_batch, attn_step, attn_save}
## @end deftypefn

function [m, history] = attn_train (m, corpus, varargin)
  if (nargin < 2)
    print_usage ();
  endif
  o = parse_options ("attn_train",
                     {"epochs", 10, "integer [1, Inf)";
                      "batch_size", 32, "integer [1, Inf)";
                      "optimizer", "adam", "one of adam, sgd";
                      "lr", 1e-3, "real (0, Inf)";
                      "beta1", 0.9, "real [0, 1)";
                      "beta2", 0.999, "real [0, 1)";
                      "epsilon", 1e-8, "real (0, Inf)";
                      "clip", Inf, "real (0, Inf]";
                      "label_smoothing", 0, "real [0, 1)";
                      "prompt_weight", 1, "real [0, 1]";
                      "shuffle", true, "flag";
                      "bucket", false, "flag";
                      "seed", 0, "integer [0, 4294967295]";
                      "checkpoint", "", "text";
                      "checkpoint_every", 100, "integer [1, Inf]";
                      "validation", {}, "any";
                      "samples", 0, "integer [0, Inf)";
                      "verbose", true, "flag"}, varargin);
  check_model (m, "attn_train");
  [sources, targets] = corpus_pairs (corpus, "CORPUS", "attention:type");
  ## the corpus encoded and padded once; each step slices its columns
  [data, lengths] = model_batch (m, sources, targets, "attn_train");
  check_batch (m, data, "attn_train", true);
  N = numel (sources);
  o.weights = prompt_weights (m, data, targets, o.prompt_weight);
  val = held_out (m, o);
  show = sample_pairs (val, sources, targets, o.samples);
  steps = ceil (N / o.batch_size);
  old = rand ("state");
  rand ("state", o.seed);
  run = struct ("m", m, "t", 0, "mom", [], "vel", [], "epoch", 1, "step", 0,
                "order", 1:N, "rand", rand ("state"), "total", 0, "tokens", 0,
                "epoch_seconds", 0,
                "history", struct ("loss", zeros (1, 0), "epoch_loss", zeros (1, 0),
                                   "epoch_step", zeros (1, 0), "val_loss", zeros (1, 0),
                                   "val_exact", zeros (1, 0), "val_token_accuracy", zeros (1, 0),
                                   "tokens_per_s", zeros (1, 0), "seconds", 0, "diverged", 0));
  rand ("state", old);
  saving = ! isempty (o.checkpoint);
  if (any (o.checkpoint == "\0"))
    error ("attention:file", "attn_train: option \"checkpoint\" holds a NUL byte, which no file name can hold");
  endif
  if (saving)
    ## the options and corpus a checkpoint must have been written with
    o.fingerprint = train_checkpoint ("fingerprint", data);
    o.val_fingerprint = "";
    if (! isempty (val))
      o.val_fingerprint = train_checkpoint ("fingerprint", val.data);
    endif
    [~, absent] = stat (o.checkpoint);        # (exist would search the load path)
    if (! absent)
      run = train_checkpoint ("read", o.checkpoint, run, o, N, steps);
    else
      train_checkpoint ("write", o.checkpoint, run, o, 0, 0);   # refuses a model or file it cannot save
    endif
  endif
  limit = diverge_limit (run.history, m);
  done = false;
  failed = false;
  start = tic ();
  t0 = tic ();
  unwind_protect
    try
      while (run.epoch <= o.epochs && ! run.history.diverged)
        if (run.step == 0)
          next = run;
          [next.order, next.rand] = epoch_order (run.rand, lengths, o);
          [next.total, next.tokens, next.epoch_seconds] = deal (0);
          run = next;
          t0 = tic ();
        endif
        while (run.step < steps)
          s = run.step + 1;
          pick = run.order((s-1)*o.batch_size + 1 : min (s*o.batch_size, N));
          batch = model_batch (data, lengths, pick);
          [loss, G] = step_loss (run.m, batch, pick, o);
          loss = double (loss);              # the history is double, whatever the model's class
          if (isempty (limit))
            limit = diverge_limit (struct ("loss", loss), m);
          endif
          next = run;
          next.history.loss(end+1) = loss;
          if (! (loss <= limit))             # NaN, Inf or exploding
            next.history.diverged = numel (next.history.loss);
            run = next;
            break;
          endif
          if (isfinite (o.clip))
            G = attn_clip (G, o.clip);
          endif
          next.t = run.t + 1;
          if (strcmp (o.optimizer, "adam"))
            [next.m, next.mom, next.vel] = attn_step (run.m, G, o.lr, run.mom, run.vel,
                                                      o.beta1, o.beta2, o.epsilon, next.t);
          else
            next.m = attn_step (run.m, G, o.lr);
          endif
          n = nnz (batch.tgt_allow);
          next.total = run.total + loss * n;
          next.tokens = run.tokens + n;
          next.step = s;
          run = next;                        # one assignment: an interrupt keeps whole steps
          if (saving && mod (run.t, o.checkpoint_every) == 0)
            train_checkpoint ("write", o.checkpoint, run, o, toc (t0), toc (start));
          endif
          if (o.samples > 0 && mod (run.t, o.samples) == 0)
            print_samples (run.m, show, run.t);
          endif
        endwhile
        if (run.history.diverged)
          break;
        endif
        next = run;
        seconds = run.epoch_seconds + toc (t0);
        next.history.epoch_loss(end+1) = run.total / run.tokens;
        next.history.epoch_step(end+1) = numel (run.history.loss);
        next.history.tokens_per_s(end+1) = run.tokens / seconds;
        said = "";
        if (! isempty (val))
          [loss, exact, accuracy] = validate (run.m, val, o.batch_size);
          next.history.val_loss(end+1) = loss;
          next.history.val_exact(end+1) = exact;
          next.history.val_token_accuracy(end+1) = accuracy;
          said = sprintf ("  val loss %.4f  val exact %.3f", loss, exact);
        endif
        next.epoch = run.epoch + 1;
        next.step = 0;
        run = next;
        if (o.verbose)
          left = toc (start) / (run.epoch - 1) * (o.epochs - run.epoch + 1);
          printf ("epoch %d/%d  loss %.4f%s  %.0f tokens/s  time left %d:%02d\n", run.epoch - 1,
                  o.epochs, run.history.epoch_loss(end), said, run.history.tokens_per_s(end),
                  floor (left / 60), round (mod (left, 60)));
          fflush (stdout);
        endif
      endwhile
    catch err
      failed = true;
      rethrow (err);
    end_try_catch
    done = true;
  unwind_protect_cleanup
    if (saving && (done || run.t > 0))
      train_checkpoint ("write", o.checkpoint, run, o, toc (t0), toc (start));
    endif
    if (! done && ! failed)
      interrupted (run, steps, o);
    endif
  end_unwind_protect
  m = run.m;
  history = run.history;
  history.seconds += toc (start);
  if (history.diverged)
    warning ("attention:diverged",
             "attn_train: the loss diverged at step %d (epoch %d, loss %g) with lr %g; training stopped and the model before that step is returned%s; try a smaller lr",
             history.diverged, run.epoch, history.loss(end), o.lr,
             merge (saving, [" and saved in " o.checkpoint], ""));
  endif
endfunction

## [loss, G] = the loss of one batch and its gradients (model_loss, as
## attn_loss without its checks: the model and the padded corpus were
## checked once); a kernel overflow (huge weights) is a diverged step:
## loss Inf
function [loss, G] = step_loss (m, batch, pick, o)
  weights = [];
  if (! isempty (o.weights))
    weights = o.weights(1:rows (batch.labels), pick);
  endif
  try
    [loss, G] = model_loss (m, batch, weights, o.label_smoothing, "lean");
  catch err
    if (! strcmp (err.identifier, "attention:overflow"))
      rethrow (err);
    endif
    loss = Inf;
    G = [];
  end_try_catch
endfunction

## The divergence rule: a loss above 1000 × max (first loss, log V) or not
## finite.  [] until the run has a first loss.
function limit = diverge_limit (history, m)
  limit = [];
  if (! isempty (history.loss))
    limit = 1e3 * max (history.loss(1), log (numel (m.tgt_vocab.words)));
  endif
endfunction

## what Ctrl-C leaves the user: where it stopped, and how to keep progress
function interrupted (run, steps, o)
  if (isempty (o.checkpoint))
    fprintf (stderr, ["attn_train: interrupted in epoch %d at step %d of %d; the progress is lost.  ", ...
                      "To keep it next time, give a checkpoint file: attn_train (m, corpus, ..., ", ...
                      "\"checkpoint\", \"run.safetensors\"); the same call continues from it.\n"],
             run.epoch, run.step, steps);
  else
    fprintf (stderr, ["attn_train: interrupted in epoch %d at step %d of %d (%d steps in all); saved in %s: ", ...
                      "call attn_train again with the same options and checkpoint to continue.\n"],
             run.epoch, run.step, steps, run.t, o.checkpoint);
  endif
endfunction

## [order, state] = epoch_order (state, L, o): the epoch's pair order drawn
## from the rand state (randperm when shuffling) and the state after it.
## With bucket, pairs of similar length are batched together (sorted by
## length, ties in the shuffled order), the full batches in random order,
## the short one last.
function [order, state] = epoch_order (state, L, o)
  N = numel (L.src);
  old = rand ("state");
  rand ("state", state);
  order = 1:N;
  if (o.shuffle)
    order = randperm (N);
  endif
  if (o.bucket)
    [~, k] = sort (L.src(order) + L.tgt(order));
    order = order(k);
    full = floor (N / o.batch_size);
    if (o.shuffle && full > 1)
      at = reshape (1:full*o.batch_size, o.batch_size, full)(:, randperm (full));
      order(1:full*o.batch_size) = order(at(:));
    endif
  endif
  state = rand ("state");
  rand ("state", old);
endfunction

## the loss weight of every label of the padded corpus (rows × pairs), or
## [] for the plain mean: a decoder-only model's labels are the prompt's
## words, then the answer's and <eos>; the prompt's get weight w
function W = prompt_weights (m, data, targets, w)
  W = [];
  if (w != 1 && strcmp (model_family (m).batch, "text"))
    answer = cellfun (@(t) numel (to_ids (m.tgt_vocab, t, "target", "attn_train", "target")), targets);
    prompt = sum (data.tgt_allow, 1) - answer - 1;
    W = 1 - (1 - w) * ((1:rows (data.labels))' <= prompt);
  endif
endfunction

## The validation corpus of option "validation" encoded and padded once
## (data, lengths as model_batch gives them), its sentences (source,
## target: 1×N cellstr) and the loss weight of its labels; [] for none.
function val = held_out (m, o)
  val = [];
  if (isempty (o.validation))
    return;
  endif
  [source, target] = corpus_pairs (o.validation, "option \"validation\"", "attention:option");
  if (! (iscellstr (source) && iscellstr (target)))
    error ("attention:option",
           "attn_train: option \"validation\" must hold sentences as text (attn_score decodes them), got %s",
           disp_arg (o.validation));
  endif
  [data, lengths] = model_batch (m, source, target, "attn_train");
  check_batch (m, data, "attn_train", true);
  val = struct ("data", data, "lengths", lengths, "source", {source}, "target", {target},
                "weights", prompt_weights (m, data, target, o.prompt_weight),
                "smoothing", o.label_smoothing);
endfunction

## [loss, exact, accuracy] = validate (m, val, batch_size): the training
## objective on the validation pairs (the labels' weighted mean over
## batches of batch_size, as one attn_loss of them all gives it) and
## attn_score's exact match and token accuracy
function [loss, exact, accuracy] = validate (m, val, batch_size)
  N = numel (val.source);
  [total, count] = deal (0);
  for first = 1:batch_size:N
    pick = first:min (first + batch_size - 1, N);
    batch = model_batch (val.data, val.lengths, pick);
    w = batch.tgt_allow;
    weights = [];
    if (! isempty (val.weights))
      weights = val.weights(1:rows (batch.labels), pick);
      w = weights .* w;
    endif
    total += double (model_loss (m, batch, weights, val.smoothing, "step")) * sum (w(:));
    count += sum (w(:));
  endfor
  loss = total / max (count, realmin);
  S = attn_score (m, struct ("source", {val.source}, "target", {val.target}),
                  "batch_size", batch_size);
  [exact, accuracy] = deal (S.exact, S.token_accuracy);
endfunction

## the pairs option "samples" shows: the first three of the validation
## corpus, else of the training corpus (text either way); [] for none
function show = sample_pairs (val, sources, targets, every)
  show = [];
  if (every == 0)
    return;
  endif
  if (! isempty (val))
    [sources, targets] = deal (val.source, val.target);
  elseif (! (iscellstr (sources) && iscellstr (targets)))
    error ("attention:option",
           "attn_train: option \"samples\" shows sentences as text: give a \"validation\" corpus of text, or a CORPUS of text");
  endif
  k = 1:min (3, numel (sources));
  show = struct ("source", {sources(k)}, "target", {targets(k)});
endfunction

## print what the model of step t makes of the sample pairs
function print_samples (m, show, t)
  S = attn_score (m, show);
  for k = 1:S.n
    printf ("step %d  %s -> %s  (target: %s)\n", t, show.source{k}, S.predictions{k},
            strtrim (show.target{k}));
  endfor
  fflush (stdout);
endfunction

## Sources and targets (1×N cells) of an N×2 cell or a source/target struct;
## errors call it NAME, a wrong form raises ID.
function [sources, targets] = corpus_pairs (corpus, name, id)
  if (iscell (corpus) && columns (corpus) == 2)
    sources = corpus(:,1)';
    targets = corpus(:,2)';
  elseif (isstruct (corpus) && all (isfield (corpus, {"source", "target"}))
          && iscell (corpus.source) && iscell (corpus.target)
          && numel (corpus.source) == numel (corpus.target))
    sources = corpus.source(:)';
    targets = corpus.target(:)';
  else
    error (id,
           "attn_train: %s must be an N×2 cell of {source, target} sentences or a struct with cells source and target of equal length, got %s",
           name, disp_arg (corpus));
  endif
  if (isempty (sources))
    error ("attention:size", "attn_train: %s holds no sentence pair", name);
  endif
endfunction

%!shared corpus, m
%! corpus = {"the black cat", "le chat noir"; "the white dog", "le chien blanc";
%!           "the black dog", "le chien noir"};
%! m = attn_toy ("blackcat");

%!test
%! ## one epoch, batches of 2: the first batch is one attn_loss + Adam step
%! [m1, h] = attn_train (m, corpus, "epochs", 1, "batch_size", 2, "shuffle", false,
%!                       "lr", 0.01, "verbose", false);
%! [loss, G] = attn_loss (m, corpus(1:2,1), corpus(1:2,2));
%! assert (h.loss(1), loss, 1e-14);
%! assert (numel (h.loss), 2);
%! m2 = attn_adam (m, G, [], "lr", 0.01);
%! [loss2, G2] = attn_loss (m2, corpus(3,1), corpus(3,2));
%! assert (h.loss(2), loss2, 1e-14);
%! assert (size (h.epoch_loss), [1 1]);
%! ## three epochs of two steps each end at steps 2, 4, 6
%! [~, h] = attn_train (m, corpus, "epochs", 3, "batch_size", 2, "verbose", false);
%! assert (h.epoch_step, [2 4 6]);

%!test
%! ## SGD with clipping, against the steps written out
%! [m1, h] = attn_train (m, corpus, "epochs", 1, "batch_size", 3, "optimizer", "sgd",
%!                       "lr", 0.5, "clip", 0.1, "shuffle", false, "verbose", false);
%! [~, G] = attn_loss (m, corpus(:,1), corpus(:,2));
%! assert (m1, attn_sgd (m, attn_clip (G, 0.1), 0.5));

%!test
%! ## the same seed gives the same model; progress lines are printed
%! a = attn_train (m, corpus, "epochs", 2, "batch_size", 1, "seed", 4, "verbose", false);
%! [out, b] = evalc ('attn_train (m, corpus, "epochs", 2, "batch_size", 1, "seed", 4)');
%! assert (a, b);
%! assert (! isempty (regexp (out, 'epoch 2/2  loss [0-9.]+  [0-9]+ tokens/s  time left 0:00')));

%!test
%! ## prompt_weight: a decoder-only model's prompt labels weighted, the
%! ## answer and <eos> weighted 1 (weights written out from the word counts)
%! lm = attn_family (struct ("family", "decoder-only", "vocab", "a b c ? d e", "d", 6,
%!                           "heads", 2, "d_ff", 8, "seed", 3));
%! qa = {"a b ?", "d"; "c ?", "e d"};
%! [lm1, h] = attn_train (lm, qa, "epochs", 1, "batch_size", 2, "shuffle", false,
%!                        "prompt_weight", 0.25, "lr", 0.01, "verbose", false);
%! w = [0.25 0.25 0.25 1 1; 0.25 0.25 1 1 1]';  # a b ? | d <eos>; c ? | e d <eos>
%! [loss, G] = attn_loss (lm, qa(:,1), qa(:,2), "weights", w);
%! assert (h.loss, loss, 1e-14);
%! assert (lm1, attn_adam (lm, G, [], "lr", 0.01));
%! ## weight 1 is the plain loss; other families ignore the option
%! assert (attn_train (lm, qa, "epochs", 1, "prompt_weight", 1, "verbose", false),
%!         attn_train (lm, qa, "epochs", 1, "verbose", false));
%! assert (attn_train (m, corpus, "epochs", 1, "prompt_weight", 0, "verbose", false),
%!         attn_train (m, corpus, "epochs", 1, "verbose", false));

%!test
%! ## validation: each epoch's val_loss is attn_loss of the validation pairs
%! ## with the model at that epoch's end (the run of that many epochs), and
%! ## val_exact the share of greedy translations equal to the target; the
%! ## run itself is the one without validation, bit for bit
%! val = {"the white cat", "le chat blanc"; "the dog", "le chien"; "the cat", "le chat"};
%! opts = {"batch_size", 2, "lr", 0.05, "seed", 3, "verbose", false};
%! [m3, h] = attn_train (m, corpus, "epochs", 3, opts{:}, "validation", val);
%! [m0, h0] = attn_train (m, corpus, "epochs", 3, opts{:});
%! assert (isequal (m3, m0) && isequal (h.loss, h0.loss));
%! assert (size (h.val_loss), [1 3]);
%! assert (isempty (h0.val_loss));
%! for e = 1:3
%!   me = attn_train (m, corpus, "epochs", e, opts{:});
%!   assert (h.val_loss(e), attn_loss (me, val(:,1), val(:,2)), 1e-12);
%!   right = 0;
%!   for i = 1:rows (val)
%!     right += strcmp (attn_greedy (me, val{i,1}), val{i,2});
%!   endfor
%!   assert (h.val_exact(e), right / rows (val));
%! endfor
%! ## label smoothing: the same objective on the validation pairs
%! [~, h] = attn_train (m, corpus, "epochs", 1, opts{:}, "label_smoothing", 0.1,
%!                      "validation", cell2struct ({val(:,1); val(:,2)}, {"source", "target"}));
%! m1 = attn_train (m, corpus, "epochs", 1, opts{:}, "label_smoothing", 0.1);
%! assert (h.val_loss, attn_loss (m1, val(:,1), val(:,2), "label_smoothing", 0.1), 1e-12);

%!test
%! ## a decoder-only model with prompt_weight: the answer-weighted loss
%! lm = attn_family (struct ("family", "decoder-only", "vocab", "a b c ? d e", "d", 6,
%!                           "heads", 2, "d_ff", 8, "seed", 3));
%! qa = {"a b ?", "d"; "c ?", "e d"; "a ?", "e"};
%! [lm1, h] = attn_train (lm, qa(1:2,:), "epochs", 1, "prompt_weight", 0, "lr", 0.01,
%!                        "verbose", false, "validation", qa(3,:), "batch_size", 1);
%! w = [0 0 1 1]';                                   # a ? | e <eos>
%! assert (h.val_loss, attn_loss (lm1, qa(3,1), qa(3,2), "weights", w), 1e-12);
%! assert (h.val_exact, double (strcmp (attn_continue (lm1, "a ?", "max_len", 2), "e")));

%!test
%! ## a token classifier: exact is every label of a sentence right,
%! ## val_token_accuracy per word (argmax of the probabilities)
%! c = struct ("family", "encoder-token", "vocab", {{"anna sees oslo", "omar sees cairo"}},
%!             "classes", {{"PER", "LOC", "O"}}, "d", 6, "heads", 2, "layers", 1, "seed", 1);
%! e = attn_family (c);
%! data = {"anna sees oslo", "PER O LOC"; "omar sees cairo", "PER O LOC"};
%! val = {"omar sees oslo", "PER O LOC"; "anna sees cairo", "PER O O"};
%! [e1, h] = attn_train (e, data, "epochs", 2, "lr", 0.05, "verbose", false, "validation", val);
%! [right, words] = deal (0);
%! for i = 1:2
%!   [~, best] = max (attn_forward (e1, val{i,1}).probs, [], 2);
%!   hit = strcmp (e1.tgt_vocab.words(best), strsplit (val{i,2}, " "));
%!   right(end+1) = all (hit);
%!   words += sum (hit);
%! endfor
%! assert (h.val_exact(2), sum (right) / 2);
%! assert (h.val_token_accuracy(2), words / 6);
%! assert (h.val_loss(2), attn_loss (e1, val(:,1), val(:,2)), 1e-12);

%!test
%! ## what is printed: the validation per epoch, samples every 2 steps
%! val = {"the white cat", "le chat blanc"};
%! out = evalc ('ms = attn_train (m, corpus, "epochs", 2, "batch_size", 1, "validation", val, "samples", 2)');
%! assert (isequal (ms, attn_train (m, corpus, "epochs", 2, "batch_size", 1, "verbose", false)));
%! assert (! isempty (regexp (out, 'epoch 2/2  loss [0-9.]+  val loss [0-9.]+  val exact [01]\.[0-9]{3}  [0-9]+ tokens/s')), out);
%! lines = regexp (out, 'step (\d+)  the white cat -> [a-z <>]*  \(target: le chat blanc\)', "tokens");
%! assert (cellfun (@(t) str2double (t{1}), lines), [2 4 6]);
%! ## without validation the samples are the first three training pairs
%! out = evalc ('attn_train (m, corpus, "epochs", 1, "batch_size", 3, "samples", 1, "verbose", false)');
%! assert (numel (strfind (out, "step 1  ")), 3);
%! assert (! isempty (strfind (out, "the white dog -> ")));

%!error <option "validation" must be an N×2 cell> attn_train (m, corpus, "validation", {"a"})
%!error id=attention:option attn_train (m, corpus, "validation", {1, 2})
%!error <option "validation" must hold sentences as text> attn_train (m, corpus, "validation", {[1 2], [3 4]})
%!error <option "samples" must be an integer> attn_train (m, corpus, "samples", -1)
%!error <option "samples" shows sentences as text> attn_train (m, {[4 5], [4 5]}, "samples", 1)
%!error <not in the .*vocabulary> attn_train (m, corpus, "validation", {"the red cat", "le chat rouge"})

%!error id=attention:type attn_train (m, {"a", "b", "c"})
%!error id=attention:option attn_train (m, corpus, "optimizer", "rmsprop")
%!error id=attention:option attn_train (m, corpus, "epoch", 3)
%!error <option "epochs" must be an integer in \[1, Inf\), got 0> attn_train (m, corpus, "epochs", 0)
%!error <option "epochs" must be an integer> attn_train (m, corpus, "epochs", -1)
%!error <option "epochs" must be an integer> attn_train (m, corpus, "epochs", 1.5)
%!error <option "epochs" must be an integer> attn_train (m, corpus, "epochs", Inf)
%!error <option "epochs" must be an integer> attn_train (m, corpus, "epochs", NaN)
%!error <option "batch_size" must be an integer> attn_train (m, corpus, "batch_size", 0)
%!error <option "lr" must be a real number in \(0, Inf\)> attn_train (m, corpus, "lr", 0)
%!error <option "lr" must be a real number> attn_train (m, corpus, "lr", Inf)
%!error <option "beta1" must be a real number in \[0, 1\)> attn_train (m, corpus, "beta1", 1)
%!error <option "beta2" must be a real number in \[0, 1\)> attn_train (m, corpus, "beta2", -0.1)
%!error <option "epsilon" must be a real number in \(0, Inf\)> attn_train (m, corpus, "epsilon", 0)
%!error <option "clip" must be a real number in \(0, Inf\]> attn_train (m, corpus, "clip", 0)
%!error <option "shuffle" must be true or false> attn_train (m, corpus, "shuffle", 2)
%!error <option "verbose" must be true or false> attn_train (m, corpus, "verbose", "yes")
%!error <option "label_smoothing" must be a real number in \[0, 1\)> attn_train (m, corpus, "label_smoothing", 1)
%!error <option "prompt_weight" must be a real number in \[0, 1\]> attn_train (m, corpus, "prompt_weight", 2)
%!error <attn_train: M must be a model struct> attn_train (1, corpus)
%!error <option "lr" must be a real number> attn_train (m, corpus, "lr", NaN)
%!error <option "checkpoint_every" must be an integer> attn_train (m, corpus, "checkpoint_every", 0)
%!error <"checkpoint" holds a NUL byte> attn_train (m, corpus, "checkpoint", [tempname() "\0x"])
%!error <option "bucket" must be true or false> attn_train (m, corpus, "bucket", 2)

%!test
%! ## Adam at lr 1e6 diverges at step 2: a warning naming the step and lr;
%! ## the model after step 1 (as one epoch of one step gives it) is returned
%! lastwarn ("");
%! out = evalc ('[m1, h] = attn_train (m, corpus, "epochs", 5, "batch_size", 3, "lr", 1e6, "verbose", false);');
%! [msg, id] = lastwarn ();
%! assert (id, "attention:diverged");
%! assert (! isempty (strfind (msg, "diverged at step 2")) && ! isempty (strfind (msg, "lr 1e+06")), msg);
%! assert (h.diverged, 2);
%! assert (numel (h.loss), 2);
%! assert (h.loss(2) > 1e3 * max (h.loss(1), log (numel (m.tgt_vocab.words))));
%! assert (isequal (m1, attn_train (m, corpus, "epochs", 1, "batch_size", 3, "lr", 1e6,
%!                                  "verbose", false)));
%! assert (! isempty (strfind (out, "diverged at step 2")));
%! assert (all (isfinite (m1.W_vocab(:))));
%! ## SGD at lr 1e6 as well (no kernel overflow escapes)
%! evalc ('[m2, h] = attn_train (m, corpus, "epochs", 5, "batch_size", 3, "optimizer", "sgd", "lr", 1e6, "verbose", false);');
%! assert (h.diverged > 1);
%! assert (all (isfinite (m2.W_vocab(:))));

%!test
%! ## bucketing: the same pairs every epoch, batched by length
%! c = [corpus; {"the cat", "le chat"; "the white black dog", "le chien blanc noir"}];
%! [m1, h] = attn_train (m, c, "epochs", 2, "batch_size", 2, "bucket", true, "lr", 0.01,
%!                       "verbose", false);
%! assert (numel (h.loss), 6);
%! assert (all (isfinite (h.loss)));
%! assert (h.epoch_loss(2) < h.epoch_loss(1));
