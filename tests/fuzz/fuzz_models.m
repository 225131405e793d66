## -*- texinfo -*-
## @deftypefn {} {@var{r} =} fuzz_models (@var{ncases}, @var{seed})
## @deftypefnx {} {@var{r} =} fuzz_models (@var{ncases}, @var{seed}, "print")
## The model layer under generated bad input, beside the kernels'
## @code{fuzz_gateways}: @var{ncases} cases drawn with @var{seed}, each one
## call of a public function with a mix of good and bad arguments, or one
## @code{attn_load} of a saved model file with random damage (bytes
## flipped, the file cut or lengthened, the header length or the header's
## shapes, offsets, dtypes, metadata config values, key case and id base
## edited, padding added).
##
## A case passes when the call returns a correct result (numbers finite, a
## model returned or loaded accepted by the package, text as text) or
## raises an @code{attention:*} error.  It fails (@qcode{"FAIL:..."}) on
## any other error, on a result that is not correct, on running longer than
## the per-case bound (10 s), or on running out of memory (@code{make fuzz}
## runs under @code{ulimit -v 8000000}).  Some calls get too few arguments
## (@code{attention:nargin}); too many are never generated, as Octave
## itself refuses them (@code{Octave:invalid-fun-call}, counted as
## @qcode{"usage"}).
##
## @var{r} has @code{fns} and @code{ids} (the outcomes), @code{table}
## (function × outcome counts), @code{outcomes} (one a case),
## @code{failures} (case, fn, args, what, message) and @code{nfail}.
## With @qcode{"print"} the table is printed.
## @end deftypefn

function r = fuzz_models (ncases, seed, mode = "")
  rand ("state", seed);
  randn ("state", seed);
  dir = tempname ();
  mkdir (dir);
  cleanup = onCleanup (@() remove_dir (dir));
  old = warning ("off", "all");
  restore = onCleanup (@() warning (old));
  P = pool (dir);
  fns = {"attn_load", "attn_encode", "attn_decode", "attn_vocab", "attn_model", ...
         "attn_family", "attn_toy", "attn_batch", "attn_forward", "attn_loss", ...
         "attn_train", "attn_adam", "attn_sgd", "attn_clip", "attn_greedy", ...
         "attn_beam", "attn_sample", "attn_continue", "attn_score", "attn_save", ...
         "attn_show", "attn_walkthrough", "attn_corpus_lm", "attn_corpus_ner", ...
         "attn_corpus_translation"};
  r = struct ("fns", {{}}, "ids", {{}}, "table", zeros (0, 0), "outcomes", {cell(1, ncases)},
              "failures", struct ("case", {}, "fn", {}, "args", {}, "what", {}, "message", {},
                                  "inputs", {}),
              "nfail", 0);
  r.fns = fns;
  r.table = zeros (numel (fns), 0);
  for n = 1:ncases
    if (rand () < 0.3)
      fn = "attn_load";
    else
      fn = fns{randi ([2, numel(fns)])};
    endif
    [args, check] = make_case (fn, P, dir, n);
    if (rand () < 0.03 && ! isempty (args) && ! strncmp (fn, "attn_corpus", 11))
      args = args(1:randi ([0, numel(args) - 1]));   # too few arguments
      check.result = @(out) "";
    endif
    [outcome, message] = run_case (fn, args, check);
    r.outcomes{n} = outcome;
    i = find (strcmp (fn, r.fns));
    k = find (strcmp (outcome, r.ids));
    if (isempty (k))
      r.ids{end+1} = outcome;
      r.table(:, end+1) = 0;
      k = numel (r.ids);
    endif
    r.table(i, k) += 1;
    if (strncmp (outcome, "FAIL", 4))
      r.nfail += 1;
      r.failures(end+1) = struct ("case", n, "fn", fn, "args", describe (args),
                                  "what", outcome, "message", message, "inputs", {args});
    endif
  endfor
  if (strcmp (mode, "print"))
    print_table (r);
  endif
endfunction

function remove_dir (dir)
  confirm_recursive_rmdir (false, "local");
  rmdir (dir, "s");
endfunction

