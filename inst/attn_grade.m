## -*- texinfo -*-
## @deftypefn  {} {} attn_grade (@var{grader}, @var{submission})
## @deftypefnx {} {@var{R} =} attn_grade (@var{grader}, @var{submission}, @var{name}, @var{value}, @dots{})
## Grade one submission: run every test of a grader file, with points.
##
## @var{grader} is a grader file (e.g.
## @file{doc/assignments/softmax/grade_softmax.m}): @code{%!function}
## helpers and @code{%!test} blocks, the same file a student can run with
## @code{test}.  Each test has a name and points, set by the comment right
## above its @code{%!test} line: its first line is the name, and
## @samp{(N points)} in it sets the points (default 1).  A header line
## @samp{## Submission: my_softmax.m, my_softmax_backward.m} names the files
## the student hands in.  @var{submission} is the folder holding them
## (added at the end of the path while grading, so that no file there
## shadows the package), or @qcode{""} to use the path as it is.
##
## Every test runs, also after one failed; a test that passes earns its
## points, one that fails earns 0 and says why: the report of
## @code{attn_compare} (the first wrong quantity in the order of the
## computation, then the others that differ), an @code{assert} message, or
## the error the student's code raised and where.  A call to @code{exit}
## or @code{quit} from the submission fails its test instead of ending
## Octave.  The report ends with the line
## @samp{@var{k} of @var{N} tests, @var{p} of @var{P} points}.
##
## Options (name, value):
## @table @code
## @item "quiet"
## true: print nothing (default false).
## @item "from"
## the first test to run (default 1; earlier tests are not in @var{R}).
## @item "progress"
## a file to which each test's result is appended as soon as it is known
## (used by @code{attn_grade_class} to survive a submission that ends its
## process).
## @end table
##
## @var{R} has @code{grader}, @code{submission}, @code{missing} (the
## header's files not found in @var{submission}), @code{note} (which of
## them Octave takes from elsewhere, e.g. a solution in the current
## folder, since the submission comes last on the path), @code{tests} (struct
## array: @code{name}, @code{points}, @code{score}, @code{passed},
## @code{message}, @code{seconds}), @code{passed}, @code{total},
## @code{score}, @code{points} and @code{text} (the report).
##
## @example
## @group
## R = attn_grade ("doc/assignments/softmax/grade_softmax.m", "my/work");
## printf ("%g of %g points\n", R.score, R.points);
## @end group
## @end example
##
## Errors: @code{attention:file} (no such grader or folder),
## @code{attention:grader} (a grader block other than @code{%!test} and
## @code{%!function}, or no test), @code{attention:option}.
## @seealso{attn_grade_class, attn_compare, attn_gradcheck}
## @end deftypefn

function R = attn_grade (grader, submission, varargin)
  if (nargin < 2)
    print_usage ();
  endif
  opts = parse_options ("attn_grade", {"quiet", false, "flag"; "from", 1, "integer [1, Inf)";
                                       "progress", "", "text"}, varargin);
  if (! (ischar (grader) && exist (grader, "file") == 2))
    error ("attention:file", "attn_grade: GRADER: expected a grader file, got %s", disp_arg (grader));
  endif
  grader = make_absolute_filename (grader);
  if (! ischar (submission) || (! isempty (submission) && ! isfolder (submission)))
    error ("attention:file", "attn_grade: SUBMISSION: expected a folder or \"\", got %s",
           disp_arg (submission));
  endif
  if (! isempty (submission))
    submission = canonicalize_file_name (submission);
  endif
  [tests, functions, files] = grade_format ("parse", grader);
  missing = {};
  if (! isempty (submission))
    missing = files(! cellfun (@(f) exist (fullfile (submission, f), "file") == 2, files));
  endif

  R = struct ("grader", grader, "submission", submission, "missing", {missing}, "note", "",
              "tests", struct ("name", {}, "points", {}, "score", {}, "passed", {},
                               "message", {}, "seconds", {}),
              "passed", 0, "total", numel (tests), "score", 0,
              "points", sum ([tests.points]), "text", "");
  saved_path = path ();
  saved_dir = pwd ();
  helpers = {};
  unwind_protect
    if (! isempty (submission))
      addpath (submission, "-end");
    endif
    for i = 1:numel (functions)
      helpers{end+1} = regexp (functions{i}, '^\s*function\s+(?:[^=\n(]*=\s*)?(\w+)', "tokens", "once"){1};
    endfor
    R.note = shadowed_files (files, submission);
    for k = opts.from:numel (tests)
      ## again before every test: a submission may have cleared them
      define (functions, helpers);
      progress (opts.progress, "start\t%d\n", k);
      [passed, message, seconds] = run_test (tests(k).code, k, submission, missing);
      cd (saved_dir);
      t = struct ("name", tests(k).name, "points", tests(k).points,
                  "score", passed * tests(k).points, "passed", passed,
                  "message", message, "seconds", seconds);
      R.tests(end+1) = t;
      progress (opts.progress, "done\t%d\t%d\t%.3f\t%s\n", k, passed, seconds,
                sprintf ("%02x", uint8 (message)));
    endfor
    progress (opts.progress, "finished\n");
  unwind_protect_cleanup
    clear ("-f", "exit", "quit", helpers{:});
    path (saved_path);
    cd (saved_dir);
  end_unwind_protect
  R.passed = sum ([R.tests.passed]);
  R.score = sum ([R.tests.score]);
  R.text = grade_format ("feedback", R);
  if (! opts.quiet)
    printf ("%s", R.text);
  endif
  if (nargout == 0)
    clear R;
  endif
