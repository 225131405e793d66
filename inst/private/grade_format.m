## -*- texinfo -*-
## @deftypefn  {} {[@var{tests}, @var{functions}, @var{files}, @var{forbidden}] =} grade_format ("parse", @var{grader})
## @deftypefnx {} {@var{text} =} grade_format ("feedback", @var{R})
## @deftypefnx {} {@var{text} =} grade_format ("json", @var{R}, @var{seconds})
## The texts of grading: the grader file read, and the reports of a graded
## submission @var{R} (@code{attn_grade}'s result) written.
##
## @qcode{"parse"}: the tests of a grader file, without running anything.
## @var{tests}: struct array with @code{name}, @code{points} and
## @code{code} (the body of each @code{%!test} block, in file order).  The
## name is the first line of the comment block right above the
## @code{%!test} line (default @qcode{"test K"}); @samp{(N points)} or
## @samp{(1 point)} in that comment sets the points (default 1).
## @var{functions}: cellstr, the text of each @code{%!function} block.
## @var{files}: the files the student hands in, from a header line
## @samp{## Submission: a.m, b.m} (empty when there is none); each must be
## the file of a function (a name followed by @file{.m}).
## @var{forbidden}: the package functions the submission may not call,
## from header lines @samp{## Forbidden: attn_softmax, attn_sdpa} (a
## header may be given on several lines).
## Any other kind of block is an @code{attention:grader} error.
##
## @qcode{"feedback"}: the text for the student: a line per test with its
## points, under each failed test what is wrong, then any status, and last
## @samp{k of N tests, p of P points}.
##
## @qcode{"json"}: a Gradescope @file{results.json} of the grading that
## took @var{seconds}: @code{score}, @code{execution_time}, @code{output}
## (the status) and @code{tests}, each with @code{name}, @code{score},
## @code{max_score} and @code{output} (what is wrong).  Numbers are
## printed here, not by @code{jsonencode} (which writes small numbers as
## 0).
## @end deftypefn

function varargout = grade_format (action, varargin)
  switch (action)
    case "parse"
      [varargout{1:max (1, nargout)}] = parse_grader (varargin{:});
    case "feedback"
      varargout{1} = feedback (varargin{:});
    case "json"
      varargout{1} = results_json (varargin{:});
  endswitch
endfunction

function [tests, functions, files, forbidden] = parse_grader (grader)
  text = fileread (grader);
  lines = strsplit (strrep (text, "\r", ""), "\n");
  tests = struct ("name", {}, "points", {}, "code", {});
  functions = {};
  files = {};
  files = header_list (text, "Submission");
  bad = files(cellfun (@isempty, regexp (files, '^[A-Za-z]\w{0,62}\.m$', "once")));
  if (! isempty (bad))
    error ("attention:grader", "attn_grade: %s: the submission's files must be function files (name.m), got %s",
           grader, bad{1});
  endif
  forbidden = header_list (text, "Forbidden");
  comment = {};
  i = 1;
  while (i <= numel (lines))
    line = lines{i};
    kw = regexp (line, '^%!(\w+)', "tokens", "once");
    if (isempty (kw))
      if (strncmp (line, "%!", 2))
        error ("attention:grader", "attn_grade: %s line %d: code outside a block", grader, i);
      elseif (! isempty (regexp (line, '^\s*[#%]', "once")))
        comment{end+1} = regexprep (line, '^\s*[#%]+\s?', "");
      else
        comment = {};
      endif
      i += 1;
      continue;
    endif
    ## the block: its first line and every following "%!" line that does
    ## not start a block of its own
    first = i;
    i += 1;
    while (i <= numel (lines) && strncmp (lines{i}, "%!", 2)
           && isempty (regexp (lines{i}, '^%!(test|function|shared|error|warning|assert|fail|xtest|testif|demo)\>', "once")))
      i += 1;
    endwhile
    body = cellfun (@(s) s(3:end), lines(first:i-1), "uniformoutput", false);
    switch (kw{1})
      case "test"
        body{1} = body{1}(5:end);
        tests(end+1) = test_entry (comment, body, numel (tests) + 1, grader, first);
      case "function"
        if (! strcmp (strtrim (body{end}), "endfunction"))
          error ("attention:grader", "attn_grade: %s line %d: %%!function without %%!endfunction",
                 grader, first);
        endif
        functions{end+1} = strjoin (body, "\n");
      otherwise
        error ("attention:grader",
               "attn_grade: %s line %d: %%!%s blocks are not graded (use %%!test and %%!function)",
               grader, first, kw{1});
    endswitch
    comment = {};
  endwhile
  if (isempty (tests))
    error ("attention:grader", "attn_grade: %s has no %%!test block", grader);
  endif
