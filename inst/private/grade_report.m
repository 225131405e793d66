## -*- texinfo -*-
## @deftypefn {} {@var{text} =} grade_report (@var{R})
## The feedback of one graded submission (@code{attn_grade}'s result): a
## line per test with its points, under each failed test what is wrong,
## then any status, and last @samp{k of N tests, p of P points}.
## @end deftypefn

function text = grade_report (R)
  [~, g, e] = fileparts (R.grader);
  text = sprintf ("Grading %s with %s%s\n", merge (isempty (R.submission), "the path",
                                                 R.submission), g, e);
  if (! isempty (R.missing))
    text = [text, sprintf("missing: %s\n", strjoin (R.missing, ", "))];
  endif
  if (isfield (R, "note") && ! isempty (R.note))
    text = [text, sprintf("note: %s\n", R.note)];
  endif
  w = max ([20, cellfun(@numel, {R.tests.name})]);
  for k = 1:numel (R.tests)
    t = R.tests(k);
    text = [text, sprintf("  %-4s %2d  %-*s  %g of %g points\n", merge (t.passed, "ok", "FAIL"),
                          k, w, t.name, t.score, t.points)];
    if (! t.passed)
      text = [text, "           ", strrep(t.message, "\n", "\n           "), "\n"];
    endif
  endfor
  if (isfield (R, "status") && ! strcmp (R.status, "ok"))
    text = [text, sprintf("status: %s\n", R.status)];
  endif
  text = [text, sprintf("%d of %d tests, %g of %g points\n", R.passed, R.total, R.score,
                        R.points)];
endfunction
