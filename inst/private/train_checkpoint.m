## -*- texinfo -*-
## @deftypefn  {} {@var{h} =} train_checkpoint ("fingerprint", @var{data})
## @deftypefnx {} {} train_checkpoint ("write", @var{file}, @var{run}, @var{o}, @var{epoch_elapsed}, @var{call_elapsed})
## @deftypefnx {} {@var{run} =} train_checkpoint ("read", @var{file}, @var{run}, @var{o}, @var{N}, @var{steps})
## The checkpoints of @code{attn_train}: a run's whole state in one
## safetensors file, written atomically, read back strictly.
##
## @qcode{"fingerprint"}: a hash of the padded corpus @var{data} (a
## checkpoint continues only its own corpus).  @qcode{"write"}: the
## training state @var{run} (model, optimiser moments, position, data
## order, random state, history) with the options @var{o}; the model's
## arrays under @samp{model.}, the rest under @samp{train.}; the
## validation corpus's fingerprint (@code{o.val_fingerprint}, @qcode{""}
## for none) in the metadata.
## @qcode{"read"}: the state saved in @var{file}, checked against this
## call's model, options, corpus (@var{N} pairs) and @var{steps} per epoch;
## an @code{attention:checkpoint} error if it was written for others,
## @code{attention:file} if it is damaged.
## @end deftypefn

function run = train_checkpoint (action, varargin)
  switch (action)
    case "fingerprint"
      run = corpus_fingerprint (varargin{:});
    case "write"
      checkpoint_write (varargin{:});
    case "read"
      run = checkpoint_read (varargin{:});
  endswitch
endfunction

## The options that shape a run (a checkpoint must match them), in the
## order of the checkpoint's train.options
function [v, names] = option_vector (o)
  names = {"batch_size", "lr", "beta1", "beta2", "epsilon", "clip", "label_smoothing", ...
           "prompt_weight", ...
           "shuffle", "bucket", "seed"};
  v = cellfun (@(n) double (o.(n)), names);
endfunction

## a hash of the padded corpus: a checkpoint continues only its own corpus
function h = corpus_fingerprint (data)
  x = [size(data.src), size(data.labels), data.src(:)', data.src_allow(:)', data.tgt_in(:)', ...
       data.labels(:)', data.tgt_allow(:)'];
  h = hash ("sha256", char (typecast (x, "uint8")));
endfunction

