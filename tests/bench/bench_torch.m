## Benchmark: the causal self-attention block n = d = 512, h = 8
## (dk = dv = 64), forward + backward, in one run:
##   package   [Y, T] = attn_masked (X, B); attn_backward (dY, T, B)
##   lean      the same with attn_masked (X, B, [], "lean")
##   student   the block in plain vectorised Octave as a good student
##             writes it: products over all rows, one loop over heads, no
##             permute (student_block below)
##   PyTorch   nn.MultiheadAttention in float64, no biases, with the same
##             weights and inputs (bench_torch.py), when /usr/bin/python3
##             imports torch
##   dgemm     the limit: the block's products (per-head products over the
##             full n x n, as every side computes them) at the rate of a
##             512^3 dgemm measured here
## Rounds are interleaved and each figure is the median over them, so that
## other work on the machine hits every side alike.  Threads: the
## OMP_NUM_THREADS of the run (both sides).  Run by `make bench`.

1;   # a script, with helper functions below

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

threads = str2double (getenv ("OMP_NUM_THREADS"));
if (isnan (threads))
  threads = nproc ();
endif
python = "/usr/bin/python3";
[status, ~] = system ([python " -c 'import torch' 2>/dev/null"]);
have_torch = status == 0;

randn ("state", 13);
n = 512;  d = 512;  h = 8;
B = struct ("W_Q", randn (d) / sqrt (d), "W_K", randn (d) / sqrt (d),
            "W_V", randn (d) / sqrt (d), "W_O", randn (d) / sqrt (d),
            "heads", h);
X = randn (n, d);
dY = randn (n, d);

printf ("causal block n = d = 512, h = 8, fwd + bwd; %d thread(s)", threads);
if (exist ("/proc/loadavg", "file"))     # other work on the machine skews timings
  printf (", load average %s", strtrim (fileread ("/proc/loadavg"))(1:14));
endif
printf ("\n");

## the same numbers on every side
[Y, T] = attn_masked (X, B);
G = attn_backward (dY, T, B);
[Ys, Gs] = student_block (X, B, dY);
relgap = @(a, b) norm (a(:) - b(:)) / norm (b(:));
printf ("check: student vs package, largest relative difference %.1e\n",
        max ([relgap(Ys, Y), relgap(Gs.W_Q, G.W_Q), relgap(Gs.W_K, G.W_K), ...
              relgap(Gs.W_V, G.W_V), relgap(Gs.W_O, G.W_O), ...
              relgap(Gs.dX, G.dX)]));
mine = [sum(Y(:)), norm(G.W_Q, "fro"), norm(G.W_K, "fro"), ...
        norm(G.W_V, "fro"), norm(G.W_O, "fro"), norm(G.dX, "fro")];
if (have_torch)
  data = [tempname() ".bin"];
  fid = fopen (data, "w");
  fwrite (fid, [X(:); dY(:); B.W_Q(:); B.W_K(:); B.W_V(:); B.W_O(:)],
          "double", 0, "ieee-le");
  fclose (fid);
  torch_cmd = sprintf ("%s %s %s %d %d %d %d 3", python,
                       fullfile (fileparts (mfilename ("fullpath")),
                                 "bench_torch.py"), data, n, d, h, threads);
endif

rounds = 5;
t = NaN (rounds, 4);    # package, lean, student, torch
A512 = randn (512);  B512 = randn (512);
t_gemm = zeros (rounds, 1);
for r = 1:rounds
  t(r,1) = median_time (@() package_step (X, B, dY, "full"), 3);
  t(r,2) = median_time (@() package_step (X, B, dY, "lean"), 3);
  t(r,3) = median_time (@() student_block (X, B, dY), 3);
  t_gemm(r) = median_time (@() A512 * B512, 5);
  if (have_torch)
    [status, out] = system (torch_cmd);
    v = sscanf (strtrim (out), "torch %f %f %f %f %f %f %f");
    if (status != 0 || numel (v) != 7)
      error ("bench_torch: bench_torch.py failed: %s", out);
    endif
    t(r,4) = v(1);
    if (r == 1)
      printf ("check: PyTorch vs package, largest relative difference %.1e\n",
              max (abs (v(2:end)' - mine) ./ abs (mine)));
    endif
  endif
endfor
if (have_torch)
  delete (data);
endif

rate = 2 * 512^3 / median (t_gemm);
flops = 12 * 2 * n * d * d + 6 * 2 * n * n * d;   # products, full n x n
t_limit = flops / rate;
tm = median (t, 1);
printf ("dgemm 512^3: %.1f GFLOP/s; the block's %.2f GFLOP at that rate: %.1f ms\n",
        rate / 1e9, flops / 1e9, 1e3 * t_limit);
printf ("median of %d interleaved rounds (each the median of 3 passes)\n", rounds);
printf ("%-34s %9s %14s\n", "", "ms", "of dgemm limit");
names = {"package, full trace", "package, lean trace", ...
         "plain Octave (student, head loop)", "PyTorch nn.MultiheadAttention"};
for k = 1:4
  if (isnan (tm(k)))
    printf ("%-34s %9s\n", names{k}, "skipped (no torch for /usr/bin/python3)");
  else
    printf ("%-34s %9.1f %13.0f%%\n", names{k}, 1e3 * tm(k),
            100 * t_limit / tm(k));
  endif
endfor
printf ("ratios (other time / package time; above 1: the package is faster)\n");
for k = 1:2
  printf ("  %-20s plain Octave %.2fx   PyTorch %.2fx\n", names{k},
          tm(3) / tm(k), tm(4) / tm(k));
endfor
