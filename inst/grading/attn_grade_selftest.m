## -*- texinfo -*-
## @deftypefn  {} {} attn_grade_selftest (@var{assignment})
## @deftypefnx {} {[@var{ok}, @var{rows}] =} attn_grade_selftest (@var{assignment})
## Check an attention assignment's grader on its solution.  The solution
## gets full marks, every planted mistake loses marks, the starter gets
## none.
##
## @var{assignment} is an assignment folder of the instructor material
## (e.g. @file{doc/assignments/softmax}): a grader @file{grade_*.m},
## @file{solution/}, @file{starter/} and @file{mistakes.txt}, the table of
## planted mistakes, each a few lines of the solution replaced (its format:
## the comment at the top of each table).  Each variant is graded with
## @code{attn_grade}.
##
## Without outputs a table is printed: each variant, its points, the tests
## it fails, and @samp{ok} or @samp{FAIL} (a mistake with full marks, or a
## solution without).  @var{ok} is true when all is as expected; @var{rows}
## is a struct array with @code{variant} (@qcode{"solution"},
## @qcode{"starter"} or @qcode{"wrong/@var{name}"}), @code{description},
## @code{score}, @code{points}, @code{failed} (test numbers), @code{ok}
## and @code{report} (the result of @code{attn_grade}).
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
  if (numel (graders) != 1 || ! isfolder (fullfile (assignment, "solution"))
      || ! exist (fullfile (assignment, "mistakes.txt"), "file"))
    error ("attention:file",
           "attn_grade_selftest: %s: expected one grade_*.m, a solution/ folder and mistakes.txt",
           assignment);
  endif
  mistakes = grade_mistakes ("read", fullfile (assignment, "mistakes.txt"));
  variants = [{"solution"; "starter"}; strcat("wrong/", {mistakes.name}')];
  rows = struct ("variant", variants, "description", [{""; ""}; {mistakes.description}'],
                 "score", 0, "points", 0, "failed", [], "ok", false, "report", []);
  tmp = tempname ();
  unwind_protect
    ## one copy of the package for the workers of every variant
    [~, ~, ~, forbidden] = grade_format ("parse", graders{1});
    package = fullfile (tmp, "package");
    grade_sandbox ("package", package, forbidden);
    for i = 1:numel (variants)
      dir = fullfile (tmp, sprintf ("%d", i));
      mkdir (dir);
      copy_all (fullfile (assignment, merge (i == 2, "starter", "solution")), dir);
      if (i > 2)
        grade_mistakes ("apply", mistakes(i-2), dir);
      endif
      R = attn_grade (graders{1}, dir, "quiet", true, "package", package);
      rows(i).score = R.score;
      rows(i).points = R.points;
      rows(i).failed = find (! [R.tests.passed]);
      rows(i).report = R;
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
