## -*- texinfo -*-
## @deftypefn {} {@var{text} =} grade_json (@var{R}, @var{seconds})
## A graded submission as a Gradescope @file{results.json}: @code{score},
## @code{execution_time}, @code{output} (the status) and @code{tests}, each
## with @code{name}, @code{score}, @code{max_score} and @code{output} (what
## is wrong).  Numbers are printed here, not by @code{jsonencode} (which
## writes small numbers as 0).
## @end deftypefn

function text = grade_json (R, seconds)
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
  x = valid_utf8 (x);
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

function x = valid_utf8 (x)
  try
    native2unicode (uint8 (x), "utf-8");
  catch
    x(double (x) > 127) = "?";
  end_try_catch
endfunction

%!test
%! R = struct ("tests", struct ("name", {"rows \"sum\"", "large"}, "score", {1, 0},
%!                              "points", {1, 2}, "message", {"", sprintf("A (2×2): wrong\n\tx")}),
%!             "passed", 1, "total", 2, "score", 1, "points", 3, "status", "timed out in test 2");
%! j = jsondecode (grade_json (R, 0.25));
%! assert (j.score, 1);
%! assert (j.execution_time, 0.25);
%! assert ({j.tests.name}, {"rows \"sum\"", "large"});
%! assert ([j.tests.max_score], [1 2]);
%! assert (j.tests(2).output, sprintf ("A (2×2): wrong\n\tx"));
%! assert (j.output, "1 of 2 tests, 1 of 3 points; status: timed out in test 2");