endfunction

## The grader's helpers, and an exit and a quit that fail the test
## instead of ending Octave; only those not defined (so that a helper's
## persistent variables last from test to test).
function define (functions, helpers)
  for w = {"exit", "quit"}
    if (exist (w{1}) != 103)
      eval (sprintf ("function %s (varargin)\n  error ('attention:exit', 'the submission called %s');\nendfunction",
                     w{1}, w{1}));
    endif
  endfor
  for i = 1:numel (functions)
    if (exist (helpers{i}) != 103)
      eval (functions{i});
    endif
  endfor
endfunction

## Which of the files to hand in Octave finds elsewhere than in the
## submission (an earlier folder on the path, or the current folder).
function txt = shadowed_files (files, submission)
  txt = "";
  if (isempty (submission))
    return;
  endif
  for f = files(:)'
    [~, name] = fileparts (f{1});
    where = which (name);
    if (! isempty (where) && exist (fullfile (submission, f{1}), "file")
        && ! strncmp (where, submission, numel (submission)))
      txt = sprintf ("%s%s is taken from %s, not from the submission; ", txt, name, where);
    endif
  endfor
  txt = regexprep (txt, '; $', '');
endfunction

function progress (file, varargin)
  if (! isempty (file))
    fid = fopen (file, "a");
    fprintf (fid, varargin{:});
    fclose (fid);
  endif
endfunction

## Runs test K's code as its own function; a failure's message says what
## is wrong, or where the student's code stopped.
function [passed, message, seconds] = run_test (code, k, submission, missing)
  name = sprintf ("__attn_grade_test_%d__", k);
  eval (sprintf ("function %s ()\n%s\nendfunction", name, code));
  start = tic ();
  try
    feval (name);
    passed = true;
    message = "";
  catch err
    passed = false;
    message = explain (err, submission, missing);
  end_try_catch
  seconds = toc (start);
  clear ("-f", name);
endfunction

function msg = explain (err, submission, missing)
  msg = strtrim (err.message);
  if (strcmp (err.identifier, "attention:mismatch") || strncmp (msg, "ASSERT errors", 13))
    return;
  endif
  if (strcmp (err.identifier, "Octave:undefined-function") && ! isempty (missing))
    msg = sprintf ("%s (not handed in: %s)", msg, strjoin (missing, ", "));
    return;
  endif
  if (isempty (msg))
    msg = "failed without a message";
  endif
  ## an error the student's code raised: say so, and where
  if (! isempty (submission))
    for s = err.stack(:)'
      if (strncmp (s.file, submission, numel (submission)))
        [~, f, e] = fileparts (s.file);
        msg = sprintf ("error: %s (in %s%s, line %d)", msg, f, e, s.line);
        break;
      endif
    endfor
  endif
  if (numel (msg) > 4000)
    msg = [msg(1:4000), " [...]"];
  endif
endfunction

