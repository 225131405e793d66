## Benchmark: the package against PyTorch on the same models, both sides
## measured in one run (issue 13's table).  Run by `make bench`.
##
## Rows (ratio = PyTorch time / package time; above 1: the package is
## faster):
##   train-demo step   d 64, 4 heads, d_ff 128, 1+1 layers, pre-norm,
##                     batch 64 of attn_corpus_translation: time per step
##                     of attn_train itself (one epoch, no shuffle), 1 and
##                     2 threads
##   large step        d 256, 8 heads, d_ff 1024, 2+2 layers, pre-norm,
##                     batch 32 of 32-64 tokens, through attn_train
##   greedy decoding   200 test sentences with the trained train-demo
##                     model, one at a time (attn_greedy) and all at once
##                     (attn_greedy on a cell when it takes one, else
##                     attn_score, which decodes them one by one)
##   causal block      n = d = 512, h = 8: attn_masked with its trace +
##                     attn_backward, the lean trace, the block in plain
##                     vectorised Octave as a good student writes it (one
##                     permute-free loop over heads), nn.MultiheadAttention
##                     and the dgemm limit (the block's 4.83 GFLOP at the
##                     rate of a 512^3 product measured here)
## The PyTorch side (bench_torch.py) runs the same model (the package's
## weights, batches and sources written to a folder) in float64, and in
## float32 for information, when Debian's /usr/bin/python3 imports torch;
## its first losses are checked against attn_train's before any timing.
## Rounds are interleaved (package, then PyTorch) and each figure is a
## median over them, so that other work on the machine hits both sides
## alike; in each round both sides train one warm-up epoch before the
## timed one.  PyTorch at 2 threads runs with OMP_WAIT_POLICY=passive.
##
## The script runs itself once per thread count (OMP_NUM_THREADS is read
## when the BLAS starts): a worker (ATTN_BENCH_THREADS set) prints its rows
## as "row|work|package s|torch64 s|torch32 s|note", the driver the table.

1;   # a script, with helper functions below

## ---- the causal block -----------------------------------------------------

## The block as a student writes it: Y = X + message*W_O with a causal
## softmax per head, and its gradients, one loop over heads.
function [Y, G] = student_block (X, B, dY)
  [n, d] = size (X);
  h = B.heads;  dk = columns (B.W_Q) / h;  dv = columns (B.W_V) / h;
  Q = X * B.W_Q;  K = X * B.W_K;  V = X * B.W_V;
  future = triu (true (n), 1);
  A = cell (h, 1);
  message = zeros (n, h * dv);
  for j = 1:h
    ck = (j-1)*dk+1 : j*dk;  cv = (j-1)*dv+1 : j*dv;
    S = Q(:,ck) * K(:,ck)' / sqrt (dk);
    S(future) = -Inf;
    E = exp (S - max (S, [], 2));
    A{j} = E ./ sum (E, 2);
    message(:,cv) = A{j} * V(:,cv);
  endfor
  Y = X + message * B.W_O;

  G.W_O = message' * dY;
  dmessage = dY * B.W_O';
  dQ = zeros (n, h * dk);  dK = dQ;  dV = zeros (n, h * dv);
  for j = 1:h
    ck = (j-1)*dk+1 : j*dk;  cv = (j-1)*dv+1 : j*dv;
    dA = dmessage(:,cv) * V(:,cv)';
    dV(:,cv) = A{j}' * dmessage(:,cv);
    dS = A{j} .* (dA - sum (dA .* A{j}, 2));
    dQ(:,ck) = dS * K(:,ck) / sqrt (dk);
    dK(:,ck) = dS' * Q(:,ck) / sqrt (dk);
  endfor
  G.W_Q = X' * dQ;  G.W_K = X' * dK;  G.W_V = X' * dV;
  G.dX = dY + dQ * B.W_Q' + dK * B.W_K' + dV * B.W_V';
endfunction

## Median time of reps calls of f ().
function t = median_time (f, reps)
  t = zeros (reps, 1);
  for r = 1:reps
    t0 = tic ();
    f ();
    t(r) = toc (t0);
  endfor
  t = median (t);