## one call: the outcome ("ok", an error identifier, "usage" or "FAIL:...")
function [outcome, message] = run_case (fn, args, check)
  message = "";
  nout = check.nargout;
  out = cell (1, nout);
  t = tic ();
  try
    evalc ("[out{:}] = feval (fn, args{:});");
    seconds = toc (t);
    outcome = "ok";
    bad = check.result (out);
    if (! isempty (bad))
      [outcome, message] = deal ("FAIL:result", bad);
    endif
  catch err
    seconds = toc (t);
    outcome = err.identifier;
    message = err.message;
    if (any (strcmp (outcome, {"Octave:bad-alloc", "Octave:out-of-memory"}))
        || ! isempty (strfind (message, "out of memory")))
      outcome = "FAIL:memory";
    elseif (strcmp (outcome, "Octave:invalid-fun-call"))
      outcome = "usage";
    elseif (! strncmp (outcome, "attention:", 10))
      outcome = "FAIL:error";
      where = arrayfun (@(s) sprintf ("%s:%d", s.name, s.line), err.stack(1:min (3, end)),
                        "UniformOutput", false);
      message = sprintf ("%s [%s] (%s)", message, err.identifier, strjoin (where, " < "));
    elseif (strcmp (fn, "attn_load") && numel (args) == 1 && ischar (args{1}) && ! isempty (args{1})
            && ! strcmp (outcome, "attention:file"))
      outcome = ["FAIL:" outcome];          # every refused file is attention:file
    endif
  end_try_catch
  if (seconds > 10)
    outcome = "FAIL:slow";
    message = sprintf ("%.1f s", seconds);
  endif
endfunction

## ---------------------------------------------------------------- the pool