%!shared dir, grader
%! dir = tempname ();
%! mkdir (dir);
%! grader = fullfile (dir, "grade_twice.m");
%! fid = fopen (grader, "w");
%! fprintf (fid, "## Submission: my_twice.m\n\n%%!function check (x)\n%%!  attn_compare (2 * x, my_twice (x), \"name\", \"y\");\n%%!endfunction\n\n");
%! fprintf (fid, "## a scalar\n%%!test\n%%! check (3);\n\n");
%! fprintf (fid, "## a matrix (3 points)\n%%!test\n%%! check ([1 2; 3 4]);\n\n");
%! fprintf (fid, "## it may not quit\n%%!test\n%%! my_twice (0);\n");
%! fclose (fid);
%! mkdir (fullfile (dir, "good"));
%! mkdir (fullfile (dir, "bad"));
%! mkdir (fullfile (dir, "none"));
%! fid = fopen (fullfile (dir, "good", "my_twice.m"), "w");
%! fprintf (fid, "function y = my_twice (x)\n  y = x + x;\nendfunction\n");
%! fclose (fid);
%! ## right for scalars only, and it calls exit on zero
%! fid = fopen (fullfile (dir, "bad", "my_twice.m"), "w");
%! fprintf (fid, "function y = my_twice (x)\n  if (x == 0)\n    exit (3);\n  endif\n  y = 2 * x(1) * ones (size (x));\nendfunction\n");
%! fclose (fid);

%!test
%! R = attn_grade (grader, fullfile (dir, "good"), "quiet", true);
%! assert ([R.passed, R.total, R.score, R.points], [3 3 5 5]);
%! assert ({R.tests.name}, {"a scalar", "a matrix", "it may not quit"});
%! assert (regexp (R.text, '3 of 3 tests, 5 of 5 points\n$', "once") > 0);
%! assert (isempty (which ("my_twice")));

%!test
%! R = attn_grade (grader, fullfile (dir, "bad"), "quiet", true);
%! assert ([R.tests.passed], [true false false]);
%! assert ([R.score, R.points], [1 5]);
%! assert (R.tests(2).message, "y (2×2): element (2,1) differs: expected 6, got 2 (difference 4 > tolerance 6e-10)");
%! assert (R.tests(3).message, "error: the submission called exit (in my_twice.m, line 3)");
%! assert (! isempty (strfind (R.text, "1 of 3 tests, 1 of 5 points")));
%! ## exit works again afterwards
%! assert (exist ("exit"), 5);

%!test
%! R = attn_grade (grader, fullfile (dir, "none"), "quiet", true);
%! assert (R.missing, {"my_twice.m"});
%! assert (R.score, 0);
%! assert (! isempty (strfind (R.tests(1).message, "not handed in: my_twice.m")));
%! out = evalc ("attn_grade (grader, fullfile (dir, 'none'))");
%! assert (! isempty (strfind (out, "0 of 3 tests, 0 of 5 points")));

%!test
%! ## a my_twice.m earlier on the path hides the submission's: said so
%! addpath (fullfile (dir, "good"));
%! unwind_protect
%!   R = attn_grade (grader, fullfile (dir, "bad"), "quiet", true);
%!   assert (R.score, 5);
%!   assert (R.note, sprintf ("my_twice is taken from %s, not from the submission",
%!                            fullfile (dir, "good", "my_twice.m")));
%!   assert (! isempty (strfind (R.text, "note: my_twice is taken from")));
%! unwind_protect_cleanup
%!   rmpath (fullfile (dir, "good"));
%! end_unwind_protect

%!test
%! f = [tempname(), ".txt"];
%! R = attn_grade (grader, fullfile (dir, "bad"), "quiet", true, "from", 2, "progress", f);
%! log = fileread (f);
%! delete (f);
%! assert (numel (R.tests), 2);
%! assert (strncmp (log, "start\t2\ndone\t2\t0\t", 16));
%! assert (regexp (log, 'finished\n$', "once") > 0);

%!test
%! ## a submission that clears every function: the grader's helpers return
%! mkdir (fullfile (dir, "clears"));
%! fid = fopen (fullfile (dir, "clears", "my_twice.m"), "w");
%! fprintf (fid, "function y = my_twice (x)\n  y = 2 * x;\n  clear functions;\nendfunction\n");
%! fclose (fid);
%! R = attn_grade (grader, fullfile (dir, "clears"), "quiet", true);
%! assert ([R.passed, R.score], [3 5]);

%!test
%! confirm_recursive_rmdir (false, "local");
%! rmdir (dir, "s");

%!error id=attention:file attn_grade ("no_such_grader.m", "")
%!error id=attention:file attn_grade (which ("attn_grade"), "/no/such/folder")
%!error id=attention:option attn_grade (which ("attn_grade"), "", "loud", true)
