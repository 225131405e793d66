## -*- texinfo -*-
## @deftypefn  {} {[@var{growth}, @var{rss}] =} leakcheck ()
## @deftypefnx {} {[@var{growth}, @var{rss}] =} leakcheck (@var{ncalls})
## Call the MEX kernels @var{ncalls} times (default 1e6) on small inputs and
## watch the resident memory (VmRSS) of this Octave process.
##
## Each round makes ten calls: attn_sdpa with and without a mask and with
## all outputs, attn_sdpa_backward, attn_self, attn_masked and attn_cross
## with traces, attn_backward of a self and of a cross trace, and one call
## that raises an attention:* error (a different bad input each round, so
## the error paths of the gateways are covered too).  VmRSS is read after
## a warm-up of 1% of the calls and then after every tenth of the rest.
## Prints the table and returns @var{growth}, the VmRSS increase in MiB
## from the end of the warm-up to the end, and @var{rss} (MiB, one entry
## per reading).  A leak of 8 bytes per call would show as about 8 MiB per
## million calls.
##
## No input is a range (such as 1:4): Octave 7.3 itself leaks a few bytes
## per range passed to any MEX function (see tests/valgrind/octave.supp).
##
## @example
## growth = leakcheck (1e4);
## @end example
## @end deftypefn

function [growth, rss] = leakcheck (ncalls = 1e6)
  Q = rand (4, 3);  K = rand (5, 3);  V = rand (5, 2);
  allow = rand (4, 5) > 0.3;
  X = rand (4, 3);  D = rand (3, 3);  E = rand (5, 2);
  B = struct ("W_Q", rand (3, 4), "W_K", rand (3, 4), "W_V", rand (3, 2),
              "W_O", rand (2, 3), "heads", 2);
  Bc = struct ("W_Q", rand (3, 4), "W_K", rand (2, 4), "W_V", rand (2, 2),
               "W_O", rand (2, 3), "heads", 2);
  [M, A] = attn_sdpa (Q, K, V);
  dM = rand (size (M));
  [~, T] = attn_self (X, B);
  [~, Tc] = attn_cross (D, E, Bc);
  dY = rand (4, 3);  dYc = rand (3, 3);
  bad = {{single(Q), K, V}, {Q, K, V, "causl"}, {Q, K, [V; V]}, ...
         {Q, K, V, true(2)}, {Q, [K(1:4,:); NaN 1 1], V}};
  badB = rmfield (B, "heads");

  rounds = max (1, round (ncalls / 10));
  warm = max (1, round (rounds / 100));
  marks = unique (round (warm + (0:10) * (rounds - warm) / 10));
  rss = zeros (1, numel (marks));
  nerr = 0;
  k = 1;
  tic ();
  for r = 1:rounds
    [M, A, S] = attn_sdpa (Q, K, V);
    M = attn_sdpa (Q, K, V, allow);
    M = attn_sdpa (Q, K, V, "causal");
    [dQ, dK, dV] = attn_sdpa_backward (dM, Q, K, V, A);
    [Y, T] = attn_self (X, B);
    [Y, T2] = attn_masked (X, B);
    [Y, Tc] = attn_cross (D, E, Bc);
    G = attn_backward (dY, T, B);
    G = attn_backward (dYc, Tc, Bc);
    try
      j = mod (r, 6);
      if (j == 0)
        attn_self (X, badB);
      else
        attn_sdpa (bad{j}{:});
      endif
    catch err
      nerr += strncmp (err.identifier, "attention:", 10);
    end_try_catch
    if (k <= numel (marks) && r == marks(k))
      rss(k) = proc_status_mb ("VmRSS");
      k += 1;
    endif
  endfor
  t = toc ();
  growth = rss(end) - rss(1);
  printf ("%d calls (%d rounds of 10, %d attention:* errors) in %.1f s\n",
          10 * rounds, rounds, nerr, t);
  printf ("VmRSS after round:\n");
  printf ("  %8d  %8.2f MiB\n", [marks; rss]);
  printf ("VmRSS growth after warm-up: %.3f MiB (%.2f bytes per call)\n",
          growth, growth * 2^20 / (10 * (rounds - warm)));
  if (nerr != rounds)
    error ("leakcheck: %d of %d bad calls raised attention:* errors",
           nerr, rounds);
  endif
endfunction
