## -*- texinfo -*-
## @deftypefn  {} {@var{growth} =} leakcheck_large ()
## @deftypefnx {} {@var{growth} =} leakcheck_large (@var{ncalls})
## Call attn_masked with a trace and attn_backward @var{ncalls} times each
## (default 40) where scores and A are 32 MiB each: results that large are
## arrays Octave makes and the gateway fills in place.  Every fourth
## forward call overflows (attention:overflow, raised after its results
## were made), so the error path must free them too.  Prints VmRSS and
## returns @var{growth} in MiB: the least of its increases over the last
## three quarters of the calls, each quarter by itself.  One leaked result
## would add 32 MiB per call, so every quarter would grow by more than
## that; a one-off rise of the process (30 MiB in one quarter, seen once in
## CI and once in eleven runs here: memory made once, or pages the kernel
## gathers into the huge pages the gateway advises) shows in one quarter
## at most.
##
## @example
## growth = leakcheck_large (8);
## @end example
## @end deftypefn

function growth = leakcheck_large (ncalls = 40)
  n = 1024;  d = 16;  h = 4;
  B = struct ("W_Q", rand (d, d) / d, "W_K", rand (d, d) / d,
              "W_V", rand (d, d) / d, "W_O", rand (d, d) / d, "heads", h);
  X = rand (n, d);
  X_huge = X * 1e200;                  # scores overflow the double range
  dY = rand (n, d);
  quarter = max (1, floor (ncalls / 4));
  marks = [quarter, 2 * quarter, 3 * quarter, ncalls];
  rss = zeros (size (marks));
  nerr = 0;
  tic ();
  for r = 1:ncalls
    [Y, T] = attn_masked (X, B);
    G = attn_backward (dY, T, B);
    if (mod (r, 4) == 0)
      try
        [Y, T2] = attn_masked (X_huge, B);
      catch err
        nerr += strcmp (err.identifier, "attention:overflow");
      end_try_catch
    endif
    rss(marks == r) = proc_status_mb ("VmRSS");
  endfor
  growth = min (diff (rss));
  printf ("%d forward+backward calls with 32 MiB results, %d overflow errors, %.1f s\n",
          ncalls, nerr, toc ());
  printf ("VmRSS after calls %s: %s MiB; least growth of a quarter %.1f MiB\n",
          mat2str (marks), mat2str (rss, 5), growth);
  if (nerr != floor (ncalls / 4))
    error ("leakcheck_large: %d of %d overflowing calls raised attention:overflow",
           nerr, floor (ncalls / 4));
  endif
endfunction
