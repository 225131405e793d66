## Benchmark of the grading channel's codec (inst/private/grade_value):
## encode + decode of (a) a 6-node call value {nonce, name, nout, args},
## (b) a struct of 100 small matrix fields, (c) a 1000×1000 double.
## Prints the median over runs of the mean time per encode+decode, as
## wall-clock time and as the process's CPU time (cputime: what the calls
## cost when other processes share the cores).  Run by `make bench` (from
## any folder: grade_value is private, so the timing runs from
## inst/private).

1;   # a script, with a helper function below

## Median over `runs` of the mean wall-clock and CPU time per call of f ()
## over `reps` calls.
function [t, c] = time_per_call (f, reps, runs)
  t = c = zeros (runs, 1);
  for r = 1:runs
    c0 = cputime ();
    t0 = tic ();
    for k = 1:reps
      f ();
    endfor
    t(r) = toc (t0) / reps;
    c(r) = (cputime () - c0) / reps;
  endfor
  t = median (t);
  c = median (c);
endfunction

here = pwd ();
cd (fullfile (fileparts (mfilename ("fullpath")), "..", "..", "inst", "private"));
unwind_protect
  round_trip = @(v) grade_value ("decode", grade_value ("encode", v));
  s = struct ();
  for k = 1:100
    s.(sprintf ("w%d", k)) = rand (4, 3);
  endfor
  call = {"0123456789abcdef0123456789abcdef", "my_twice", 1, {3}};
  cases = {"(a) call value, 6 nodes", call, 2000
           "(b) struct, 100 4x3 fields", s, 100
           "(c) 1000x1000 double", rand(1000), 5};
  for i = 1:rows (cases)
    v = cases{i, 2};
    assert (isequal (round_trip (v), v));
    reps = cases{i, 3};
    [t, c] = time_per_call (@() round_trip (v), reps, 5);
    printf ("%-28s %9.4f ms wall, %9.4f ms CPU per encode+decode\n",
            cases{i, 1}, 1e3 * t, 1e3 * c);
  endfor
unwind_protect_cleanup
  cd (here);
end_unwind_protect
