## Run by tests/valgrind/memcheck.sh inside `valgrind octave-cli`: every MEX
## gateway with every number of outputs, full, lean and step traces, every
## kind of mask, batches, pages, n != m, several head counts, zero sizes,
## range arguments, a causal sequence longer than the kernel's row tile and
## results large enough to be arrays Octave makes; the gradients of each
## trace;
## the K/V cache of attn_masked, attn_self and attn_cross; the block
## options (biases, kv_heads, rope_base); the single path of every gateway;
## tests/test_edge_cases.m and the tests of src/attn_step.m (the fused
## optimiser step) and of the row-wise maps (attn_rows, attn_layernorm and
## their backward); then the fuzz harness over the error
## paths; then the grading channel's codec (__grade_value__): the tests of
## inst/private/grade_value.m and its fuzz harness; and check_model's one
## pass over a model (__model_fits__): the tests of
## inst/private/check_model.m; the row softmax (__softmax_rows__): the
## tests of inst/private/softmax_rows.m; and the loss (__cross_entropy__):
## the tests of inst/private/model_loss.m.  Prints "N passed, N failed" (a check is a
## call that returned finite results, a test that passed, or a fuzz case
## with no failure) and exits non-zero on a failure; valgrind itself
## judges memory.

root = getenv ("ATTN_ROOT");
addpath (fullfile (root, "src"), fullfile (root, "inst"),
         fullfile (root, "tests", "fuzz"));
addpath (genpath (fullfile (root, "tests", "reference")));
ncases = str2double (getenv ("ATTN_MEMCHECK_FUZZ"));
if (isnan (ncases))
  ncases = 200;
endif
rand ("twister", 5);
finite = @(varargin) all (cellfun (@(x) all (isfinite (x(:))), varargin));
npass = 0;
nfail = 0;

## attn_sdpa / attn_sdpa_backward: n m dk dv pages
for c = {[3 4 2 5], [1 1 1 1], [4 1 3 2], [130 130 4 3], [5 3 2 2 2 3], ...
         [0 3 2 2], [3 0 2 2]}
  s = c{1};
  [n, m, dk, dv] = deal (s(1), s(2), s(3), s(4));
  p = s(5:end);
  Q = rand ([n dk p]);  K = rand ([m dk p]);  V = rand ([m dv p]);
  for allow = {{}, {rand(n, m) > 0.3}, {rand([n m p]) > 0.3}, {"causal"}}
    M = attn_sdpa (Q, K, V, allow{1}{:});
    [M, A] = attn_sdpa (Q, K, V, allow{1}{:});
    [M, A, S] = attn_sdpa (Q, K, V, allow{1}{:});
    dM = rand (size (M));
    dQ = attn_sdpa_backward (dM, Q, K, V, A);
    [dQ, dK, dV] = attn_sdpa_backward (dM, Q, K, V, A);
    ok = finite (M, A, dQ, dK, dV);
    npass += ok;
    nfail += ! ok;
  endfor
