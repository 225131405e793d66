## Benchmark: the package against PyTorch on the same models, both sides in
## steady state and measured in one run.  Run by `make bench`; the PyTorch
## side is skipped when Debian's /usr/bin/python3 has no torch.
##
## Rows (ratio = PyTorch time / package time; above 1: the package is
## faster), at 1 and 2 threads:
##   train-demo step   d 64, 4 heads, d_ff 128, 1+1 layers, pre-norm,
##                     batch 64 of attn_corpus_translation (10 steps an
##                     epoch): per step, through the public step loop a
##                     student writes (attn_loss + attn_adam on batches made
##                     by attn_batch) and through attn_train
##   large step        d 256, 8 heads, d_ff 1024, 2+2 layers, pre-norm,
##                     batch 32 of 32-64 tokens, the same two ways
##   greedy decoding   the 200 test sentences in one call of attn_greedy
##                     with the train-demo model after one epoch, given
##                     their ids (as PyTorch is) and returning texts
##   causal block      n = d = 512, h = 8: attn_masked with its trace +
##                     attn_backward against nn.MultiheadAttention, and
##                     the dgemm limit (the block's 4.83 GFLOP at the rate
##                     of a 512^3 product measured here)
## and each again with the package's model in single (attn_cast), against
## PyTorch float32 ("ratio to f32"; the sgemm limit for the block).
##
## Every side is a long-lived server process (bench_torch.py serve for
## PyTorch, this script with ATTN_BENCH_SERVE set for the package) started
## once per thread count with OMP_NUM_THREADS, OPENBLAS_NUM_THREADS and
## MKL_NUM_THREADS in its environment and glibc's malloc told to keep freed
## memory (GLIBC_TUNABLES below), and at 2 threads OMP_WAIT_POLICY=passive;
## each prints the thread counts it sees.
## Each measurement is one warm-up pass then one timed pass, with the minor
## page faults it took; the driver asks the sides in turn, row by row, for
## ATTN_BENCH_ROUNDS rounds (default 5), and prints medians.  Before any
## row counts, both sides must agree: the losses of the first steps to
## 1e-12 (relative) in float64, through both package paths, and to 1e-4
## in single against float32 (attn_train), and the ids written for every
## test sentence exactly (float64).
##
## ATTN_BENCH_BEFORE=DIR (a built copy of another version of the package)
## adds that version as a third side, measured in the same rounds, for a
## before/after comparison.

1;   # a script, with helper functions below

malloc_env = ["GLIBC_TUNABLES=glibc.malloc.trim_threshold=268435456:" ...
              "glibc.malloc.mmap_threshold=33554432:glibc.malloc.top_pad=67108864"];

## ---- the package side: a server ---------------------------------------------

function f = minor_faults ()
  ## minflt, field 10 of /proc/self/stat: the 8th value read from field 3
  ## (the state letter, after the parenthesised name) on
  s = fileread ("/proc/self/stat");
  v = sscanf (s(find (s == ")", 1, "last") + 2:end), "%s %d %d %d %d %d %u %u", 8);
  f = v(8);
endfunction

function os_threads = threads_now ()
  s = fileread ("/proc/self/status");
  os_threads = sscanf (regexp (s, "Threads:\\s*(\\d+)", "tokens", "once"){1}, "%d");
endfunction

## Seconds and faults of f () after one warm-up call.
function [t, faults, out] = timed (f)
  f ();
  f0 = minor_faults ();
  t0 = tic ();
  out = f ();
  t = toc (t0);
  faults = minor_faults () - f0;
endfunction

function loss = student_epoch (m, batches, lr)
  state = [];
  loss = zeros (1, numel (batches));
  for s = 1:numel (batches)
    [loss(s), G] = attn_loss (m, batches{s});
    [m, state] = attn_adam (m, G, state, "lr", lr);
  endfor
endfunction

function loss = train_epoch (m, corpus, batch_size, lr)
  [~, h] = attn_train (m, corpus, "epochs", 1, "batch_size", batch_size,
                       "lr", lr, "shuffle", false, "verbose", false);
  loss = h.loss;
endfunction