endfunction

## The names of the header lines "## WHAT: a, b c" (commas or spaces).
function names = header_list (text, what)
  names = {};
  for header = regexp (text, ['(?m)^\s*##\s*', what, ':\s*(.*?)\s*$'], "tokens")
    names = [names, strtrim(strsplit (header{1}{1}, {",", " "}))];
  endfor
  names(cellfun (@isempty, names)) = [];
endfunction

function t = test_entry (comment, body, k, grader, line)
  t.name = sprintf ("test %d", k);
  t.points = 1;
  if (! isempty (comment))
    all_text = strjoin (comment, " ");
    p = regexp (all_text, '\((\d+(\.\d+)?) points?\)', "tokens", "once");
    if (! isempty (p))
      t.points = str2double (p{1});
    endif
    name = strtrim (regexprep (comment{1}, '\s*\(\d+(\.\d+)? points?\)', ""));
    if (! isempty (name))
      t.name = name;
    endif
  endif
  if (! (t.points > 0))
    error ("attention:grader", "attn_grade: %s line %d: a test needs more than 0 points",
           grader, line);
  endif
  t.code = strjoin (body, "\n");
endfunction

function text = feedback (R)
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
%! f = [tempname(), ".m"];
%! fid = fopen (f, "w");
%! fprintf (fid, "## Submission: my_a.m, my_b.m\n\n%%!function y = helper (x)\n%%!  y = 2 * x;\n%%!endfunction\n\n");
%! fprintf (fid, "## rows sum to one (2 points)\n## more words\n%%!test\n%%! assert (helper (1), 2);\n\n");
%! fprintf (fid, "%%!test\n%%! x = 1;\n%%! assert (x, 1);\n");
%! fclose (fid);
%! unwind_protect
%!   [t, fn, files] = grade_format ("parse", f);
%!   assert ({t.name}, {"rows sum to one", "test 2"});
%!   assert ([t.points], [2 1]);
%!   assert (t(2).code, "\n x = 1;\n assert (x, 1);");
%!   assert (numel (fn), 1);
%!   assert (strncmp (fn{1}, "function y = helper (x)", 23));
%!   assert (files, {"my_a.m", "my_b.m"});
%! unwind_protect_cleanup
%!   delete (f);
%! end_unwind_protect

%!test
%! f = [tempname(), ".m"];
%! fid = fopen (f, "w");
%! fprintf (fid, "%%!shared x\n%%! x = 1;\n%%!test\n%%! assert (x, 1);\n");
%! fclose (fid);
%! unwind_protect
%!   try
%!     grade_format ("parse", f);
%!     error ("not reached");
%!   catch err
%!     assert (err.identifier, "attention:grader");
%!     assert (! isempty (strfind (err.message, "%!shared blocks are not graded")));
%!   end_try_catch
%! unwind_protect_cleanup
%!   delete (f);
%! end_unwind_protect

%!test
%! R = struct ("tests", struct ("name", {"rows \"sum\"", "large"}, "score", {1, 0},
%!                              "points", {1, 2}, "message", {"", sprintf("A (2×2): wrong\n\tx")}),
%!             "passed", 1, "total", 2, "score", 1, "points", 3, "status", "timed out in test 2");
%! j = jsondecode (grade_format ("json", R, 0.25));
%! assert (j.score, 1);
%! assert (j.execution_time, 0.25);
%! assert ({j.tests.name}, {"rows \"sum\"", "large"});
%! assert ([j.tests.max_score], [1 2]);
%! assert (j.tests(2).output, sprintf ("A (2×2): wrong\n\tx"));
%! assert (j.output, "1 of 2 tests, 1 of 3 points; status: timed out in test 2");
%! ## text that is not UTF-8 (a submission's bytes) is written as "?"
%! R.tests(1).message = "caf\xC3\xA9 \xFF";
%! j = jsondecode (grade_format ("json", R, 0));
%! assert (j.tests(1).output, "caf?? ?");
%! R.tests(1).message = "caf\xC3\xA9";
%! assert (jsondecode (grade_format ("json", R, 0)).tests(1).output, "caf\xC3\xA9");
