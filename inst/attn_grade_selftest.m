## -*- texinfo -*-
## @deftypefn  {} {} attn_grade_selftest (@var{assignment})
## @deftypefnx {} {[@var{ok}, @var{rows}] =} attn_grade_selftest (@var{assignment})
## Test an assignment's grader: the solution gets full marks, every
## planted wrong solution loses marks, the starter gets none.
##
## @var{assignment} is an assignment folder of the instructor material
## (e.g. @file{doc/assignments/softmax}): a grader @file{grade_*.m},
## @file{solution/}, @file{starter/} and @file{wrong/@var{mistake}/}, one
## folder per planted mistake.  A wrong folder holds only the files that
## differ from the solution; the rest is taken from @file{solution/}.
## Each one is graded with @code{attn_grade} in this process.
##
## Without outputs a table is printed: each variant, its points, the tests
## it fails, and @samp{ok} or @samp{FAIL} (a wrong solution with full
## marks, or a solution without).  @var{ok} is true when all is as
## expected; @var{rows} is a struct array with @code{variant},
## @code{score}, @code{points}, @code{failed} (test numbers) and @code{ok}.
## @seealso{attn_grade, attn_grade_class}
## @end deftypefn

function [ok, rows] = attn_grade_selftest (assignment)
  if (nargin != 1)
    print_usage ();
  endif
  if (! (ischar (assignment) && isfolder (assignment)))
    error ("attention:file", "attn_grade_selftest: ASSIGNMENT: expected a folder, got %s",
           disp_arg (assignment));
  endif
  graders = glob (fullfile (assignment, "grade_*.m"));
  if (numel (graders) != 1 || ! isfolder (fullfile (assignment, "solution")))
    error ("attention:file", "attn_grade_selftest: %s: expected one grade_*.m and a solution/ folder",
           assignment);
  endif
  wrong = glob (fullfile (assignment, "wrong", "*"));
  wrong = wrong(cellfun (@isfolder, wrong));
  variants = [{"solution"; "starter"}; strcat("wrong/", cellfun (@(w) nthargout (2, @fileparts, w),
                                                                 wrong, "uniformoutput", false))];
  rows = struct ("variant", variants, "score", 0, "points", 0, "failed", [], "ok", false);
  tmp = tempname ();
  unwind_protect
    for i = 1:numel (variants)
      dir = fullfile (tmp, sprintf ("%d", i));
      mkdir (dir);
      copy_all (fullfile (assignment, "solution"), dir);
      if (i > 1)
        copy_all (fullfile (assignment, variants{i}), dir);
      endif
      R = attn_grade (graders{1}, dir, "quiet", true);
      rows(i).score = R.score;
      rows(i).points = R.points;
      rows(i).failed = find (! [R.tests.passed]);
      switch (i)
        case 1
          rows(i).ok = R.score == R.points;
        case 2
          rows(i).ok = R.score == 0;
        otherwise
          rows(i).ok = R.score < R.points;
      endswitch
    endfor
  unwind_protect_cleanup
    confirm_recursive_rmdir (false, "local");
    [~] = rmdir (tmp, "s");
  end_unwind_protect
  ok = all ([rows.ok]);
  if (nargout == 0)
    printf ("%s\n", graders{1});
    for r = rows'
      printf ("  %-4s  %-28s %5g of %g points  failed: %s\n", merge (r.ok, "ok", "FAIL"),
              r.variant, r.score, r.points, num2str (r.failed));
    endfor
    clear ok;
  endif
endfunction

function copy_all (from, to)
  for f = glob (fullfile (from, "*"))'
    copyfile (f{1}, to);
  endfor
endfunction

%!error id=attention:file attn_grade_selftest ("/no/such/folder")
%!error id=attention:file attn_grade_selftest (tempdir ())