function ids = greedy_ids (m, sources)
  [~, info] = attn_greedy (m, sources);
  ids = {info.ids};
endfunction

function G = block_step (X, B, dY)
  [~, T] = attn_masked (X, B);
  G = attn_backward (dY, T, B);
endfunction

## the set d with its model in single when in_single (attn_cast)
function d = in_class (d, in_single)
  if (in_single)
    d.m = attn_cast (d.m, "single");
  endif
endfunction

function serve_package (sets_file)
  warning ("off", "attention:unknown-word");
  ## the BLAS starts its threads at the first product
  ones (64) * ones (64);
  box = getenv ("ATTN_BENCH_MAILBOX");
  post ([box ".out"], sprintf ("threads %s %d\nend\n", getenv ("OPENBLAS_NUM_THREADS"),
                               threads_now ()));
  S = load (sets_file).sets;
  while (true)
    line = strtrim (receive ([box ".cmd"]));
    if (strcmp (line, "quit"))
      break;
    endif
    out = fopen ([box ".out.part"], "w");
    try
      w = strsplit (strtrim (line));
      in_single = strcmp (w{end}, "single");   # COMMAND ... single: the model in single
      switch (w{1})
        case "loop"
          d = in_class (S.(w{2}), in_single);
          [t, f, loss] = timed (@() student_epoch (d.m, d.batches, d.lr));
          n = numel (d.batches);
          fprintf (out, "time %.6g %.6g\nlosses %s\n", t / n, f / n, sprintf ("%.17g ", loss));
        case "train"
          d = in_class (S.(w{2}), in_single);
          [t, f, loss] = timed (@() train_epoch (d.m, d.corpus, d.batch_size, d.lr));
          n = numel (d.batches);
          fprintf (out, "time %.6g %.6g\nlosses %s\n", t / n, f / n, sprintf ("%.17g ", loss));
        case "decode"
          d = in_class (S.decode, in_single);
          ## given ids, as PyTorch is (attn_greedy reads either)
          ids = cellfun (@(s) attn_encode (d.m.src_vocab, s), d.sources, "UniformOutput", false);
          [t, f] = timed (@() attn_greedy (d.m, ids));
          ids = greedy_ids (d.m, d.sources);
          fprintf (out, "time %.6g %.6g\n", t, f);
          fprintf (out, "ids %d %s\n", [num2cell(1:numel (ids)); cellfun(@(v) sprintf ("%d ", v), ids, "UniformOutput", false)]{:});
        case "block"
          d = S.block;
          if (in_single)
            d = struct ("X", single (d.X), "dY", single (d.dY), "B", d.B);
            for W = {"W_Q", "W_K", "W_V", "W_O"}
              d.B.(W{1}) = single (d.B.(W{1}));
            endfor
          endif
          [t, f, G] = timed (@() block_step (d.X, d.B, d.dY));
          fprintf (out, "time %.6g %.6g\n", t, f);
        case "gemm"
          d = S.block;                 # a 512^3 product (A * A' would be dsyrk)
          if (in_single)
            d = struct ("X", single (d.X), "dY", single (d.dY));
          endif
          [t, f] = timed (@() d.X' * d.dY);
          fprintf (out, "time %.6g %.6g\n", t, f);
      endswitch
      fprintf (out, "end\n");
    catch err                            # the answer without "end": a failure
      fprintf (out, "%s\n", err.message);
    end_try_catch
    fclose (out);
    rename ([box ".out.part"], [box ".out"]);
  endwhile
endfunction

## ---- the driver's side ------------------------------------------------------

## A server process and what it said first.  Driver and server talk through
## files (named pipes block in Octave's reads): a message is written to
## NAME.tmp, then renamed to NAME, which the other side waits for, reads
## and deletes; commands go to BASE.cmd, answers to BASE.out.
function p = start (cmd, name)
  p.base = tempname ();
  p.name = name;
  system (sprintf ("ATTN_BENCH_MAILBOX=%s %s &", p.base, cmd));
  p.hello = ask (p, "");
endfunction

function post (file, text)
  fid = fopen ([file ".tmp"], "w");
  fputs (fid, text);
  fclose (fid);
  rename ([file ".tmp"], file);
endfunction

function text = receive (file, timeout = Inf)
  t0 = tic ();
  while (isempty (stat (file)))
    if (toc (t0) > timeout)
      text = [];
      return;
    endif
    pause (0.002);
  endwhile
  text = fileread (file);
  delete (file);
endfunction

## The lines a server answers to cmd, up to its "end" (an empty cmd: read
## only).
function lines = ask (p, cmd)
  if (! isempty (cmd))
    post ([p.base ".cmd"], [cmd "\n"]);
  endif
  text = receive ([p.base ".out"], 3600);
  if (isempty (text))
    error ("bench_torch: no answer from the %s side to '%s' in an hour", p.name, cmd);
  endif
  lines = strsplit (strtrim (text), "\n");
  if (! strcmp (lines{end}, "end"))
    error ("bench_torch: the %s side failed after '%s':\n%s", p.name, cmd, text);
  endif
  lines(end) = [];
endfunction

function stop (p)
  post ([p.base ".cmd"], "quit\n");
endfunction

## The numbers after key in lines.
function v = value (lines, key)
  k = find (strncmp (lines, [key " "], numel (key) + 1), 1);
  if (isempty (k))
    error ("bench_torch: no '%s' in\n%s", key, strjoin (lines, "\n"));
  endif
  v = sscanf (lines{k}(numel (key) + 2:end), "%f")';
endfunction

## The numeric parameters of s (not config, vocabularies or heads) after
## names and values: names dotted paths, layers numbered from 1.
function [names, values] = param_leaves (s, prefix, names = {}, values = {})
  for f = fieldnames (s)'
    if (any (strcmp (f{1}, {"config", "src_vocab", "tgt_vocab", "heads"})))
      continue;
    endif
    v = s.(f{1});
    if (isstruct (v) && any (strcmp (f{1}, {"encoder", "decoder"})))
      for l = 1:numel (v)
        [names, values] = param_leaves (v(l), sprintf ("%s%s.%d.", prefix, f{1}, l),
                                        names, values);
      endfor
    elseif (isstruct (v))
      [names, values] = param_leaves (v, [prefix f{1} "."], names, values);
    else
      names{end+1} = [prefix f{1}];
      values{end+1} = v;
    endif
  endfor
endfunction

## What bench_torch.py reads: the model's parameters (model.txt, model.bin),
## config.txt, and the batches or the sources (batches.bin, sources.bin).
function write_set (dir, d)
  mkdir (dir);
  [names, values] = param_leaves (d.m, "");
  fid = fopen ([dir "/model.txt"], "w");
  for k = 1:numel (names)
    fprintf (fid, "%s %d %d\n", names{k}, rows (values{k}), columns (values{k}));
  endfor
  fclose (fid);
  fid = fopen ([dir "/model.bin"], "w");
  cellfun (@(v) fwrite (fid, v(:), "double", 0, "ieee-le"), values);
  fclose (fid);
  c = d.m.config;
  fid = fopen ([dir "/config.txt"], "w");
  fprintf (fid, "heads %d\nencoder_layers %d\ndecoder_layers %d\n", c.heads,
           c.encoder_layers, c.decoder_layers);
  fprintf (fid, "lr %.17g\nbeta1 0.9\nbeta2 0.999\nepsilon 1e-8\n", d.lr);
  fprintf (fid, "check %d\nmax_len %d\n", numel (d.batches), rows (d.m.tgt_pos));
  fprintf (fid, "bos %d\neos %d\n", d.m.tgt_vocab.bos, d.m.tgt_vocab.eos);
  fclose (fid);
  if (! isempty (d.batches))
    fid = fopen ([dir "/batches.bin"], "w");
    for s = 1:numel (d.batches)
      b = d.batches{s};
      fwrite (fid, [columns(b.src); rows(b.src); rows(b.tgt_in); b.src(:);
                    b.src_allow(:); b.tgt_in(:); b.tgt_allow(:); b.labels(:)],
              "double", 0, "ieee-le");
    endfor
    fclose (fid);
  endif
  if (isfield (d, "sources"))
    b = attn_batch (d.m, d.sources, d.sources);
    fid = fopen ([dir "/sources.bin"], "w");
    for i = 1:numel (d.sources)
      s = b.src(b.src_allow(:,i), i);
      fwrite (fid, [numel(s); s], "double", 0, "ieee-le");
    endfor
    fclose (fid);
  endif
endfunction

function s = random_sentence (words, lo, hi)
  s = strjoin (words(randi (numel (words), 1, randi ([lo hi]))), " ");
endfunction

## The batches attn_train makes without shuffling: consecutive picks.
function b = batches_of (m, corpus, batch_size)
  N = numel (corpus.source);
  b = arrayfun (@(s) attn_batch (m, corpus.source((s-1)*batch_size+1 : min (s*batch_size, N)),
                                 corpus.target((s-1)*batch_size+1 : min (s*batch_size, N))),
                1:ceil (N / batch_size), "UniformOutput", false);
endfunction

## The models, data and block of every row, for the servers.
function sets = make_sets ()
  old = rand ("state");
  ## the train-demo model and corpus (doc/train_demo.m)
  rand ("state", 3);
  C = attn_corpus_translation (struct ("n_train", 640, "n_valid", 10, "n_test", 200));
  base = struct ("src_vocab", attn_vocab ([C.train.source; C.test.source]),
                 "tgt_vocab", attn_vocab ([C.train.target; C.test.target]), "d", 64,
                 "heads", 4, "d_ff", 128, "encoder_layers", 1,
                 "decoder_layers", 1, "max_len", 20, "norm", "pre", "seed", 1);
  m = attn_model (base);
  sets.demo = struct ("m", m, "corpus", C.train, "batch_size", 64, "lr", 2e-3,
                      "batches", {batches_of(m, C.train, 64)});
  trained = attn_train (m, C.train, "epochs", 1, "batch_size", 64, "lr", 2e-3,
                        "shuffle", false, "verbose", false);
  sets.decode = struct ("m", trained, "sources", {C.test.source}, "lr", 0,
                        "batches", {{}});
  ## the large model: batch 32 of 32-64 random words
  rand ("state", 1);
  en = arrayfun (@(i) sprintf ("w%d", i), 1:60, "UniformOutput", false);
  fr = arrayfun (@(i) sprintf ("m%d", i), 1:60, "UniformOutput", false);
  L.source = arrayfun (@(i) random_sentence (en, 32, 64), 1:64, "UniformOutput", false);
  L.target = arrayfun (@(i) random_sentence (fr, 32, 64), 1:64, "UniformOutput", false);
  big = attn_model (struct ("src_vocab", attn_vocab (en), "tgt_vocab", attn_vocab (fr),
                            "d", 256, "heads", 8, "d_ff", 1024, "encoder_layers", 2,
                            "decoder_layers", 2, "max_len", 66, "norm", "pre", "seed", 1));
  sets.large = struct ("m", big, "corpus", L, "batch_size", 32, "lr", 1e-3,
                       "batches", {batches_of(big, L, 32)});
  ## the causal block
  randn ("state", 13);
  n = 512;  d = 512;
  sets.block = struct ("B", struct ("W_Q", randn (d) / sqrt (d), "W_K", randn (d) / sqrt (d),
                                    "W_V", randn (d) / sqrt (d), "W_O", randn (d) / sqrt (d),
                                    "heads", 8),
                       "X", randn (n, d), "dY", randn (n, d));
  rand ("state", old);
endfunction

## tol: 1e-12 in float64; in float32 the two sides' sums round apart by
## about eps ("single") a step and Adam carries it to the later steps
function check_losses (name, mine, theirs, bits = 64, tol = 1e-12)
  gap = max (abs (mine(1:numel (theirs)) - theirs) ./ abs (theirs));
  printf ("check: %s, losses of %d steps vs PyTorch float%d: largest relative difference %.1e\n",
          name, numel (theirs), bits, gap);
  if (! (gap <= tol))
    error ("bench_torch: %s: the losses disagree with PyTorch's (%.1e)", name, gap);
  endif
endfunction

function check_ids (name, mine, lines)
  theirs = lines(strncmp (lines, "ids ", 4));
  same = numel (mine) == numel (theirs) && all (strcmp (strtrim (mine), strtrim (theirs)));
  printf ("check: %s, ids written for %d sentences equal on both sides: %s\n", name,
          numel (mine), merge (same, "yes", "no"));
  if (! same)
    error ("bench_torch: %s: the ids differ from PyTorch's", name);
  endif
endfunction

## The rows of one thread count: "row|work|side|seconds|faults" for every
## side and round, and the checks.
function out = run_threads (threads, trees, names, have_torch, here, sets_file, rounds,
                            malloc_env, block_file)
  env = sprintf ("OMP_NUM_THREADS=%d OPENBLAS_NUM_THREADS=%d MKL_NUM_THREADS=%d %s",
                 threads, threads, threads, malloc_env);
  if (threads > 1)              # OpenMP threads that spin steal the cores other work needs
    env = ["OMP_WAIT_POLICY=passive " env];
  endif
  pkg = {};
  for k = 1:numel (trees)
    pkg{k} = start (sprintf (["%s ATTN_BENCH_SERVE=%s octave-cli --no-gui --no-init-file " ...
                              "--no-history --eval 'addpath (\"%s/src\", \"%s/inst\"); " ...
                              "run (\"%s/bench_torch.m\")'"],
                             env, sets_file, trees{k}, trees{k}, here), names{k});
    printf ("%s, %d thread%s: OPENBLAS_NUM_THREADS %d, %d threads in the process\n",
            names{k}, threads, merge (threads > 1, "s", ""), value (pkg{k}.hello, "threads"));
  endfor
  if (have_torch)
    py = start (sprintf ("%s /usr/bin/python3 %s/bench_torch.py serve %d", env, here, threads),
                "PyTorch");
    v = value (py.hello, "threads");
    printf ("PyTorch, %d thread%s: torch.get_num_threads () %d, BLAS threads %d\n", threads,
            merge (threads > 1, "s", ""), v);
    if (any (v != threads))
      error ("bench_torch: PyTorch runs %d/%d threads, not %d", v, threads);
    endif
  endif
  T = {"demo", "train-demo step"; "large", "large step"};
  out = {};
  row = @(work, side, t) sprintf ("row|%s, %d thread%s|%s|%.6g|%.6g", work, threads,
                                  merge (threads > 1, "s", ""), side, t);
  dir = tempname ();
  unwind_protect
    if (have_torch)
      S = load (sets_file).sets;
      for s = {"demo", "large", "decode"}
        write_set ([dir s{1}], S.(s{1}));
      endfor
      for j = 1:rows (T)
        ask (py, ["load " dir T{j,1}]);
        theirs = value (ask (py, "check 64"), "losses");
        theirs32 = value (ask (py, "check 32"), "losses");
        for k = 1:numel (pkg)
          check_losses (sprintf ("%s, %s, attn_loss + attn_adam", T{j,2}, names{k}),
                        value (ask (pkg{k}, ["loop " T{j,1}]), "losses"), theirs);
          check_losses (sprintf ("%s, %s, attn_train", T{j,2}, names{k}),
                        value (ask (pkg{k}, ["train " T{j,1}]), "losses"), theirs);
          check_losses (sprintf ("%s, %s, attn_train, single", T{j,2}, names{k}),
                        value (ask (pkg{k}, ["train " T{j,1} " single"]), "losses"),
                        theirs32, 32, 1e-4);
        endfor
      endfor
      ask (py, ["load " dir "decode"]);
      theirs = ask (py, "decode 64");
      for k = 1:numel (pkg)
        mine = ask (pkg{k}, "decode");
        check_ids (sprintf ("greedy decoding, %s", names{k}), mine(strncmp (mine, "ids ", 4)),
                   theirs);
      endfor
      S = S.block;
      fid = fopen (block_file, "w");
      fwrite (fid, [S.X(:); S.dY(:); S.B.W_Q(:); S.B.W_K(:); S.B.W_V(:); S.B.W_O(:)],
              "double", 0, "ieee-le");
      fclose (fid);
      [~, T_] = attn_masked (S.X, S.B);
      Y = attn_masked (S.X, S.B);
      G = attn_backward (S.dY, T_, S.B);
      mine = [sum(Y(:)), norm(G.W_Q, "fro"), norm(G.W_K, "fro"), norm(G.W_V, "fro"), ...
              norm(G.W_O, "fro"), norm(G.dX, "fro")];
      v = value (ask (py, sprintf ("block %s 512 512 8 64", block_file)), "block");
      printf ("check: causal block, PyTorch vs package, largest relative difference %.1e\n",
              max (abs (v(3:end) - mine) ./ abs (mine)));
    endif
    for r = 1:rounds
      for j = 1:rows (T)
        for k = 1:numel (pkg)
          for in = {"", " single"}
            out{end+1} = row ([T{j,2} ", attn_loss + attn_adam" strrep(in{1}, " ", ", ")],
                              names{k}, value (ask (pkg{k}, ["loop " T{j,1} in{1}]), "time"));
            out{end+1} = row ([T{j,2} ", attn_train" strrep(in{1}, " ", ", ")], names{k},
                              value (ask (pkg{k}, ["train " T{j,1} in{1}]), "time"));
          endfor
        endfor
        if (have_torch)             # the single rows against float32 alone
          ask (py, ["load " dir T{j,1}]);
          for bits = [64 32]
            t = value (ask (py, sprintf ("train %d", bits)), "train");
            for how = {", attn_loss + attn_adam", ", attn_train"}
              out{end+1} = row ([T{j,2} how{1}], sprintf ("PyTorch f%d", bits), t);
              if (bits == 32)
                out{end+1} = row ([T{j,2} how{1} ", single"], "PyTorch f32", t);
              endif
            endfor
          endfor
        endif
      endfor
      decode = "greedy decoding of 200 sentences in one call";
      block = "causal block n = d = 512, h = 8, fwd + bwd";
      for in = {"", " single"}
        for k = 1:numel (pkg)
          out{end+1} = row ([decode strrep(in{1}, " ", ", ")], names{k},
                            value (ask (pkg{k}, ["decode" in{1}]), "time"));
        endfor
        for k = 1:numel (pkg)
          out{end+1} = row ([block strrep(in{1}, " ", ", ")], names{k},
                            value (ask (pkg{k}, ["block" in{1}]), "time"));
        endfor
        ## 18: the block's 12*2*n*d^2 + 6*2*n^2*d flops in 2*512^3 products
        out{end+1} = row ([block strrep(in{1}, " ", ", ")], "gemm limit",
                          18 * [1 0] .* value (ask (pkg{end}, ["gemm" in{1}]), "time"));
      endfor
      if (have_torch)
        ask (py, ["load " dir "decode"]);
        for bits = [64 32]
          t = value (ask (py, sprintf ("decode %d", bits)), "decode");
          out{end+1} = row (decode, sprintf ("PyTorch f%d", bits), t);
          v = value (ask (py, sprintf ("block %s 512 512 8 %d", block_file, bits)), "block");
          out{end+1} = row (block, sprintf ("PyTorch f%d", bits), v(1:2));
          if (bits == 32)
            out{end+1} = row ([decode ", single"], "PyTorch f32", t);
            out{end+1} = row ([block ", single"], "PyTorch f32", v(1:2));
          endif
        endfor
      endif
    endfor
  unwind_protect_cleanup
    cellfun (@stop, pkg);
    if (have_torch)
      stop (py);
      confirm_recursive_rmdir (false, "local");
      for s = {"demo", "large", "decode"}
        if (exist ([dir s{1}], "dir"))
          rmdir ([dir s{1}], "s");
        endif
      endfor
    endif
  end_unwind_protect
endfunction

## The table: one line a work, medians over the rounds.
function print_table (lines, names, rounds)
  f = cellfun (@(s) strsplit (s, "|"), lines, "UniformOutput", false);
  f = vertcat (f{:});
  works = unique (f(:,2), "stable");
  sides = [names, {"PyTorch f64", "PyTorch f32", "gemm limit"}];
  med = @(w, s) median (str2double (f(strcmp (f(:,2), w) & strcmp (f(:,3), s), 4:5)), 1);
  ms = @(t) merge (isnan (t), "-", sprintf ("%.2f ms", 1e3 * t));
  printf ("\n| work |");
  printf (" %s | faults/step |", names{:});
  printf (" PyTorch f64 | faults/step | ratio | PyTorch f32 | ratio to f32 |");
  if (numel (names) > 1)
    printf (" %s time / %s time |", names{1}, names{end});
  endif
  printf ("\n|---|%s\n", repmat ("---|", 1, 2 * numel (names) + 5 + (numel (names) > 1)));
  for i = 1:numel (works)
    t = NaN (numel (sides), 2);
    for s = 1:numel (sides)
      if (any (strcmp (f(:,2), works{i}) & strcmp (f(:,3), sides{s})))
        t(s,:) = med (works{i}, sides{s});
      endif
    endfor
    n = numel (names);
    printf ("| %s |", works{i});
    for k = 1:n
      printf (" %s | %.0f |", ms (t(k,1)), t(k,2));
    endfor
    printf (" %s | %s | %s | %s | %s |", ms (t(n+1,1)),
            merge (isnan (t(n+1,2)), "-", sprintf ("%.0f", t(n+1,2))),
            merge (isnan (t(n+1,1)), "-", sprintf ("%.2f", t(n+1,1) / t(n,1))),
            ms (t(n+2,1)), merge (isnan (t(n+2,1)), "-", sprintf ("%.2f", t(n+2,1) / t(n,1))));
    if (n > 1)
      printf (" %.2f |", t(1,1) / t(n,1));
    endif
    if (! isnan (t(n+3,1)))
      printf (" %sgemm limit %.1f ms: %.0f%% of it", merge (any (strfind (works{i}, "single")), "s", "d"),
              1e3 * t(n+3,1), 100 * t(n+3,1) / t(n,1));
    endif
    printf ("\n");
  endfor
  printf (["(ratio = PyTorch time / package time; above 1: the package is faster; medians\n" ...
           " of %d interleaved rounds; training per step, decoding per call of 200\n" ...
           " sentences; faults: minor page faults in that time; rows marked single:\n" ...
           " the package's model in single, against PyTorch float32)\n"], rounds);
endfunction

## ---- main -----------------------------------------------------------------

here = fileparts (mfilename ("fullpath"));
if (! isempty (getenv ("ATTN_BENCH_SERVE")))
  serve_package (getenv ("ATTN_BENCH_SERVE"));
  return;
endif
rounds = str2double (getenv ("ATTN_BENCH_ROUNDS"));
if (isnan (rounds))
  rounds = 5;
endif
root = fileparts (fileparts (here));
trees = {root};
names = {"package"};
if (! isempty (getenv ("ATTN_BENCH_BEFORE")))
  trees = {make_absolute_filename(getenv ("ATTN_BENCH_BEFORE")), root};
  names = {"before", "package"};
endif
have_torch = system ("/usr/bin/python3 -c 'import torch' 2>/dev/null") == 0;
printf ("package vs PyTorch on the same models, %d cores", nproc ());
if (exist ("/proc/loadavg", "file"))     # other work on the machine skews timings
  printf (", load average %s", strtrim (fileread ("/proc/loadavg"))(1:14));
endif
printf ("\n");
if (! have_torch)
  printf ("PyTorch: skipped (no torch for /usr/bin/python3: apt-get install python3-torch)\n");
endif
sets_file = [tempname() ".mat"];
block_file = [tempname() ".bin"];
unwind_protect
  sets = make_sets ();
  save ("-binary", sets_file, "sets");
  lines = {};
  for threads = [1 2]
    lines = [lines, run_threads(threads, trees, names, have_torch, here, sets_file,
                                rounds, malloc_env, block_file)];
  endfor
unwind_protect_cleanup
  delete (sets_file);
  if (exist (block_file, "file"))
    delete (block_file);
  endif
end_unwind_protect
print_table (lines, names, rounds);
if (exist ("/proc/loadavg", "file"))
  printf ("load average at the end %s\n", strtrim (fileread ("/proc/loadavg"))(1:14));
endif
