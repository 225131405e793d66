## -*- texinfo -*-
## @deftypefn  {} {@var{peak} =} longseq ()
## @deftypefnx {} {@var{peak} =} longseq (@var{n}, @var{h})
## A long sequence through the MEX kernels: n = m = 4096 tokens (default),
## h = 8 heads of width 8 (d = 64), batch 1.
##
## Runs attn_self and attn_masked forward with their traces (scores and
## A are n×n×h each: 1 GiB apiece at the default size) and attn_backward of
## each, then checks that every weight row sums to 1, that the causal
## weights above the diagonal are 0, that everything is finite, and that
## three rows of one head match a plain Octave softmax of Q_j*K_j'/sqrt(dk).
## Prints the time and the peak resident memory (VmHWM) after each step and
## returns the final peak in MiB; raises an error when a check fails.
##
## @example
## peak = longseq (512, 8);
## @end example
## @end deftypefn

function peak = longseq (n = 4096, h = 8)
  dk = 8;
  d = h * dk;
  rand ("twister", 42);
  X = rand (n, d) - 0.5;
  B = struct ("W_Q", (rand (d, d) - 0.5) / 4, "W_K", (rand (d, d) - 0.5) / 4,
              "W_V", rand (d, d) - 0.5, "W_O", rand (d, d) - 0.5, "heads", h);
  dY = rand (n, d) - 0.5;
  printf ("n = m = %d, d = %d, h = %d heads of width %d\n", n, d, h, dk);
  report ("start", 0);
  for kind = {"self", "masked"}
    f = ["attn_" kind{1}];
    tic ();
    [Y, T] = feval (f, X, B);
    report ([f " forward (with trace)"], toc ());
    check_trace (T, X, B, strcmp (kind{1}, "masked"));
    tic ();
    G = attn_backward (dY, T, B);
    report ("attn_backward", toc ());
    if (! all (isfinite ([Y(:); G.dX(:); G.W_Q(:); G.W_K(:); G.W_V(:);
                          G.W_O(:)])))
      error ("longseq: %s: non-finite output or gradient", f);
    endif
    clear T G Y;
  endfor
  peak = proc_status_mb ("VmHWM");
  printf ("peak resident memory (VmHWM): %.0f MiB\n", peak);
endfunction

function report (what, t)
  printf ("  %-32s %7.2f s   VmRSS %6.0f MiB   VmHWM %6.0f MiB\n", what, t,
          proc_status_mb ("VmRSS"), proc_status_mb ("VmHWM"));
  fflush (stdout);
endfunction

function check_trace (T, X, B, causal)
  [n, m, h] = size (T.A);
  rowsum = sum (T.A, 2);
  if (max (abs (rowsum(:) - 1)) > 1e-12)
    error ("longseq: weight rows do not sum to 1 (worst %g)",
           max (abs (rowsum(:) - 1)));
  endif
  if (causal && any (any (any (triu (ones (n, m), 1) & T.A(:,:,1) != 0))))
    error ("longseq: causal weights above the diagonal");
  endif
  ## three rows of the last head from plain Octave
  dk = columns (B.W_Q) / h;
  cols = (h-1)*dk + (1:dk);
  Q = X * B.W_Q(:, cols);
  K = X * B.W_K(:, cols);
  for i = [1, round(n/2), n]
    s = Q(i,:) * K' / sqrt (dk);
    if (causal)
      s(i+1:end) = -Inf;
    endif
    a = exp (s - max (s));
    a /= sum (a);
    if (max (abs (a - T.A(i,:,h))) > 1e-12)
      error ("longseq: row %d of head %d differs from plain Octave", i, h);
    endif
  endfor
endfunction
