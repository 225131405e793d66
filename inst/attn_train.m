## -*- texinfo -*-
## @deftypefn  {} {[@var{m}, @var{history}] =} attn_train (@var{m}, @var{corpus})
## @deftypefnx {} {[@var{m}, @var{history}] =} attn_train (@var{m}, @var{corpus}, @var{name}, @var{value}, @dots{})
## Train a model on a parallel corpus with teacher forcing and mini-batches.
##
## @var{corpus} is an N×2 cell array of @{source, target@} sentences, or a
## struct with cell fields @code{source} and @code{target}.  Each epoch visits
## every pair once in batches of @code{batch_size} (shuffled from
## @code{seed} when @code{shuffle}); each batch is one @code{attn_loss} and one
## optimiser step.
##
## Options: @code{epochs} (10), @code{batch_size} (32), @code{optimizer}
## (@qcode{"adam"} or @qcode{"sgd"}), @code{lr} (1e-3), @code{beta1},
## @code{beta2}, @code{epsilon} (Adam), @code{clip} (global gradient norm
## limit, Inf = none), @code{label_smoothing} (0), @code{shuffle} (true),
## @code{seed} (0; the caller's random state is kept), @code{verbose} (true:
## one line per epoch with the epoch, mean loss, tokens per second and the
## time left).
##
## @var{history}: @code{loss} (one entry per step), @code{epoch_loss}
## (token-weighted mean per epoch), @code{tokens_per_s} (per epoch),
## @code{seconds} (total).
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
## @seealso{attn_loss, attn_adam, attn_sgd, attn_clip, attn_batch}
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
                      "seed", 0, "integer [0, 4294967295]";
                      "verbose", true, "flag"}, varargin);
  check_model (m, "attn_train");
  [sources, targets] = corpus_pairs (corpus);
  ## encode once; attn_batch keeps ids as they are
  sources = sentences_ids (m.src_vocab, sources, "source", "attn_train");
  targets = sentences_ids (m.tgt_vocab, targets, "target", "attn_train");
  N = numel (sources);
  weigh = o.prompt_weight != 1 && strcmp (m.config.family, "decoder-only");
  loss_opts = {"label_smoothing", o.label_smoothing};
  steps = ceil (N / o.batch_size);
  history = struct ("loss", zeros (1, 0), "epoch_loss", zeros (1, 0),
                    "tokens_per_s", zeros (1, 0), "seconds", 0);
  old = rand ("state");
  rand ("state", o.seed);
  unwind_protect
    order = 1:N;
    adam = [];
    start = tic ();
    for epoch = 1:o.epochs
      if (o.shuffle)
        order = randperm (N);
      endif
      t0 = tic ();
      total = 0;
      tokens = 0;
      for s = 1:steps
        pick = order((s-1)*o.batch_size + 1 : min (s*o.batch_size, N));
        batch = model_batch (m, sources(pick), targets(pick), "attn_train");
        if (weigh)                             # labels: source, then target and <eos>
          n_prompt = sum (batch.tgt_allow, 1) - cellfun (@numel, targets(pick)) - 1;
          prompt = (1:rows (batch.labels))' <= n_prompt;
          loss_opts(3:4) = {"weights", 1 - (1 - o.prompt_weight) * prompt};
        endif
        [loss, G] = attn_loss (m, batch, loss_opts{:});  # the step's one model check
        if (isfinite (o.clip))
          G = attn_clip (G, o.clip);
        endif
        if (strcmp (o.optimizer, "adam"))
          [m, adam] = adam_update (m, G, adam, o);
        else
          m = tree_add (m, G, -o.lr * tree_flat (G));
        endif
        history.loss(end+1) = loss;
        n = nnz (batch.tgt_allow);
        total += loss * n;
        tokens += n;
      endfor
      seconds = toc (t0);
      history.epoch_loss(end+1) = total / tokens;
      history.tokens_per_s(end+1) = tokens / seconds;
      if (o.verbose)
        left = toc (start) / epoch * (o.epochs - epoch);
        printf ("epoch %d/%d  loss %.4f  %.0f tokens/s  time left %d:%02d\n", epoch,
                o.epochs, history.epoch_loss(end), history.tokens_per_s(end),
                floor (left / 60), round (mod (left, 60)));
        fflush (stdout);
      endif
    endfor
    history.seconds = toc (start);
  unwind_protect_cleanup
    rand ("state", old);
  end_unwind_protect
endfunction

## Sources and targets (1×N cells) of an N×2 cell or a source/target struct.
function [sources, targets] = corpus_pairs (corpus)
  if (iscell (corpus) && columns (corpus) == 2)
    sources = corpus(:,1)';
    targets = corpus(:,2)';
  elseif (isstruct (corpus) && all (isfield (corpus, {"source", "target"}))
          && iscell (corpus.source) && iscell (corpus.target)
          && numel (corpus.source) == numel (corpus.target))
    sources = corpus.source(:)';
    targets = corpus.target(:)';
  else
    error ("attention:type",
           "attn_train: CORPUS must be an N×2 cell of {source, target} sentences or a struct with cells source and target of equal length, got %s",
           disp_arg (corpus));
  endif
  if (isempty (sources))
    error ("attention:size", "attn_train: CORPUS holds no sentence pair");
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