## the good models of every family, their vocabularies, gradients, batches,
## sentences, and a model file of each family to damage
function P = pool (dir)
  w = "the river bank runs past the old mill";
  cfg = struct ("d", 4, "heads", 2, "d_ff", 3, "max_len", 8, "seed", 1);
  e = cfg;  e.src_vocab = w;  e.tgt_vocab = "la rive passe le vieux moulin";
  e.encoder_layers = 1;  e.decoder_layers = 1;  e.norm = "pre";
  g = cfg;  g.family = "decoder-only";  g.vocab = w;  g.layers = 1;
  t = cfg;  t.family = "encoder-token";  t.vocab = w;  t.layers = 1;  t.classes = {"A", "B"};
  s = t;  s.family = "encoder-sentence";  s.readout = "mean";  s.head = "mlp";
  p = e;  p.family = "pooled-prefix";  p.norm = "post";
  P.configs = {e, g, t, s, p};
  P.models = [{attn_toy("river"), attn_toy("blackcat"), attn_model(e)}, ...
              cellfun(@attn_family, P.configs(2:end), "UniformOutput", false)];
  P.pairs = {{"the river bank", "la rive"; "the financial bank", "la banque"};
             {"the black cat", "le chat noir"; "the white dog", "le chien blanc"};
             {"the river bank", "la rive"; "the old mill", "le vieux moulin"};
             {"the river", "runs past"; "the old", "mill"};
             {"the river bank", "A B A"; "the mill", "B A"};
             {"the river bank", "A"; "the mill", "B"};
             {"the river bank", "la rive"; "the old mill", "le vieux moulin"}};
  P.grads = cell (size (P.models));
  P.batches = cell (size (P.models));
  for k = 1:numel (P.models)
    [~, P.grads{k}, info] = attn_loss (P.models{k}, P.pairs{k}(:,1)', P.pairs{k}(:,2)');
    P.batches{k} = info.batch;
  endfor
  P.traces = cellfun (@(m, p) attn_forward (m, p{1,1}), P.models, P.pairs', "UniformOutput", false);
  P.files = cell (size (P.models));
  for k = 1:numel (P.models)
    P.files{k} = fullfile (dir, sprintf ("good%d.safetensors", k));
    attn_save (P.models{k}, P.files{k});
  endfor
  P.bad_text = {"caf\xC3", "\xFF\xFE", "the \x80 bank", "\xED\xA0\x80", "\xC0\xAF"};
endfunction

## a value of any kind a user might pass where something else belongs
function x = junk ()
  choices = {[], 0, -1, 1.5, NaN, Inf, -Inf, 1e9, 2^53, 2+1i, [1 2 3], [1; 2], ...
             zeros(2, 2, 2), "", "x", ["ab"; "cd"], {}, {1}, {"a", 2}, struct(), ...
             struct("a", {1, 2}), true, int8(3), single(2), @sin, "\xFF", ...
             -0, realmax, realmin, uint64(18446744073709551615)};
  x = choices{randi (numel (choices))};
endfunction

## a sentence: good words, unknown words, ids, bad bytes or junk
function s = sentence (P, v)
  switch (randi (10))
    case {1, 2, 3}
      words = v.words(randi (numel (v.words), 1, randi ([0, 4])));
      s = strjoin (words, " ");
    case 4
      s = "unknown words here";
    case 5
      s = P.bad_text{randi (numel (P.bad_text))};
    case 6
      s = randi ([1, numel(v.words)], 1, randi ([0, 4]));
    case 7
      s = [0, 1, numel(v.words) + 1, NaN, 1.5, -2](randi (6, 1, randi ([1, 3])));
    case 8
      s = strjoin (repmat ({v.words{end}}, 1, randi ([6, 40])), " ");   # past max_len
    case 9
      s = v.words(randi (numel (v.words), 1, 2));                        # a cell of words
    otherwise
      s = junk ();
  endswitch
endfunction

## name, value pairs: mostly the function's own names, values good or bad
function o = options (names, good)
  o = {};
  for i = 1:randi ([0, 3])
    if (rand () < 0.1)
      name = {"nonsense", "", 3, "EPOCHS"}{randi (4)};
    else
      name = names{randi (numel (names))};
    endif
    if (rand () < 0.4 && ! isempty (good))
      value = good{randi (numel (good))};
    else
      value = junk ();
    endif
    o = [o, {name, value}];
  endfor
  if (rand () < 0.05)
    o{end+1} = "dangling";                   # an odd count
  endif
endfunction

## a model, good or damaged
function m = model (P)
  m = P.models{randi (numel (P.models))};
  if (rand () < 0.5)
    return;
  endif
  switch (randi (9))
    case 1                                   # an array changed
      L = leaves (m);
      s = L{randi (numel (L))};
      x = subsref (m, s);
      bad = {NaN, Inf, single(x), x.', x(:,1:end-1), [], complex(x), int32(x), "x", {x}};
      y = bad{randi (numel (bad))};
      if (! isempty (x) && rand () < 0.4)
        y = x;
        y(randi (numel (x))) = [NaN, Inf, -Inf, 1e308](randi (4));
      endif
      m = subsasgn (m, s, y);
    case 2                                   # a field removed
      f = fieldnames (m);
      m = rmfield (m, f{randi (numel (f))});
    case 3                                   # a config value changed
      f = fieldnames (m.config);
      vals = {"8", 8+1i, 1.5, NaN, Inf, -1, 0, 1e10, 1e6, [4 4], "weird", 3, true, []};
      m.config.(f{randi (numel (f))}) = vals{randi (numel (vals))};
    case 4                                   # an unknown config field
      m.config.extra = 1;
    case 5                                   # a vocabulary damaged
      side = {"src_vocab", "tgt_vocab"}{randi (2)};
      v = m.(side);
      switch (randi (5))
        case 1
          v.eos = {99, 1.5, -1, NaN, "x", [1 2]}{randi (6)};
        case 2
          v.words{randi (numel (v.words))} = "\xC3";
        case 3
          v.words{end+1} = v.words{1};
        case 4
          v.words = {1, 2};
        otherwise
          v = rmfield (v, "pad");
      endswitch
      m.(side) = v;
    case 6
      m = junk ();
    case 7                                   # a layer too many or too few
      if (isfield (m, "decoder"))
        m.decoder = [m.decoder, m.decoder];
      endif
    case 8                                   # heads that do not divide
      if (isfield (m, "decoder"))
        m.decoder(1).self.heads = 3;
      endif
    otherwise                                # the decoder-only stack of older versions
      m.config.encoder_layers = 1;
  endswitch
endfunction

## the subsref index of every numeric array in m
function L = leaves (m, S = struct ("type", {}, "subs", {}))
  L = {};
  x = m;
  if (! isempty (S))
    x = subsref (m, S);
  endif
  if (isnumeric (x))
    L = {S};
  elseif (isstruct (x))
    for i = 1:numel (x)
      for f = fieldnames (x)'
        if (any (strcmp (f{1}, {"config", "src_vocab", "tgt_vocab"})))
          continue;
        endif
        T = [S, struct("type", {"()", "."}, "subs", {{i}, f{1}})];
        L = [L, leaves(m, T)];
      endfor
    endfor
  endif
endfunction

## the vocabulary a sentence for m is written in (or a default one)
function v = vocab_of (m, side)
  v = attn_vocab ("the river bank");
  if (isstruct (m) && isscalar (m) && isfield (m, side) && isstruct (m.(side))
      && isfield (m.(side), "words") && iscellstr (m.(side).words) && ! isempty (m.(side).words))
    v = m.(side);
  endif
endfunction

## ---------------------------------------------------------------- the cases

## args of one call of fn, and how to check a result (check.nargout outputs,
## check.result (out): "" when correct, else what is wrong)
function [args, check] = make_case (fn, P, dir, n)
  check = struct ("nargout", 1, "result", @(out) "");
  k = randi (numel (P.models));
  m = model (P);
  vs = vocab_of (m, "src_vocab");
  vt = vocab_of (m, "tgt_vocab");
  finite = @(out) ifelse (all (cellfun (@all_finite, out)), "", "a result holds NaN or Inf");
  switch (fn)
    case "attn_load"
      args = {damaged_file(P, dir, n)};
      check.result = @(out) valid_model (out{1});
    case "attn_encode"
      args = {pick(P.models{k}.tgt_vocab, 0.8), sentence(P, vt)};
      if (rand () < 0.3)
        args{3} = {"strict", "", "lenient", 3}{randi (4)};
      endif
      check.result = @(out) ifelse (isnumeric (out{1}) && isrow (out{1}) || isempty (out{1}),
                                    "", "ids are not a row");
    case "attn_decode"
      args = {pick(P.models{k}.tgt_vocab, 0.8), sentence(P, vt)};
      check.result = @(out) ifelse (ischar (out{1}), "", "text is not a string");
    case "attn_vocab"
      data = {sentence(P, vt), {sentence(P, vt), sentence(P, vs)}, P.pairs{k}(:)'}{randi (3)};
      args = {data};
      if (rand () < 0.3)
        args{2} = {{"<pad>"}, {}, "<pad>", {"\xC3"}, {1}}{randi (5)};
      endif
      check.result = @(out) ifelse (iscellstr (out{1}.words), "", "words are not text");
    case {"attn_model", "attn_family"}
      c = P.configs{randi (numel (P.configs))};
      if (strcmp (fn, "attn_model"))
        c = P.configs{1};
      endif
      f = fieldnames (c);
      names = [f', {"d", "heads", "dk", "dv", "d_ff", "max_len", "seed", "layers", ...
                    "encoder_layers", "decoder_layers", "family", "norm", "positions"}];
      vals = {"8", 8+1i, 1.5, NaN, Inf, -1, 0, 1e10, 1e6, 65536, 1048576, 2048, [4 4], ...
              "weird", 3, 2, 1, true, [], {}, P.bad_text{1}, "decoder-only", "pre"};
      for i = 1:randi ([1, 3])
        c.(names{randi (numel (names))}) = vals{randi (numel (vals))};
      endfor
      if (rand () < 0.1)
        c = junk ();
      endif
      args = {c};
      check.result = @(out) valid_model (out{1});
    case "attn_toy"
      args = {{"river", "blackcat", "RIVER", "", 3, {"river"}, "\xFF"}{randi (7)}};
      check.result = @(out) valid_model (out{1});
    case "attn_batch"
      args = {m, sentences(P, vs, k)};
      if (rand () < 0.7)
        args{3} = sentences (P, vt, k);
      endif
      check.result = @(out) ifelse (isstruct (out{1}), "", "no batch struct");
    case "attn_forward"
      if (rand () < 0.3)
        args = {m, damaged_batch(P.batches{k})};
      else
        args = {m, sentence(P, vs)};
        if (rand () < 0.5)
          args{3} = sentence (P, vt);
        endif
      endif
      check.result = @(out) ifelse (all_finite (out{1}.logits) && all_finite (out{1}.probs),
                                    "", "logits or probs hold NaN or Inf");
    case "attn_loss"
      if (rand () < 0.3)
        args = {m, damaged_batch(P.batches{k})};
      else
        args = {m, sentences(P, vs, k), sentences(P, vt, k)};
      endif
      args = [args, options({"label_smoothing"}, {0, 0.1, 0.5})];
      check.nargout = 2;
      check.result = finite;
    case "attn_train"
      corpus = P.pairs{k};
      switch (randi (6))
        case 1
          corpus = junk ();
        case 2
          corpus{randi (numel (corpus))} = sentence (P, vs);
        case 3
          corpus = [corpus, corpus(:,1)];
        case 4
          corpus = corpus(:,1);
      endswitch
      args = [{m, corpus, "epochs", 1, "verbose", false}, ...
              options({"epochs", "batch_size", "optimizer", "lr", "beta1", "beta2", ...
                       "epsilon", "clip", "label_smoothing", "shuffle", "seed", "verbose"},
                      {1, 2, 0.01, 0.5, false, "sgd", "adam", 1e-3, 0.9})];
      check.result = @(out) valid_model (out{1});
    case {"attn_adam", "attn_sgd"}
      G = damaged_grad (P.grads{k});
      m = P.models{k};
      if (rand () < 0.3)
        m = model (P);
      endif
      if (strcmp (fn, "attn_adam"))
        args = [{m, G, {[], struct(), junk()}{randi (3)}}, ...
                options({"lr", "beta1", "beta2", "epsilon"}, {1e-3, 0.5, 0.9, 1e-8})];
        check.nargout = 2;
      else
        args = {m, G, {0.1, 1e-3, junk()}{randi (3)}};
      endif
      check.result = @(out) valid_model (out{1});
    case "attn_clip"
      args = {damaged_grad(P.grads{k}), {1, 0.5, junk()}{randi (3)}};
      check.nargout = 2;
      if (all_finite (args{1}))               # NaN in, NaN out is no fault of clipping
        check.result = finite;
      endif
    case {"attn_greedy", "attn_sample"}
      args = [{m, sentence(P, vs)}, ...
              options({"max_len", "cache", "temperature", "top_k", "top_p", "seed"},
                      {1, 3, 0, 1e9, true, 0.5, 2})];
      check.result = @(out) ifelse (ischar (out{1}), "", "text is not a string");
    case "attn_beam"
      args = [{m, sentence(P, vs), {1, 2, 3, 1e9, 0, 2+1i, NaN, junk()}{randi (8)}}, ...
              options({"alpha", "max_len", "cache"}, {0, 1, 0.5, 3, 1e9, true})];
      check.result = @(out) ifelse (ischar (out{1}), "", "text is not a string");
    case "attn_continue"
      args = [{m, sentence(P, vt)}, ...
              options({"max_len", "method", "source", "width", "alpha", "cache", ...
                       "temperature", "top_k", "top_p", "seed"},
                      {2, "greedy", "sample", "beam", 1, 3, 0.5, true})];
      check.result = @(out) ifelse (ischar (out{1}), "", "text is not a string");
    case "attn_score"
      data = P.pairs{k};
      switch (randi (5))
        case 1
          data = junk ();
        case 2
          data{randi (numel (data))} = sentence (P, vs);
        case 3
          data = struct ("source", {data(:,1)'}, "target", {data(:,2)'});
      endswitch
      args = [{m, data}, options({"batch_size", "max_len"}, {1, 2, 64, 3, 1e9})];
      check.result = @(out) ifelse (isstruct (out{1}), "", "no score struct");
    case "attn_show"
      what = {P.traces{k}, P.traces{k}, randn(3, 4), junk()}{randi (4)};
      args = [{what}, options({"decimals", "width", "last"}, {0, 3, 40, true})];
      if (rand () < 0.5)
        field = {"logits", "probs", "encoder(1).self.A", "decoder(1).cross.A", "nonsense", 3, ...
                 "decoder(9).self.A", "A{1}", "", "\xC3"}{randi (10)};
        args = [{what, field}, args(2:end)];
      endif
      check.result = @(out) ifelse (ischar (out{1}), "", "text is not a string");
    case "attn_walkthrough"
      args = [{m, sentence(P, vs), sentence(P, vt)}, options({"last", "decimals", "width"}, {true, 2, 60})];
      check.nargout = 0;
    case {"attn_corpus_lm", "attn_corpus_ner", "attn_corpus_translation"}
      small = {-1, 1.5, NaN, Inf, "x", {}, [1 2], 0, 3, 2+1i, true, []};
      o = struct ("n_train", 5, "n_valid", 2, "n_test", 2);
      names = {"n_train", "n_valid", "n_test", "seed", "heldout", "max_facts", "max_len", "other"};
      for i = 1:randi ([1, 2])
        o.(names{randi (numel (names))}) = small{randi (numel (small))};
      endfor
      args = {o};
      x = junk ();
      if (rand () < 0.1 && ! isstruct (x))     # (a struct of no fields: the full default corpus)
        args = {x};
      endif
      check.result = @(out) ifelse (isstruct (out{1}), "", "no corpus struct");
    case "attn_save"
      file = fullfile (dir, sprintf ("saved%d.safetensors", n));
      names = {file, file, dir, "", 3, "/dev/null", "/dev/full", ...
               [file "\0x"], fullfile(dir, "no", "such", "dir", "f.safetensors")};
      args = {m, names{randi (numel (names))}};
      check.nargout = 0;
      check.result = @(out) ifelse (exist (args{2}, "file") != 2
                                    || ! isstruct (attn_load (args{2})), "saved file unreadable", "");
  endswitch
endfunction

## one sentence or a cell of them (about as many as the model's pairs)
function s = sentences (P, v, k)
  if (rand () < 0.2)
    s = sentence (P, v);
  else
    s = arrayfun (@(i) sentence (P, v), 1:randi ([1, 3]), "UniformOutput", false);
  endif
endfunction

## v itself, or something damaged in its place
function v = pick (v, p)
  if (rand () > p)
    switch (randi (4))
      case 1
        v = junk ();
      case 2
        v.eos = 99;
      case 3
        v.words = {1, 2};
      otherwise
        v = rmfield (v, "unk");
    endswitch
  endif
endfunction

## a batch with one field damaged
function b = damaged_batch (b)
  f = fieldnames (b);
  name = f{randi (numel (f))};
  x = b.(name);
  bad = {junk(), x(1:end-1,:), x(:,1:end-1), x + 1000, x * 0, NaN(size(x)), ...
         double(x) * 2, x.', char(x + 64)};
  b.(name) = bad{randi (numel (bad))};
  if (rand () < 0.2)
    b = rmfield (b, name);
  endif
endfunction

## a gradient, often with something damaged
function G = damaged_grad (G)
  if (rand () < 0.5)
    return;
  endif
  L = leaves (G);
  s = L{randi (numel (L))};
  x = subsref (G, s);
  bad = {NaN, x(1:end-1,:), single(x), complex(x), [], NaN(size(x)), Inf(size(x))};
  G = subsasgn (G, s, bad{randi (numel (bad))});
  if (rand () < 0.2)
    f = fieldnames (G);
    G = rmfield (G, f{randi (numel (f))});
  endif
endfunction

## ---------------------------------------------------------------- files

## a model file with random damage (or a bad name), in dir
function file = damaged_file (P, dir, n)
  if (rand () < 0.05)
    names = {dir, "/dev/zero", "/dev/null", "", 3, fullfile(dir, "missing"), ...
             [P.files{1} "\0tail"]};
    file = names{randi (numel (names))};
    return;
  endif
  fid = fopen (P.files{randi (numel (P.files))}, "r");
  bytes = fread (fid, Inf, "*uint8")';
  fclose (fid);
  len = double (typecast (bytes(1:8), "uint64"));
  header = char (bytes(9:8+len));
  data = bytes(9+len:end);
  switch (randi (6))
    case 1                                   # bytes flipped, mostly in the header
      k = randi ([1, 8]);
      if (rand () < 0.6)
        at = randi ([9, 8 + len], 1, k);
      else
        at = randi (numel (bytes), 1, k);
      endif
      bytes(at) = bitxor (bytes(at), uint8 (randi ([1, 255], 1, k)));
    case 2                                   # cut short
      bytes = bytes(1:randi ([0, numel(bytes) - 1]));
    case 3                                   # lengthened
      bytes = [bytes, uint8(randi ([0, 255], 1, randi ([1, 64])))];
    case 4                                   # header length wrong
      lens = [0, 1, len - 1, len + 1, len + 8, numel(bytes), 2^40, 2^63, randi(2^20)];
      bytes(1:8) = typecast (uint64 (lens(randi (numel (lens)))), "uint8");
    otherwise                                # the header edited, its length fixed up
      header = edit_header (header);
      bytes = [typecast(uint64 (numel (header)), "uint8"), uint8(header), data];
  endswitch
  file = fullfile (dir, sprintf ("case%d.safetensors", n));
  fid = fopen (file, "w");
  fwrite (fid, bytes, "uint8");
  fclose (fid);
endfunction

## one random edit of a header's text: a shape, offsets, a dtype, a config
## value or a vocabulary of the metadata, an entry removed or doubled,
## padding after the JSON, a metadata key in other case, the id base
function h = edit_header (h)
  numbers = {"0", "-1", "1", "3", "7", "1.5", "1e6", "1099511627776", "1e308", "null", ...
             "\"8\"", "[]", "[1,2]", "-0", "9007199254740993", "[[3]]", "[{}]"};
  num = @() numbers{randi (numel (numbers))};
  switch (randi (10))
    case 1                                   # a shape
      [s, e] = random_match (h, '"shape":\[[^\]]*\]');
      shapes = {["[" num() "," num() "]"], ["[" num() "]"], "[]", "[2,2,2]", "\"x\"", "[3,3]"};
      h = [h(1:s-1), '"shape":', shapes{randi(numel (shapes))}, h(e+1:end)];
    case 2                                   # offsets
      [s, e] = random_match (h, '"data_offsets":\[[^\]]*\]');
      h = [h(1:s-1), '"data_offsets":[', num(), ",", num(), "]", h(e+1:end)];
    case 3                                   # a dtype
      [s, e] = random_match (h, '"dtype":"F64"');
      types = {"F32", "I64", "BF16", "f64", "F64 ", "U8", ""};
      h = [h(1:s-1), '"dtype":"', types{randi(numel (types))}, '"', h(e+1:end)];
    case 4                                   # a config value (inside the metadata string)
      [s, e] = random_match (h, '\\"(d|heads|dk|dv|d_ff|max_len|encoder_layers|decoder_layers|seed)\\":[^,}]*');
      values = {"0", "-1", "1.5", "1e10", "1e6", "null", "\\\"8\\\"", "[4]", "true", ...
                "65536", "1048576", "2", "3"};
      name = regexp (h(s:e), '^\\"(\w+)\\"', "tokens", "once"){1};
      h = [h(1:s-1), '\"', name, '\":', values{randi(numel (values))}, h(e+1:end)];
    case 5                                   # a word of the config
      [s, e] = random_match (h, '\\"(family|norm|positions|readout|head)\\":\\"[^\\]*\\"');
      name = regexp (h(s:e), '^\\"(\w+)\\"', "tokens", "once"){1};
      words = {"weird", "decoder-only", "pre", "none", "sinusoidal", "encoder-decoder", "", "\xC3"};
      h = [h(1:s-1), '\"', name, '\":\"', words{randi(numel (words))}, '\"', h(e+1:end)];
    case 6                                   # a vocabulary id or word
      [s, e] = random_match (h, '\\"(pad|unk|bos|eos)\\":-?\d+');
      name = regexp (h(s:e), '^\\"(\w+)\\"', "tokens", "once"){1};
      h = [h(1:s-1), '\"', name, '\":', numbers{randi(9)}, h(e+1:end)];
    case 8                                   # padding after the JSON
      pads = {" ", "\0", "\t", "\n", "\0 "};
      h = [h, repmat(pads{randi(numel (pads))}, 1, randi (8))];
    case 9                                   # a metadata key in other case
      [s, e] = random_match (h, '\\"(d|heads|max_len|family|words|pad|eos)\\":');
      h = [h(1:s-1), upper(h(s:e)), h(e+1:end)];
    case 10                                  # the id base changed or removed
      [s, e] = random_match (h, '"id_base":"1",');
      bases = {'"id_base":"0",', '"id_base":"2",', '', '"id_base":1,', '"id_base":"",'};
      h = [h(1:s-1), bases{randi(numel (bases))}, h(e+1:end)];
    otherwise                                # an entry removed or doubled
      [s, e] = random_match (h, ',"[^"]+":\{"dtype":"F64","shape":\[[^\]]*\],"data_offsets":\[[^\]]*\]\}');
      if (rand () < 0.5)
        h = [h(1:s-1), h(e+1:end)];
      else
        h = [h(1:e), h(s:e), h(e+1:end)];
      endif
  endswitch
endfunction

function [s, e] = random_match (h, pattern)
  [S, E] = regexp (h, pattern);
  if (isempty (S))
    [s, e] = deal (numel (h) + 1, numel (h));  # nothing to edit: an empty span at the end
    return;
  endif
  i = randi (numel (S));
  [s, e] = deal (S(i), E(i));
endfunction

## ---------------------------------------------------------------- results

## "" when the package accepts m as a model (check_model through
## attn_batch), else what is wrong
function bad = valid_model (m)
  bad = "";
  try
    attn_batch (m, {zeros(1, 0)});
  catch err
    refused = {"attention:model", "attention:nonfinite", "attention:type", "attention:vocab"};
    if (any (strcmp (err.identifier, refused)))
      bad = ["the model returned is refused: " err.message];
    endif
  end_try_catch
endfunction

function ok = all_finite (x)
  if (isnumeric (x))
    ok = all (isfinite (x(:)));
  elseif (isstruct (x))
    ok = all (cellfun (@all_finite, struct2cell (x(:))));
  elseif (iscell (x))
    ok = all (cellfun (@all_finite, x(:)));
  else
    ok = true;
  endif
endfunction

function x = ifelse (c, a, b)
  if (c)
    x = a;
  else
    x = b;
  endif
endfunction

## a short description of the arguments for the failure list
function s = describe (args)
  s = strjoin (cellfun (@short, args, "UniformOutput", false), ", ");
endfunction

function s = short (x)
  if (ischar (x) && rows (x) <= 1)
    x = x(1:min (end, 40));
    x(x < 32 | x > 126) = "?";
    s = ["\"", x, "\""];
  elseif (isnumeric (x) && numel (x) <= 4 && ndims (x) == 2)
    s = mat2str (x, 4);
  else
    s = sprintf ("%s %s", strjoin (arrayfun (@num2str, size (x), "UniformOutput", false), "x"),
                 class (x));
  endif
endfunction

## the outcome table: one row a function, one column an outcome (ok, the
## attention:* identifiers without their prefix, usage, failures)
function print_table (r)
  rank = (1 + strncmp (r.ids, "attention:", 10) + 2 * strcmp (r.ids, "usage")
          + 3 * strncmp (r.ids, "FAIL", 4));
  [~, by_name] = sort (r.ids);
  [~, order] = sortrows ([rank(:), cellfun(@(i) find (by_name == i), num2cell (1:numel (rank)))']);
  ids = regexprep (r.ids(order), '^attention:', '');
  T = r.table(:, order);
  W = num2cell (max (cellfun ("length", ids), 4));  # a column as wide as its name
  printf ("%-24s", "function");
  printf (" %*s", [W; ids]{:});
  printf (" %6s\n", "all");
  for i = 1:numel (r.fns)
    printf ("%-24s", r.fns{i});
    printf (" %*d", [W; num2cell(T(i,:))]{:});
    printf (" %6d\n", sum (T(i,:)));
  endfor
  printf ("%-24s", "all");
  printf (" %*d", [W; num2cell(sum (T, 1))]{:});
  printf (" %6d\n", sum (T(:)));
  for f = r.failures
    printf ("case %d: %s (%s): %s: %s\n", f.case, f.fn, f.args, f.what, f.message);
  endfor
  printf ("%d failures in %d cases\n", r.nfail, sum (T(:)));
endfunction
