## Benchmark of the attention kernels: the MEX blocks against the plain
## vectorised Octave reference (attn_ref_sdpa, attn_ref_block), forward +
## backward, in one run.  Run by `make bench`.
##
##  (a) toy size n = 4, d = 3, h = 1: µs per forward+backward call
##      (median over runs of many calls) for self, masked and cross blocks;
##  (b) n = 512, d = 512, h = 8 (dk = dv = 64), causal masked block:
##      seconds per forward+backward, GFLOP/s, and the fraction of the
##      dgemm rate Octave's `*` reaches on this machine in the same run.
##
## Flop count for (b), matrix products only (softmax, masking, adds not
## counted).  With P = 2*n*d*h*dk (one projection or its gradient) and
## pairs = n*(n+1)/2 (the query-key pairs the causal mask allows):
##   forward   Q, K, V, message*W_O            4 P
##             scores Q_j*K_j', message A_j*V_j  2 * 2*pairs*dk*h
##   backward  dW_O, dmessage                  2 P
##             dA, dV, dQ, dK per head         4 * 2*pairs*dk*h
##             dW_Q, dW_K, dW_V, dX (3 terms)  6 P
## i.e. only the causal half of the per-head products is counted, for the
## MEX and the reference alike (the reference computes the full n×n).
##
## Targets: toy at least 25x faster than the reference; large at least 1.5x
## faster and at 80% or more of the dgemm rate.

1;   # a script, with helper functions below

## Median over `runs` of the mean time per call of f () over `reps` calls.
function t = time_per_call (f, reps, runs)
  t = zeros (runs, 1);
  for r = 1:runs
    t0 = tic ();
    for i = 1:reps
      f ();
    endfor
    t(r) = toc (t0) / reps;
  endfor
  t = median (t);
endfunction

## The same for one forward+backward step: [~, T] = fwd (args{:}) then
## bwd (dY, T, B).  Written out rather than through time_per_call so the
## toy-size timing holds as little Octave call overhead as possible.
function t = time_step (fwd, args, bwd, dY, B, reps, runs)
  t = zeros (runs, 1);
  for r = 1:runs
    t0 = tic ();
    for i = 1:reps
      [~, T] = fwd (args{:});
      G = bwd (dY, T, B);
    endfor
    t(r) = toc (t0) / reps;
  endfor
  t = median (t);
endfunction

## The MEX block of each kind with its arguments, and attn_ref_block's arguments.
function [fwd, args, ref_args] = block_call (kind, X, E, B)
  switch (kind)
    case "self"
      fwd = @attn_self;
      args = {X, B};
    case "masked"
      fwd = @attn_masked;
      args = {X, B};
    case "cross"
      fwd = @attn_cross;
      args = {X, E, B};
  endswitch
  ref_args = {kind, X, E, B};
endfunction

randn ("state", 2024);
printf ("attention kernels: MEX vs plain Octave reference, forward+backward\n");
printf ("Octave %s, %d cores", version (), nproc ());
if (exist ("/proc/loadavg", "file"))     # other work on the machine skews timings
  printf (", load average %s", strtrim (fileread ("/proc/loadavg"))(1:14));
endif
printf ("\n\n");

## (a) toy size
n = 4;  d = 3;
printf ("(a) toy size n = m = 4, d = d_src = 3, h = 1, dk = dv = 3\n");
printf ("%-8s %12s %12s %9s\n", "block", "MEX us", "Octave us", "ratio");
toy_ratio = [];
t_ref_toy = [];
for kind = {"self", "masked", "cross"}
  B = ref_rand_block (d, d, 1, d, d);
  X = randn (n, d);
  E = randn (n, d);
  dY = randn (n, d);
  [fwd, args, ref_args] = block_call (kind{1}, X, E, B);
  t_mex = time_step (fwd, args, @attn_backward, dY, B, 5000, 7);
  t_ref = time_step (@attn_ref_block, ref_args, @attn_ref_block_backward, dY, B, 500, 7);
  toy_ratio(end+1) = t_ref / t_mex;
  t_ref_toy(end+1) = t_ref;
  printf ("%-8s %12.1f %12.1f %8.1fx\n", kind{1}, 1e6 * t_mex, 1e6 * t_ref, toy_ratio(end));
endfor
printf ("target: >= 25x faster; worst here %.1fx\n", min (toy_ratio));

## The same step through MEX functions that only read the arguments and
## return structs of the same fields and shapes (floor_*.c): what Octave's
## MEX interface alone costs, so the best ratio any kernel could reach.
floor_dir = tempname ();
mkdir (floor_dir);
for name = {"floor_forward", "floor_backward"}
  mkoctfile ("--mex", "-R2018a", "-o", fullfile (floor_dir, [name{1} ".mex"]),
             fullfile (fileparts (mfilename ("fullpath")), [name{1} ".c"]));
endfor
addpath (floor_dir);
B = ref_rand_block (d, d, 1, d, d);
t_floor = time_step (@floor_forward, {randn(n, d), B}, @floor_backward,
                     randn (n, d), B, 5000, 7);
rmpath (floor_dir);
confirm_recursive_rmdir (false, "local");
rmdir (floor_dir, "s");
printf ("%-8s %12.1f %12s %8.1fx  (the MEX interface alone, no arithmetic)\n\n",
        "floor", 1e6 * t_floor, "", t_ref_toy(1) / t_floor);

