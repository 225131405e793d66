## -*- texinfo -*-
## @deftypefn {} {@var{nfail} =} run_fuzz (@var{ncases}, @var{seeds})
## @deftypefnx {} {@var{nfail} =} run_fuzz (@var{ncases}, @var{seeds}, @var{model_cases})
## Run @code{fuzz_gateways} for @var{ncases} cases with each seed in
## @var{seeds}, print each report and the totals by outcome; then
## @code{fuzz_codec} for @var{ncases} cases with each seed; then, with
## @var{model_cases} > 0, @code{fuzz_models} for that many cases with each
## seed, printing its outcome table (function × outcome).  Returns the
## number of failures of both (@code{make fuzz}, @code{make soak}).
##
## @example
## nfail = run_fuzz (1000, 1:2, 500);
## @end example
## @end deftypefn

function nfail = run_fuzz (ncases, seeds, model_cases = 0)
  ids = {};
  counts = [];
  nfail = 0;
  for seed = seeds
    printf ("== fuzz_gateways (%d, %d)\n", ncases, seed);
    r = fuzz_gateways (ncases, seed, "print");
    fflush (stdout);
    for k = 1:numel (r.ids)
      i = find (strcmp (ids, r.ids{k}));
      if (isempty (i))
        ids{end+1} = r.ids{k};
        counts(end+1) = 0;
        i = numel (ids);
      endif
      counts(i) += r.counts(k);
    endfor
    nfail += r.nfail;
  endfor
  [ids, order] = sort (ids);
  printf ("== %d cases in all (seeds %s)\n", ncases * numel (seeds),
          mat2str (seeds));
  printf ("  %-24s %9d\n", [ids; num2cell(counts(order))]{:});
  printf ("%d failures\n", nfail);
  for seed = seeds
    printf ("== fuzz_codec (%d, %d): the grading channel's decoder\n", ncases, seed);
    r = fuzz_codec (ncases, seed, "print");
    fflush (stdout);
    nfail += r.nfail;
  endfor
  if (model_cases > 0)
    for seed = seeds
      printf ("== fuzz_models (%d, %d): outcomes by function\n", model_cases, seed);
      t = tic ();
      r = fuzz_models (model_cases, seed, "print");
      printf ("(%.0f s)\n", toc (t));
      fflush (stdout);
      nfail += r.nfail;
    endfor
  endif
endfunction