endfor
## ranges as arguments
[M, A] = attn_sdpa ((1:3)', (1:4)', (1:4)');
[dQ, dK, dV] = attn_sdpa_backward ((1:3)', (1:3)', (1:4)', (1:4)', A);
npass += finite (M, dQ, dK, dV);

## blocks: n m d d_src heads batch
for c = {[4 4 3 5 2 1], [1 1 1 1 1 1], [3 5 4 2 2 3], [130 130 4 4 2 1], ...
         [0 2 3 3 1 2], [2 0 3 3 1 1]}
  s = num2cell (c{1});
  [n, m, d, d_src, h, Bt] = s{:};
  B = struct ("W_Q", rand (d, 2*h), "W_K", rand (d, 2*h), "W_V", rand (d, h),
              "W_O", rand (h, d), "heads", h);
  Bc = B;
  Bc.W_K = rand (d_src, 2*h);
  Bc.W_V = rand (d_src, h);
  X = rand (n, d, Bt);  E = rand (m, d_src, Bt);
  for mask = {{}, {[]}, {rand(n, Bt) > 0.3}}
    for f = {"attn_self", "attn_masked"}
      Y = feval (f{1}, X, B, mask{1}{:});
      [Y, T] = feval (f{1}, X, B, mask{1}{:});
      G = attn_backward (rand (size (Y)), T, B);
      [Y, L] = feval (f{1}, X, B, [mask{1}{:}], "lean");
      GL = attn_backward (rand (size (Y)), L, B);
      ## one more row after the cached ones (their keys and values)
      [Yc, C] = feval (f{1}, rand (1, d, Bt), B, [], "lean", L);
      [Yc, C] = feval (f{1}, rand (2, d, Bt), B, [], "full", C);
      [Ys, S] = feval (f{1}, rand (1, d, Bt), B, [], "step", C);   # the step trace
      [Ys, S] = feval (f{1}, rand (2, d, Bt), B, [], "step", S);
      ok = finite (Y, T.A, G.dX, G.W_Q, G.W_K, G.W_V, G.W_O, L.A, GL.dX, Yc, C.A, Ys, S.K, S.V);
      npass += ok;
      nfail += ! ok;
    endfor
  endfor
  for mask = {{}, {rand(m, Bt) > 0.3}}
    Y = attn_cross (X, E, Bc, mask{1}{:});
    [Y, T] = attn_cross (X, E, Bc, mask{1}{:});
    G = attn_backward (rand (size (Y)), T, Bc);
    [Y, L] = attn_cross (X, E, Bc, [mask{1}{:}], "lean");
    GL = attn_backward (rand (size (Y)), L, Bc);
    [Yc, C] = attn_cross (X, E(1:0,:,:), Bc, [mask{1}{:}], "lean", L);
    [Ys, S] = attn_cross (X, E, Bc, [mask{1}{:}], "step");
    [Ys, S] = attn_cross (X, E(1:0,:,:), Bc, [mask{1}{:}], "step", S);
    ok = finite (Y, T.A, G.dD, G.dE, G.W_Q, G.W_K, G.W_V, G.W_O, L.A, GL.dE, Yc, C.A, Ys, S.delta);
    npass += ok;
    nfail += ! ok;
  endfor
endfor
## the block options: biases, kv_heads (two query heads per K/V head),
## rope_base (self, masked), full and lean traces, a K/V cache, gradients
for c = {[5 4 6 3 4 2], [1 1 2 2 2 1], [130 130 4 4 4 1]}
  s = num2cell (c{1});
  [n, m, d, d_src, h, Bt] = s{:};
  B = struct ("W_Q", rand (d, 2*h), "W_K", rand (d, h), "W_V", rand (d, h),
              "W_O", rand (2*h, d), "heads", h, "kv_heads", h / 2,
              "b_Q", rand (1, 2*h), "b_K", rand (1, h), "b_V", rand (1, h),
              "b_O", rand (1, d), "rope_base", 10000);
  Bc = rmfield (B, "rope_base");
  Bc.W_K = rand (d_src, h);
  Bc.W_V = rand (d_src, h);
  X = rand (n, d, Bt);  E = rand (m, d_src, Bt);
  for f = {"attn_self", "attn_masked"}
    [Y, T] = feval (f{1}, X, B, rand (n, Bt) > 0.3);
    G = attn_backward (rand (size (Y)), T, B);
    [Y, L] = feval (f{1}, X, B, [], "lean");
    GL = attn_backward (rand (size (Y)), L, B);
    [Yc, C] = feval (f{1}, rand (2, d, Bt), B, [], "lean", L);
    ok = finite (Y, T.A, G.dX, G.b_Q, G.b_K, G.b_V, G.b_O, GL.dX, Yc, C.K);
    npass += ok;
    nfail += ! ok;
  endfor
  [Y, T] = attn_cross (X, E, Bc, rand (m, Bt) > 0.3);
  G = attn_backward (rand (size (Y)), T, Bc);
  Yc = attn_cross (X, E(1:0,:,:), Bc, [], "lean", T);
  ok = finite (Y, T.A, G.dD, G.dE, G.b_K, G.b_O, Yc);
  npass += ok;
  nfail += ! ok;
endfor
## results of 1 MiB or more are arrays Octave makes and the gateway fills
## in place: a traced block and its gradients, attn_sdpa with every output,
## and an overflow raised after those results were made
n = 1024;  d = 16;  h = 4;
B = struct ("W_Q", rand (d, d) / d, "W_K", rand (d, d) / d,
            "W_V", rand (d, d) / d, "W_O", rand (d, d) / d, "heads", h);
X = rand (n, d);
[Y, T] = attn_masked (X, B);
G = attn_backward (rand (n, d), T, B);
[Y, L] = attn_masked (X, B, [], "lean");
GL = attn_backward (rand (n, d), L, B);
[M, A, S] = attn_sdpa (rand (2048, 4), rand (2048, 4), rand (2048, 4));
ok = finite (Y, T.A, G.dX, L.A, GL.dX, M, A);
try
  attn_masked (X * 1e200, B);
  ok = false;
catch err
  ok = ok && strcmp (err.identifier, "attention:overflow");
end_try_catch
npass += ok;
nfail += ! ok;
## the single path (every gateway on single arrays): blocks with the
## options, full and lean traces, a K/V cache and gradients; attn_sdpa
## with pages and a causal sequence past the row tile; the row-wise maps;
## the optimiser step; results of 1 MiB or more (single arrays Octave
## makes); and a call that mixes classes
S = @(x) single (x);
for c = {[5 4 6 3 4 2], [130 130 4 4 4 1], [0 2 3 3 2 2]}
  s = num2cell (c{1});
  [n, m, d, d_src, h, Bt] = s{:};
  B = struct ("W_Q", S(rand (d, 2*h)), "W_K", S(rand (d, h)), "W_V", S(rand (d, h)),
              "W_O", S(rand (2*h, d)), "heads", h, "kv_heads", h / 2,
              "b_Q", S(rand (1, 2*h)), "b_K", S(rand (1, h)), "b_V", S(rand (1, h)),
              "b_O", S(rand (1, d)), "rope_base", 10000);
  Bc = rmfield (B, "rope_base");
  Bc.W_K = S(rand (d_src, h));
  Bc.W_V = S(rand (d_src, h));
  X = S(rand (n, d, Bt));  E = S(rand (m, d_src, Bt));
  for f = {"attn_self", "attn_masked"}
    [Y, T] = feval (f{1}, X, B, rand (n, Bt) > 0.3);
    G = attn_backward (S(rand (size (Y))), T, B);
    [Y, L] = feval (f{1}, X, B, [], "lean");
    [Yc, C] = feval (f{1}, S(rand (2, d, Bt)), B, [], "lean", L);
    ok = finite (Y, T.A, G.dX, G.b_Q, G.b_O, Yc, C.K) && isa (G.dX, "single");
    npass += ok;
    nfail += ! ok;
  endfor
  [Y, T] = attn_cross (X, E, Bc, rand (m, Bt) > 0.3);
  G = attn_backward (S(rand (size (Y))), T, Bc);
  Yc = attn_cross (X, E(1:0,:,:), Bc, [], "lean", T);
  ok = finite (Y, T.A, G.dD, G.dE, G.b_K, Yc) && isa (Yc, "single");
  npass += ok;
  nfail += ! ok;
endfor
for c = {[3 4 2 5 2 3], [130 130 4 3]}
  q = c{1};
  Q = S(rand ([q(1) q(3) q(5:end)]));  K = S(rand ([q(2) q(3) q(5:end)]));
  V = S(rand ([q(2) q(4) q(5:end)]));
  [M, A, Sc] = attn_sdpa (Q, K, V, "causal");
  [dQ, dK, dV] = attn_sdpa_backward (S(rand (size (M))), Q, K, V, A);
  ok = finite (M, A, dQ, dK, dV) && isa (dV, "single");
  npass += ok;
  nfail += ! ok;
endfor
X = S(rand (4, 5, 3));  W = S(rand (5, 6));
Y = attn_rows (X, W, S(rand (1, 6)));
[dX, dW, db] = attn_rows_backward (S(rand (4, 6, 3)), X, W);
[Yn, mu, sg, xh] = attn_layernorm (X, S(rand (1, 5)), S(rand (1, 5)), 1e-5);
[dXn, dg, dbn] = attn_layernorm_backward (S(rand (4, 5, 3)), xh, sg, S(rand (1, 5)));
M0 = struct ("a", struct ("W", S(rand (3, 4)), "heads", 2), "b", S(rand (1, 5)));
G0 = struct ("a", struct ("W", S(rand (3, 4))), "b", S(rand (1, 5)));
M1 = attn_step (M0, G0, 0.1);
[M2, mo, ve] = attn_step (M0, G0, 0.1, [], [], 0.9, 0.999, 1e-8, 1);
[M2, mo, ve] = attn_step (M2, G0, 0.1, mo, ve, 0.9, 0.999, 1e-8, 2);
ok = finite (Y, dX, dW, db, Yn, dXn, dg, dbn, M1.a.W, M2.b, mo, ve) && isa (ve, "single");
n = 1024;  d = 16;
B = struct ("W_Q", S(rand (d, d) / d), "W_K", S(rand (d, d) / d),
            "W_V", S(rand (d, d) / d), "W_O", S(rand (d, d) / d), "heads", 4);
[Y, T] = attn_masked (S(rand (n, d)), B);
G = attn_backward (S(rand (n, d)), T, B);
[M, A] = attn_sdpa (S(rand (2048, 4)), S(rand (2048, 4)), S(rand (2048, 4)));
ok = ok && finite (Y, T.A, G.dX, M, A) && isa (A, "single");
try
  attn_masked (rand (n, d), B);
  ok = false;
catch err
  ok = ok && strcmp (err.identifier, "attention:type");
end_try_catch
npass += ok;
nfail += ! ok;
printf ("%d of %d kernel calls finite\n", npass, npass + nfail);

## the kernels' edge cases, the fused optimiser step's and the row-wise
## maps' own tests
for f = {fullfile("tests", "test_edge_cases.m"), fullfile("src", "attn_step.m"), ...
         fullfile("src", "attn_rows.m"), fullfile("src", "attn_rows_backward.m"), ...
         fullfile("src", "attn_layernorm.m"), fullfile("src", "attn_layernorm_backward.m")}
  [n, nmax] = test (fullfile (root, f{1}), "quiet", stdout);
  printf ("%d of %d tests in %s\n", n, nmax, f{1});
  npass += n;
  nfail += nmax - n;
endfor

r = fuzz_gateways (ncases, 3);
printf ("%d of %d fuzz cases (%d normal returns)\n", r.ncases - r.nfail,
        r.ncases, sum (r.counts(strcmp (r.ids, "ok"))));
npass += r.ncases - r.nfail;
nfail += r.nfail;

## the grading channel's codec: grade_value's own tests (from its folder:
## it is private), then mutated encodings, 10 for each gateway case
here = pwd ();
cd (fullfile (root, "inst", "private"));
for f = {"grade_value.m", "check_model.m", "softmax_rows.m", "model_loss.m"}
  [n, nmax] = test (f{1}, "quiet", stdout);
  printf ("%d of %d tests in inst/private/%s\n", n, nmax, f{1});
  npass += n;
  nfail += nmax - n;
endfor
cd (here);
r = fuzz_codec (10 * ncases, 3);
printf ("%d of %d codec fuzz cases (%d values)\n", r.ncases - r.nfail,
        r.ncases, sum (r.counts(strcmp (r.ids, "ok"))));
npass += r.ncases - r.nfail;
nfail += r.nfail;

printf ("%d passed, %d failed\n", npass, nfail);
exit (nfail > 0);