## the training state run (model, optimiser moments, position, data order,
## random state, history) saved atomically in a safetensors file: the
## model's arrays under "model.", the rest under "train."
function checkpoint_write (file, run, o, epoch_elapsed, call_elapsed)
  [names, arrays, meta] = file_model ("parts", run.m, "attn_train");
  meta(1,:) = {"format", "attention-checkpoint 1"};
  meta(end+1:end+3,:) = {"optimizer", o.optimizer; "corpus", o.fingerprint;
                         "validation", o.val_fingerprint};
  h = run.history;
  in_epoch = run.epoch_seconds + epoch_elapsed * (run.step > 0);
  train = {"t", run.t; "epoch", run.epoch; "step", run.step; "order", run.order;
           "rand", run.rand; "total", run.total; "tokens", run.tokens;
           "epoch_seconds", in_epoch; "options", option_vector(o); "mom", run.mom;
           "vel", run.vel; "loss", h.loss; "epoch_loss", h.epoch_loss;
           "tokens_per_s", h.tokens_per_s; "seconds", h.seconds + call_elapsed;
           "diverged", h.diverged; "val_loss", h.val_loss; "val_exact", h.val_exact;
           "val_token_accuracy", h.val_token_accuracy};
  safetensors_write (file, [strcat("model.", names), strcat("train.", train(:,1)')],
                     [arrays, train(:,2)'], meta, "attn_train");
endfunction

## run read back from a checkpoint file, strictly (the readers of attn_load:
## regular file, header against the bytes present, config, vocabularies
## and every model array's name and shape against the schema, finite
## weights; then every training array), and checked against this call:
## the same model config and vocabularies, options and corpus.
function run = checkpoint_read (file, run, o, N, steps)
  where = sprintf ("attn_train: checkpoint \"%s\"", file);
  [fid, bytes] = safetensors_open (file, "attn_train");
  unwind_protect
    [meta, info, start] = safetensors_header (fid, bytes, where, {"F64", 8; "F32", 4});
    if (! isfield (meta, "format") || ! strcmp (meta.format, "attention-checkpoint 1"))
      error ("attention:file",
             "%s is not a checkpoint of attn_train: its __metadata__ has no format \"attention-checkpoint 1\"",
             where);
    endif
    [saved, parts, at] = file_model ("plan", meta, info, "model.", where, "attn_train",
                                     {"format", "optimizer", "corpus", "validation"});
    train = {"t", "epoch", "step", "order", "rand", "total", "tokens", "epoch_seconds", ...
             "options", "mom", "vel", "loss", "epoch_loss", "tokens_per_s", "seconds", "diverged", ...
             "val_loss", "val_exact", "val_token_accuracy"};
    want = [{parts.name}, strcat("train.", train)];
    if (! isempty (setxor (want, {info.name})))
      odd = [setdiff(want, {info.name}), setdiff({info.name}, want)];
      error ("attention:file", "%s: the arrays must be those of a %s model and its training state; \"%s\" is %s",
             where, saved.config.family, odd{1}, merge (ismember (odd{1}, want), "missing", "not one of them"));
    endif
    arrays = safetensors_data (fid, info, start, where, true);   # F32: a single model
  unwind_protect_cleanup
    fclose (fid);
  end_unwind_protect
  A = cell2struct (arrays(:), {info.name}, 1);
  m = run.m;
  if (! isequal ({saved.config, saved.src_vocab, saved.tgt_vocab}, {m.config, m.src_vocab, m.tgt_vocab}))
    mismatch (where, "a model of another config or vocabulary than M");
  endif
  m = file_model ("assemble", m, parts, arrays(at), where, "attn_train");
  [v, names] = option_vector (o);
  got = A.("train.options");
  if (! isequal (size (got), size (v)) || ! strcmp (meta.optimizer, o.optimizer))
    mismatch (where, sprintf ("optimizer %s", meta.optimizer));
  endif
  k = find (got != v, 1);
  if (! isempty (k))
    mismatch (where, sprintf ("%s = %.17g (this call gives %.17g)", names{k}, got(k), v(k)));
  endif
  if (! strcmp (meta.corpus, o.fingerprint))
    mismatch (where, "another corpus");
  endif
  if (! strcmp (meta.validation, o.val_fingerprint))
    mismatch (where, merge (isempty (meta.validation), "no validation corpus",
                            "another validation corpus"));
  endif
  ## the training state, each value against what a run can hold
  count = sum (arrayfun (@(p) prod (p.shape), parts([parts.learned])));
  T = struct ();
  for n = train
    T.(n{1}) = A.(["train." n{1}]);
  endfor
  whole = @(x, lo, hi) isscalar (x) && x == fix (x) && x >= lo && x <= hi;
  moment = @(x) isempty (x) || (isequal (size (x), [count 1]) && all (isfinite (x)));
  row = @(x, k) (isempty (x) && k == 0) || isequal (size (x), [1 k]);
  ok = whole (T.t, 0, flintmax ());
  ok(2) = whole (T.epoch, 1, flintmax ());
  ok(3) = whole (T.step, 0, steps);
  ok(4) = isequal (sort (T.order), 1:N);
  ok(5) = isequal (size (T.rand), [625 1]) && all (T.rand == fix (T.rand) & T.rand >= 0 & T.rand < 2^32);
  ok(6) = moment (T.mom) && moment (T.vel) && numel (T.mom) == numel (T.vel);
  ok(7) = row (T.loss, numel (T.loss)) && all (isfinite (T.loss(1:end - (T.diverged > 0))));
  ok(8) = row (T.epoch_loss, T.epoch - 1) && row (T.tokens_per_s, T.epoch - 1);
  ok(9) = whole (T.diverged, 0, numel (T.loss));
  ok(10) = all (cellfun (@(x) isscalar (x) && isfinite (x) && x >= 0,
                         {T.total, T.tokens, T.epoch_seconds, T.seconds}));
  epochs = (T.epoch - 1) * ! isempty (o.val_fingerprint);     # epochs measured
  ok(11) = all (cellfun (@(x) row (x, epochs) && all (isfinite (x)),
                         {T.val_loss, T.val_exact, T.val_token_accuracy}));
  say = {"t must be the step count", "epoch must be a count", sprintf("step must be in 0..%d", steps), ...
         sprintf("order must be a permutation of 1..%d", N), "rand must be a random state (625 integers)", ...
         sprintf("mom and vel must be empty or %d×1 and finite", count), ...
         "loss must be a row of finite losses", ...
         "epoch_loss and tokens_per_s must hold one entry per epoch done", ...
         "diverged must be 0 or a step", "total, tokens and seconds must be finite", ...
         "val_loss, val_exact and val_token_accuracy must hold one finite entry per epoch done with a validation corpus"};
  bad = find (! ok, 1);
  if (! isempty (bad))
    error ("attention:file", "%s holds a damaged training state: train.%s", where, say{bad});
  endif
  if (T.epoch > o.epochs + 1)
    mismatch (where, sprintf ("%d epochs, more than the %d this call asks for", T.epoch - 1, o.epochs));
  endif
  if (isempty (T.mom))
    [T.mom, T.vel] = deal ([]);
  endif
  run = struct ("m", m, "t", T.t, "mom", T.mom, "vel", T.vel, "epoch", T.epoch,
                "step", T.step, "order", T.order, "rand", T.rand, "total", T.total,
                "tokens", T.tokens, "epoch_seconds", T.epoch_seconds,
                "history", struct ("loss", T.loss, "epoch_loss", T.epoch_loss,
                                   "epoch_step", steps * (1:numel (T.epoch_loss)),
                                   "val_loss", T.val_loss(:)', "val_exact", T.val_exact(:)',
                                   "val_token_accuracy", T.val_token_accuracy(:)',
                                   "tokens_per_s", T.tokens_per_s, "seconds", T.seconds,
                                   "diverged", T.diverged));
endfunction

function mismatch (where, what)
  error ("attention:checkpoint",
         "%s was written for %s; continue it with the model, corpus and options it was written with, or give another checkpoint file to start a new run",
         where, what);
endfunction
