## -*- texinfo -*-
## @deftypefn  {} {@var{text} =} grade_report (@var{R})
## @deftypefnx {} {@var{text} =} grade_report (@var{R}, "json", @var{seconds})
## The report of one graded submission (@code{attn_grade}'s result).
##
## The feedback for the student: a line per test with its points, under
## each failed test what is wrong, then any status, and last @samp{k of N
## tests, p of P points}.
##
## With @qcode{"json"}: a Gradescope @file{results.json} of the grading
## that took @var{seconds}: @code{score}, @code{execution_time},
## @code{output} (the status) and @code{tests}, each with @code{name},
## @code{score}, @code{max_score} and @code{output} (what is wrong).
## Numbers are printed here, not by @code{jsonencode} (which writes small
## numbers as 0).
## @end deftypefn

function text = grade_report (R, format = "text", seconds = 0)
  if (strcmp (format, "json"))
    text = results_json (R, seconds);
    return;
  endif
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

function text = results_json (R, seconds)
  items = cell (1, numel (R.tests));
  for k = 1:numel (R.tests)
    t = R.tests(k);
    items{k} = sprintf ("    {\"name\": %s, \"score\": %s, \"max_score\": %s, \"output\": %s}",
                        quote (t.name), number (t.score), number (t.points), quote (t.message));
  endfor
  status = "";
  if (isfield (R, "status"))
    status = R.status;
  endif
  text = sprintf ("{\n  \"score\": %s,\n  \"execution_time\": %s,\n  \"output\": %s,\n  \"tests\": [\n%s\n  ]\n}\n",
                  number (R.score), number (seconds),
                  quote (sprintf ("%d of %d tests, %g of %g points; status: %s", R.passed, R.total,
                                  R.score, R.points, status)),
                  strjoin (items, ",\n"));
endfunction

function s = number (x)
  s = sprintf ("%.17g", x);
endfunction

## A JSON string: quotes, backslashes and control characters escaped;
## bytes that are not valid UTF-8 replaced by "?".
function s = quote (x)
  if (! file_utf8 (x))
    x(double (x) > 127) = "?";
  endif
  s = strrep (x, "\\", "\\\\");
  s = strrep (s, "\"", "\\\"");
  s = strrep (s, "\n", "\\n");
  s = strrep (s, "\t", "\\t");
  s = strrep (s, "\r", "\\r");
  bad = find (double (s) < 32);
  for i = fliplr (bad)
    s = [s(1:i-1), sprintf("\\u%04x", double (s(i))), s(i+1:end)];
  endfor
  s = ["\"", s, "\""];
endfunction

%!test
%! R = struct ("tests", struct ("name", {"rows \"sum\"", "large"}, "score", {1, 0},
%!                              "points", {1, 2}, "message", {"", sprintf("A (2×2): wrong\n\tx")}),
%!             "passed", 1, "total", 2, "score", 1, "points", 3, "status", "timed out in test 2");
%! j = jsondecode (grade_report (R, "json", 0.25));
%! assert (j.score, 1);
%! assert (j.execution_time, 0.25);
%! assert ({j.tests.name}, {"rows \"sum\"", "large"});
%! assert ([j.tests.max_score], [1 2]);
%! assert (j.tests(2).output, sprintf ("A (2×2): wrong\n\tx"));
%! assert (j.output, "1 of 2 tests, 1 of 3 points; status: timed out in test 2");
%! ## text that is not UTF-8 (a submission's bytes) is written as "?"
%! R.tests(1).message = "caf\xC3\xA9 \xFF";
%! j = jsondecode (grade_report (R, "json", 0));
%! assert (j.tests(1).output, "caf?? ?");
%! R.tests(1).message = "caf\xC3\xA9";
%! assert (jsondecode (grade_report (R, "json", 0)).tests(1).output, "caf\xC3\xA9");