endfunction

function package_step (X, B, dY, mode)
  [~, T] = attn_masked (X, B, [], mode);
  G = attn_backward (dY, T, B);
endfunction

## Rows of the causal block; torch_cmd empty: no PyTorch.
function block_rows (torch_py, threads, rounds)
  randn ("state", 13);
  n = 512;  d = 512;  h = 8;
  B = struct ("W_Q", randn (d) / sqrt (d), "W_K", randn (d) / sqrt (d),
              "W_V", randn (d) / sqrt (d), "W_O", randn (d) / sqrt (d),
              "heads", h);
  X = randn (n, d);
  dY = randn (n, d);
  [Y, T] = attn_masked (X, B);
  G = attn_backward (dY, T, B);
  [Ys, Gs] = student_block (X, B, dY);
  relgap = @(a, b) norm (a(:) - b(:)) / norm (b(:));
  printf ("check: causal block, student vs package, largest relative difference %.1e\n",
          max ([relgap(Ys, Y), relgap(Gs.W_Q, G.W_Q), relgap(Gs.W_K, G.W_K), ...
                relgap(Gs.W_V, G.W_V), relgap(Gs.W_O, G.W_O), ...
                relgap(Gs.dX, G.dX)]));
  mine = [sum(Y(:)), norm(G.W_Q, "fro"), norm(G.W_K, "fro"), ...
          norm(G.W_V, "fro"), norm(G.W_O, "fro"), norm(G.dX, "fro")];
  if (! isempty (torch_py))
    data = [tempname() ".bin"];
    fid = fopen (data, "w");
    fwrite (fid, [X(:); dY(:); B.W_Q(:); B.W_K(:); B.W_V(:); B.W_O(:)],
            "double", 0, "ieee-le");
    fclose (fid);
    torch_cmd = sprintf ("%s block %s %d %d %d %d 3", torch_py, data, n, d,
                         h, threads);
  endif
  t = NaN (rounds, 4);    # package, lean, student, torch
  A512 = randn (512);  B512 = randn (512);
  t_gemm = zeros (rounds, 1);
  for r = 1:rounds
    t(r,1) = median_time (@() package_step (X, B, dY, "full"), 3);
    t(r,2) = median_time (@() package_step (X, B, dY, "lean"), 3);
    t(r,3) = median_time (@() student_block (X, B, dY), 3);
    t_gemm(r) = median_time (@() A512 * B512, 5);
    if (! isempty (torch_py))
      [status, out] = system (torch_cmd);
      v = sscanf (strtrim (out), "torch %f %f %f %f %f %f %f");
      if (status != 0 || numel (v) != 7)
        error ("bench_torch: bench_torch.py failed: %s", out);
      endif
      t(r,4) = v(1);
      if (r == 1)
        printf ("check: causal block, PyTorch vs package, largest relative difference %.1e\n",
                max (abs (v(2:end)' - mine) ./ abs (mine)));
      endif
    endif
  endfor
  if (! isempty (torch_py))
    delete (data);
  endif
  flops = 12 * 2 * n * d * d + 6 * 2 * n * n * d;   # products, full n x n
  t_limit = flops / (2 * 512^3 / median (t_gemm));
  tm = median (t, 1);
  printf ("check: dgemm 512^3 %.1f GFLOP/s here; the block's %.2f GFLOP at that rate: %.1f ms\n",
          2 * 512^3 / median (t_gemm) / 1e9, flops / 1e9, 1e3 * t_limit);
  printf ("row|causal block n = d = 512, h = 8, fwd + bwd, with trace|%.6g|%.6g|NaN|plain Octave %.1f ms (%.2fx), dgemm limit %.1f ms (%.0f%% of it)\n",
          tm(1), tm(4), 1e3 * tm(3), tm(3) / tm(1), 1e3 * t_limit,
          100 * t_limit / tm(1));
  printf ("row|the same, lean trace|%.6g|%.6g|NaN|plain Octave %.2fx, %.0f%% of the dgemm limit\n",
          tm(2), tm(4), tm(3) / tm(2), 100 * t_limit / tm(2));
endfunction

## ---- models -------------------------------------------------------------

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

## Every parameter of m as "name rows cols" lines (stem.txt) and their
## values (stem.bin).
function write_params (m, stem)
  [names, values] = param_leaves (m, "");
  fid = fopen ([stem ".txt"], "w");
  for k = 1:numel (names)
    fprintf (fid, "%s %d %d\n", names{k}, rows (values{k}), columns (values{k}));
  endfor
  fclose (fid);
  fid = fopen ([stem ".bin"], "w");
  cellfun (@(v) fwrite (fid, v(:), "double", 0, "ieee-le"), values);
  fclose (fid);
endfunction

## The batches attn_train makes without shuffling: consecutive picks.
function write_batches (m, corpus, batch_size, file)
  fid = fopen (file, "w");
  N = numel (corpus.source);
  for s = 1:ceil (N / batch_size)
    pick = (s-1)*batch_size + 1 : min (s*batch_size, N);
    b = attn_batch (m, corpus.source(pick), corpus.target(pick));
    fwrite (fid, [numel(pick); rows(b.src); rows(b.tgt_in); b.src(:);
                  b.src_allow(:); b.tgt_in(:); b.tgt_allow(:); b.labels(:)],
            "double", 0, "ieee-le");
  endfor
  fclose (fid);
endfunction

function write_config (m, o, file)
  c = m.config;
  fid = fopen (file, "w");
  fprintf (fid, "heads %d\nencoder_layers %d\ndecoder_layers %d\n", c.heads,
           c.encoder_layers, c.decoder_layers);
  fprintf (fid, "lr %.17g\nbeta1 0.9\nbeta2 0.999\nepsilon 1e-8\n", o.lr);
  fprintf (fid, "check %d\nreps %d\nmax_len %d\n", o.check, o.reps,
           rows (m.tgt_pos));
  fprintf (fid, "bos %d\neos %d\n", m.tgt_vocab.bos, m.tgt_vocab.eos);
  fclose (fid);
endfunction

## The lines of PyTorch's output whose first word is key, as numbers.
function v = torch_value (out, key)
  tok = regexp (out, ["(?:^|\n)" key " ([^\n]*)"], "tokens", "once");
  if (isempty (tok))
    error ("bench_torch: no '%s' in the output of bench_torch.py:\n%s", key, out);
  endif
  v = str2num (tok{1});
endfunction

function out = run_torch (cmd)
  [status, out] = system (cmd);
  if (status != 0)
    error ("bench_torch: bench_torch.py failed:\n%s", out);
  endif
endfunction

## Training rows: seconds per attn_train step against PyTorch's Adam step;
## returns the model after the last round.
function m = train_rows (name, m0, corpus, o, torch_py, threads, dir)
  steps = ceil (numel (corpus.source) / o.batch_size);
  train = @(m) attn_train (m, corpus, "epochs", 1, "batch_size", o.batch_size,
                           "lr", o.lr, "shuffle", false, "verbose", false);
  [m, h] = train (m0);
  t = NaN (o.rounds, 3);
  if (! isempty (torch_py))
    write_params (m0, [dir "/model"]);
    write_config (m0, o, [dir "/config.txt"]);
    write_batches (m0, corpus, o.batch_size, [dir "/batches.bin"]);
    cmd = sprintf ("%s model %s %d", torch_py, dir, threads);
    theirs = torch_value (run_torch ([cmd " check"]), "losses");
    mine = h.loss(1:numel (theirs));
    printf ("check: %s, first %d losses of attn_train vs PyTorch float64: %s vs %s, largest relative difference %.1e\n",
            name, numel (mine), mat2str (mine, 6), mat2str (theirs, 6),
            max (abs (mine - theirs) ./ abs (mine)));
  endif
  for r = 1:o.rounds
    ## a warm-up epoch before the timed one, as bench_torch.py does: the
    ## first epoch after the other side has run is 20-40% slower on both
    train (m0);
    [m, h] = train (m0);
    t(r,1) = h.seconds / steps;
    if (! isempty (torch_py))
      out = run_torch ([cmd " train"]);
      t(r,2:3) = [torch_value(out, "train64"), torch_value(out, "train32")];
    endif
  endfor
  tm = median (t, 1);
  printf ("row|%s, %d thread%s, through attn_train|%.6g|%.6g|%.6g|%d steps an epoch\n",
          name, threads, merge (threads > 1, "s", ""), tm, steps);
endfunction

## Decoding rows: 200 sentences one at a time and batched.
function decode_rows (m, test, o, torch_py, threads, dir)
  N = numel (test.source);
  ## batched decoding: attn_greedy returns a cell for a cell of sentences
  ## (an older one reads the cell as the words of one sentence)
  warning ("off", "attention:unknown-word", "local");
  try
    two = attn_greedy (m, test.source(1:2));
    batched = iscell (two) && numel (two) == 2;
  catch
    batched = false;
  end_try_catch
  how = merge (batched, "attn_greedy on a cell", "attn_score (no batched attn_greedy yet)");
  ids = cell (1, o.check);
  for i = 1:o.check
    [~, info] = attn_greedy (m, test.source{i});
    ids{i} = info.ids(:)';
  endfor
  if (! isempty (torch_py))
    write_params (m, [dir "/model"]);
    write_config (m, o, [dir "/config.txt"]);
    b = attn_batch (m, test.source, test.target);
    fid = fopen ([dir "/sources.bin"], "w");
    for i = 1:N
      s = b.src(b.src_allow(:,i), i);
      fwrite (fid, [numel(s); s], "double", 0, "ieee-le");
    endfor
    fclose (fid);
    cmd = sprintf ("%s model %s %d decode", torch_py, dir, threads);
  endif
  t = NaN (o.rounds, 6);
  for r = 1:o.rounds
    t0 = tic ();
    for i = 1:N
      attn_greedy (m, test.source{i});
    endfor
    t(r,1) = toc (t0);
    t0 = tic ();
    if (batched)
      attn_greedy (m, test.source);
    else
      attn_score (m, test);
    endif
    t(r,4) = toc (t0);
    if (! isempty (torch_py))
      out = run_torch (cmd);
      t(r,[2 3 5 6]) = [torch_value(out, "decode1_64"), torch_value(out, "decode1_32"), ...
                        torch_value(out, "decodeB_64"), torch_value(out, "decodeB_32")];
      if (r == 1)
        same = 0;
        for i = 1:o.check
          theirs = torch_value (out, sprintf ("ids %d", i));
          same += isequal (theirs(:)', ids{i});
        endfor
        printf ("check: greedy decoding, ids of the first %d sentences equal on both sides: %d of %d\n",
                o.check, same, o.check);
      endif
    endif
  endfor
  tm = median (t, 1) / N;      # seconds per sentence
  printf ("row|greedy decoding of %d test sentences, one at a time, %d thread%s|%.6g|%.6g|%.6g|per sentence\n",
          N, threads, merge (threads > 1, "s", ""), tm(1:3));
  printf ("row|the same %d sentences, batched|%.6g|%.6g|%.6g|per sentence; package: %s\n",
          N, tm(4:6), how);
endfunction

function s = random_sentence (words, lo, hi)
  s = strjoin (words(randi (numel (words), 1, randi ([lo hi]))), " ");
endfunction

## The rows of one thread count.
function worker (threads, here, rounds)
  torch_py = "";
  [status, ~] = system ("/usr/bin/python3 -c 'import torch' 2>/dev/null");
  if (status == 0)
    torch_py = sprintf ("%s/usr/bin/python3 %s/bench_torch.py",
                        merge (threads > 1, "OMP_WAIT_POLICY=passive ", ""), here);
  endif
  dir = tempname ();
  mkdir (dir);
  unwind_protect
    ## the train-demo model and corpus (doc/train_demo.m)
    old = rand ("state");
    rand ("state", 3);
    C = attn_corpus_translation (struct ("n_train", 640, "n_valid", 10, "n_test", 200));
    rand ("state", old);
    ## every split's words, so that the test sentences have no <unk>
    base = struct ("src_vocab", attn_vocab ([C.train.source; C.test.source]),
                   "tgt_vocab", attn_vocab ([C.train.target; C.test.target]), "d", 64,
                   "heads", 4, "d_ff", 128, "encoder_layers", 1,
                   "decoder_layers", 1, "max_len", 20, "norm", "pre", "seed", 1);
    o = struct ("batch_size", 64, "lr", 2e-3, "rounds", rounds, "check", 3, "reps", 1);
    m = train_rows ("train-demo step", attn_model (base), C.train, o, torch_py,
                    threads, dir);
    if (threads == 1)
      decode_rows (m, C.test, setfield (o, "check", 5), torch_py, threads, dir);
    endif

    ## the large model: batch 32 of 32-64 random words
    rand ("state", 1);
    en = arrayfun (@(i) sprintf ("w%d", i), 1:60, "UniformOutput", false);
    fr = arrayfun (@(i) sprintf ("m%d", i), 1:60, "UniformOutput", false);
    L.source = arrayfun (@(i) random_sentence (en, 32, 64), 1:64, "UniformOutput", false);
    L.target = arrayfun (@(i) random_sentence (fr, 32, 64), 1:64, "UniformOutput", false);
    rand ("state", old);
    big = struct ("src_vocab", attn_vocab (en), "tgt_vocab", attn_vocab (fr),
                  "d", 256, "heads", 8, "d_ff", 1024, "encoder_layers", 2,
                  "decoder_layers", 2, "max_len", 66, "norm", "pre", "seed", 1);
    train_rows ("large step", attn_model (big), L,
                struct ("batch_size", 32, "lr", 1e-3, "rounds", rounds, "check", 2, "reps", 1),
                torch_py, threads, dir);

    if (threads > 1)
      block_rows (torch_py, threads, rounds + 2);
    endif
  unwind_protect_cleanup
    confirm_recursive_rmdir (false, "local");
    rmdir (dir, "s");
  end_unwind_protect
endfunction

## ---- driver ---------------------------------------------------------------

here = fileparts (mfilename ("fullpath"));
rounds = str2double (getenv ("ATTN_BENCH_ROUNDS"));   # interleaved rounds
if (isnan (rounds))
  rounds = 3;
endif
threads = str2double (getenv ("ATTN_BENCH_THREADS"));
if (! isnan (threads))
  worker (threads, here, rounds);
  return;
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
root = fileparts (fileparts (here));
rows_out = {};
for threads = [1 2]
  cmd = sprintf (["OMP_NUM_THREADS=%d ATTN_BENCH_THREADS=%d ATTN_BENCH_ROUNDS=%d " ...
                  "octave-cli --no-gui --no-init-file --no-history --eval " ...
                  "'addpath (\"%s/src\", \"%s/inst\"); run (\"%s/bench_torch.m\")'"],
                 threads, threads, rounds, root, root, here);
  [status, out] = system (cmd);
  lines = strsplit (out, "\n");
  is_row = strncmp (lines, "row|", 4);
  printf ("%s\n", lines{! is_row & ! cellfun (@isempty, lines)});
  if (status != 0)
    error ("bench_torch: the %d-thread worker failed", threads);
  endif
  rows_out = [rows_out, lines(is_row)];
endfor

ms = @(s) merge (isnan (s), "-", sprintf ("%.2f ms", 1e3 * s));
printf ("\n| work | package | PyTorch float64 | ratio | PyTorch float32 | note |\n");
printf ("|---|---|---|---|---|---|\n");
for k = 1:numel (rows_out)
  f = strsplit (rows_out{k}, "|");
  v = str2double (f(3:5));
  printf ("| %s | %s | %s | %s | %s | %s |\n", f{2}, ms (v(1)), ms (v(2)),
          merge (isnan (v(2)), "-", sprintf ("%.2f", v(2) / v(1))),
          ms (v(3)), f{6});
endfor
printf ("(ratio = PyTorch float64 time / package time; above 1: the package is faster;\n");
printf (" rounds interleaved, medians of %d; decoding per sentence)\n", rounds);