## (b) large causal block
n = 512;  d = 512;  h = 8;  dk = 64;
B = ref_rand_block (d, d, h, dk, dk);
X = randn (n, d);
dY = randn (n, d);
P = 2 * n * d * h * dk;
pairs = n * (n + 1) / 2;
flops_big = 12 * P;                     # products with inner or outer size d
flops_head = 6 * 2 * pairs * dk * h;    # per-head products, causal half
flops = flops_big + flops_head;

## dgemm rates of Octave's `*`, the shapes the block is made of
Ab = randn (512);  Bb = randn (512);
Ah = randn (512, 64);  Bh = randn (64, 512);
rate_big = 2 * 512^3 / time_per_call (@() Ab * Bb, 10, 5);
rate_head = 2 * 512 * 64 * 512 / time_per_call (@() Ah * Bh, 40, 5);

[fwd, args, ref_args] = block_call ("masked", X, [], B);
time_step (fwd, args, @attn_backward, dY, B, 1, 1);          # warm up
t_mex = time_step (fwd, args, @attn_backward, dY, B, 1, 7);
t_ref = time_step (@attn_ref_block, ref_args, @attn_ref_block_backward, dY, B, 1, 5);
## Time the products would take at the measured dgemm rates: the ideal.
t_ideal = flops_big / rate_big + flops_head / rate_head;

[Y_mex, T_mex] = attn_masked (X, B);
[Y_ref, T_ref] = attn_ref_block ("masked", X, [], B);
G_mex = attn_backward (dY, T_mex, B);
G_ref = attn_ref_block_backward (dY, T_ref, B);
relgap = @(a, b) norm (a(:) - b(:)) / norm (b(:));
gap = max ([relgap(Y_mex, Y_ref), cellfun(@(f) relgap (G_mex.(f), G_ref.(f)),
                                          fieldnames (G_ref))']);

printf ("(b) causal masked block n = 512, d = 512, h = 8, dk = dv = 64\n");
printf ("    %.3f GFLOP per forward+backward (%.3f in d-sized products,\n",
        flops / 1e9, flops_big / 1e9);
printf ("    %.3f in per-head products counting the causal half)\n", flops_head / 1e9);
printf ("dgemm (Octave *): 512x512x512 %.1f GFLOP/s, 512x64x512 %.1f GFLOP/s\n",
        rate_big / 1e9, rate_head / 1e9);
printf ("%-8s %10s %10s %14s %14s\n", "", "seconds", "GFLOP/s", "of dgemm 512^3",
        "of mixed dgemm");
for row = {"MEX", t_mex; "Octave", t_ref}'
  [name, t] = row{:};
  printf ("%-8s %10.4f %10.2f %13.0f%% %13.0f%%\n", name, t, flops / t / 1e9,
          100 * flops / t / rate_big, 100 * t_ideal / t);
endfor
printf ("ratio: MEX %.2fx faster than plain Octave (target >= 1.5x)\n", t_ref / t_mex);
printf ("       MEX at %.0f%% of dgemm 512^3, %.0f%% of the mixed dgemm ideal (target >= 80%%)\n",
        100 * flops / t_mex / rate_big, 100 * t_ideal / t_mex);
printf ("check: MEX vs reference, largest relative difference %.1e\n", gap);
printf ("(\"mixed dgemm\": time the same products would take at the two measured\n");
printf (" dgemm rates, d-sized at 512^3, per-head at 512x64x512, over the time taken)\n");

## (c) the same causal block in single (a model of attn_cast (m, "single")):
## the kernels on sgemm, half the bytes.  Double and single are timed in
## turn, one step each, so that other work on the machine slows both alike;
## the ratio is that of the medians.
Bs = B;
for f = {"W_Q", "W_K", "W_V", "W_O"}
  Bs.(f{1}) = single (B.(f{1}));
endfor
Xs = single (X);
dYs = single (dY);
time_step (@attn_masked, {Xs, Bs}, @attn_backward, dYs, Bs, 1, 1);   # warm up
[t_d, t_s] = deal (zeros (9, 1));
for r = 1:9
  t_d(r) = time_step (@attn_masked, {X, B}, @attn_backward, dY, B, 1, 1);
  t_s(r) = time_step (@attn_masked, {Xs, Bs}, @attn_backward, dYs, Bs, 1, 1);
endfor
As = single (Ab);  Bbs = single (Bb);
rate_big_s = 2 * 512^3 / time_per_call (@() As * Bbs, 10, 5);
[Y_s, T_s] = attn_masked (Xs, Bs);
G_s = attn_backward (dYs, T_s, Bs);
gap_s = max ([relgap(double (Y_s), Y_ref), cellfun(@(f) relgap (double (G_s.(f)), G_ref.(f)),
                                                    fieldnames (G_ref))']);
printf ("\n(c) the same block in single vs double, in turn (9 steps each)\n");
printf ("sgemm (Octave *): 512x512x512 %.1f GFLOP/s (dgemm above %.1f)\n",
        rate_big_s / 1e9, rate_big / 1e9);
printf ("%-8s %10s %10s\n", "", "seconds", "GFLOP/s");
printf ("%-8s %10.4f %10.2f\n", "double", median (t_d), flops / median (t_d) / 1e9);
printf ("%-8s %10.4f %10.2f\n", "single", median (t_s), flops / median (t_s) / 1e9);
printf ("ratio: single %.2fx faster than double\n", median (t_d) / median (t_s));
printf ("check: single vs double reference, largest relative difference %.1e\n", gap_s);
