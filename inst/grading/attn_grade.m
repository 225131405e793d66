## -*- texinfo -*-
## @deftypefn  {} {} attn_grade (@var{grader}, @var{submission})
## @deftypefnx {} {@var{R} =} attn_grade (@var{grader}, @var{submission}, @var{name}, @var{value}, @dots{})
## Grade one attention assignment submission, with points.  Every test of
## a grader file runs.
##
## @var{grader} is a grader file (e.g.
## @file{doc/assignments/softmax/grade_softmax.m}): @code{%!function}
## helpers and @code{%!test} blocks, the same file a student can run with
## @code{test}.  Each test has a name and points, set by the comment right
## above its @code{%!test} line: its first line is the name, and
## @samp{(N points)} in it sets the points (default 1).  Header lines name
## the files the student hands in, @samp{## Submission: my_softmax.m,
## my_softmax_backward.m}, and the package functions the submission may
## not call, @samp{## Forbidden: attn_softmax, attn_softmax_backward}.
## @var{submission} is the folder holding the files, or @qcode{""} to take
## them from wherever Octave finds them on the path.
##
## The grader's tests run here, in this Octave; the student's functions
## run in a separate process, the worker, which only ever gets copies of
## the named files (a symbolic link or a file over 1 MiB is not copied)
## and the package.  Each call of a student's function sends its
## arguments to the worker and gets its outputs back as data: numeric,
## logical, char, cell and struct values (no function handles).  Nothing
## the student's code does in the worker (printing, writing files,
## changing the path, redefining functions, calling @code{exit}, crashing)
## can change a test's result other than by what the function returns.
## Where the machine allows it (@command{bwrap}, Debian package
## @code{bubblewrap}), the worker runs sandboxed: as an unprivileged user
## with no capabilities, no network, and no view of any file but
## @file{/usr}, the package and the submission's files (see
## @code{attn_grade_class} for the whole threat model).  A function named
## in @samp{Forbidden:} raises @code{attention:forbidden} when the
## submission calls it; the package's own functions may still use it.
##
## Every test runs, also after one failed.  A test that passes earns its
## points; one that fails earns 0 and says why: the report of
## @code{attn_compare}, an @code{assert} message, the error the student's
## code raised and where (@samp{(in my_softmax.m, line 3)}), or what
## stopped the worker (@samp{timed out (more than 60 s)}, @samp{killed:
## memory limit 2048 MiB}).  A file that does not parse fails only the
## tests that call it.  After a worker is stopped, the next call starts a
## new one.  The report ends with the line @samp{@var{k} of @var{N} tests,
## @var{p} of @var{P} points}.
##
## Options (name, value):
## @table @code
## @item "quiet"
## true: print nothing (default false).
## @item "time_limit"
## seconds a single test may run (default 60).
## @item "total_time"
## seconds for all the tests (default 600); tests not started by then get 0.
## @item "memory"
## MiB of memory for the worker (default 2048).
## @item "disk"
## MiB the worker may write (default 256).
## @item "processes"
## processes and threads the worker may have at once (default 64).
## @item "output"
## KiB of the student's output that are kept (default 1024); more than
## that in one call stops the worker.
## @item "sandbox"
## @qcode{"auto"} (the strongest available), @qcode{"bwrap"} (required),
## @qcode{"uid"} (as root: an unprivileged uid of its own, without bwrap)
## or @qcode{"none"} (a plain process: for a student checking their own
## work).
## @end table
##
## @var{R} has @code{grader}, @code{submission}, @code{missing} (the
## header's files not handed in), @code{tests} (struct array:
## @code{name}, @code{points}, @code{score}, @code{passed},
## @code{message}, @code{seconds}), @code{passed}, @code{total},
## @code{score}, @code{points}, @code{status} (@qcode{"ok"}, or what went
## wrong, e.g. @qcode{"timed out (more than 60 s) in test 2"}),
## @code{sandbox}, @code{log} (what the student's code printed) and
## @code{text} (the report).
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
## @code{%!function}, no test, a bad header), @code{attention:sandbox},
## @code{attention:option}.
## @seealso{attn_grade_class, attn_compare, attn_gradcheck}
## @end deftypefn

function R = attn_grade (grader, submission, varargin)
  if (nargin >= 1 && ischar (grader) && strcmp (grader, "--worker"))
    grade_worker (submission, varargin{:});
    return;
  endif
  if (nargin < 2)
    print_usage ();
  endif
  opts = parse_options ("attn_grade",
                        {"quiet", false, "flag"; "time_limit", 60, "real (0, Inf)";
                         "total_time", 600, "real (0, Inf)"; "memory", 2048, "real [256, Inf)";
                         "disk", 256, "real [1, Inf)"; "processes", 64, "integer [4, 100000]";
                         "output", 1024, "real (0, Inf)";
                         "sandbox", "auto", "one of auto, bwrap, uid, none";
                         ## for attn_grade_class: its pid and the worker's slot
                         ## (which make the worker's uid), a copy of the package
                         ## made once for the class, and where the result goes
                         "run", 0, "integer [0, 4194304]"; "slot", 0, "integer [0, 255]";
                         "package", "", "text";
                         "report", "", "text"}, varargin);
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
  [tests, functions, files, forbidden] = grade_format ("parse", grader);
  kind = grade_sandbox ("probe", opts.sandbox);

  R = struct ("grader", grader, "submission", submission, "missing", {{}},
              "tests", struct ("name", {}, "points", {}, "score", {}, "passed", {},
                               "message", {}, "seconds", {}),
              "passed", 0, "total", numel (tests), "score", 0,
              "points", sum ([tests.points]), "status", "ok", "sandbox", kind, "log", "",
              "text", "");
  scratch = tempname ();
  names = regexprep (files, '\.m$', "");
  helpers = cellfun (@(f) regexp (f, '^\s*function\s+(?:[^=\n(]*=\s*)?(\w+)', "tokens", "once"){1},
                     functions, "uniformoutput", false);
  box = [];
  global attn_grade_channel
  saved_dir = pwd ();
  unwind_protect
    [box, R.missing, notes] = prepare (scratch, submission, files, forbidden, kind, opts);
    grade_channel ("open", box);
    attn_grade_channel = @grade_channel;
    start = time ();
    causes = cell (2, 0);
    for k = 1:numel (tests)
      if (time () - start > opts.total_time)
        message = sprintf ("not run: the tests used up their total time (%g s)", opts.total_time);
        R.tests(k) = result (tests(k), false, message, 0);
        continue;
      endif
      ## again before every test: a test may have cleared them
      define (names, R.missing, functions, helpers);
      grade_channel ("deadline", min (time () + opts.time_limit, start + opts.total_time),
                     min (opts.time_limit, opts.total_time));
      [passed, message, seconds] = run_test (tests(k).code, k);
      if (! strcmp (pwd (), saved_dir))
        cd (saved_dir);         # a test may change folder; cd costs a path rescan
      endif
      R.tests(k) = result (tests(k), passed, message, seconds);
      for c = grade_channel ("causes")
        causes(:, end+1) = {c{1}; k};
      endfor
    endfor
  unwind_protect_cleanup
    cd (saved_dir);
    if (! isempty (box))
      R.log = grade_channel ("close");
      grade_sandbox ("cgroup remove", box.cgroup);
    endif
    clear ("-f", names{:}, helpers{:});
    clear -global attn_grade_channel
    confirm_recursive_rmdir (false, "local");
    if (isfolder (scratch))
      system (sprintf ("rm -rf '%s'", scratch));
    endif
  end_unwind_protect
  R.passed = sum ([R.tests.passed]);
  R.score = sum ([R.tests.score]);
  R.status = status_text (notes, causes, R.missing);
  R.text = grade_format ("feedback", R);
  if (! isempty (opts.report))
    write_report (opts.report, R);
  endif
  if (! opts.quiet)
    printf ("%s", R.text);
  endif
  if (nargout == 0)
    clear R;
  endif
endfunction

function t = result (test, passed, message, seconds)
  t = struct ("name", test.name, "points", test.points, "score", passed * test.points,
              "passed", passed, "message", message, "seconds", seconds);
endfunction

## The worker's world in SCRATCH: copies of the submission's files and of
## the package, readable by the worker's uid; its limits.
function [box, missing, notes] = prepare (scratch, submission, files, forbidden, kind, opts)
  old = umask (0022);
  unwind_protect
    mkdir (scratch);
    if (opts.run == 0)
      opts.run = getpid ();
    endif
    box = struct ("kind", kind, "uid", grade_sandbox ("uid", opts.run, opts.slot),
                  "submission", fullfile (scratch, "submission"), "package", opts.package,
                  "work", fullfile (scratch, "work"), "memory", opts.memory, "disk", opts.disk,
                  "processes", opts.processes, "cpu", opts.total_time + 10,
                  "max_bytes", 64 * 2^20, "output", opts.output, "cgroup", []);
    mkdir (box.submission);
    mkdir (box.work);
    umask (0077);
    mkdir (fullfile (scratch, "private"));        # the grading side's alone
    umask (0022);
    box.bwrap_args = fullfile (scratch, "private", "bwrap-args");
    if (isempty (box.package))
      box.package = fullfile (scratch, "package");
      grade_sandbox ("package", box.package, forbidden);
    endif
    [missing, notes] = copy_files (submission, files, box.submission);
    if (getuid () == 0 && ! strcmp (kind, "none"))
      system (sprintf ("chown %d '%s'", box.uid, box.work));
      box.cgroup = grade_sandbox ("cgroup", grade_sandbox ("cgroup name", getpid (), opts.slot),
                                  struct ("memory", opts.memory, "processes", opts.processes));
    endif
  unwind_protect_cleanup
    umask (old);
  end_unwind_protect
endfunction

## Copies each file the student hands in, when it is a regular file of at
## most 1 MiB (never through a symbolic link); the others are missing.
function [missing, notes] = copy_files (submission, files, to)
  missing = {};
  notes = {};
  for f = files(:)'
    if (isempty (submission))
      from = file_in_loadpath (f{1});
    else
      from = fullfile (submission, f{1});
    endif
    [info, err] = lstat (from);
    if (isempty (from) || err != 0)
      missing{end+1} = f{1};
    elseif (! S_ISREG (info.mode))
      missing{end+1} = f{1};
      notes{end+1} = sprintf ("%s is not a regular file (not graded)", f{1});
    elseif (info.size > 2^20)
      missing{end+1} = f{1};
      notes{end+1} = sprintf ("%s is larger than 1 MiB (not graded)", f{1});
    else
      fid = fopen (from, "r");
      bytes = fread (fid, [1, Inf], "uint8=>uint8");
      fclose (fid);
      fid = fopen (fullfile (to, f{1}), "w");
      fwrite (fid, bytes);
      fclose (fid);
    endif
  endfor
endfunction

## The grader's helpers, and for each function of the submission one that
## calls it in the worker: only those not defined (so that a helper's
## persistent variables last from test to test).
function define (names, missing, functions, helpers)
  for i = 1:numel (names)
    if (exist (names{i}) == 103)
      continue;
    elseif (any (strcmp ([names{i}, ".m"], missing)))
      body = sprintf ("error (\"Octave:undefined-function\", \"'%s' undefined (not handed in: %s.m)\");",
                      names{i}, names{i});
    else
      body = sprintf ("varargout = attn_grade_channel (\"call\", \"%s\", nargout, varargin);",
                      names{i});
    endif
    eval (sprintf ("function varargout = %s (varargin)\n  global attn_grade_channel\n  %s\nendfunction",
                   names{i}, body));
  endfor
  for i = 1:numel (functions)
    if (exist (helpers{i}) != 103)
      eval (functions{i});
    endif
  endfor
endfunction

## Runs test K's code as its own function; a failure's message says what
## is wrong, or where the student's code stopped.
function [passed, message, seconds] = run_test (code, k)
  name = sprintf ("__attn_grade_test_%d__", k);
  eval (sprintf ("function %s ()\n%s\nendfunction", name, code));
  start = tic ();
  try
    feval (name);
    passed = true;
    message = "";
  catch err
    passed = false;
    message = strtrim (err.message);
    if (isempty (message))
      message = "failed without a message";
    endif
    if (numel (message) > 4000)
      message = [message(1:4000), " [...]"];
    endif
  end_try_catch
  seconds = toc (start);
  clear ("-f", name);
endfunction

## One line: the notes, then each cause with the tests it happened in.
function txt = status_text (notes, causes, missing)
  parts = notes;
  if (! isempty (missing))
    parts = [{sprintf("missing %s", strjoin (missing, ", "))}, parts];
  endif
  what = unique (causes(1, :), "stable");
  for i = 1:numel (what)
    k = unique ([causes{2, strcmp (causes(1, :), what{i})}]);
    parts{end+1} = sprintf ("%s in %s", what{i}, test_list (k));
  endfor
  txt = "ok";
  if (! isempty (parts))
    txt = strjoin (parts, "; ");
  endif
endfunction

function txt = test_list (k)
  txt = sprintf ("%s %s", merge (isscalar (k), "test", "tests"),
                 strjoin (arrayfun (@num2str, k, "uniformoutput", false), ", "));
endfunction

## For attn_grade_class: R as data, in a file only the grading side sees.
function write_report (file, R)
  fid = fopen ([file, ".part"], "w");
  fwrite (fid, grade_value ("encode", R));
  fclose (fid);
  rename ([file, ".part"], file);
endfunction

## The worker: reads calls on its standard input, runs the submission's
## functions and writes each reply as a frame on its standard output,
## where everything else is the student's output.
function grade_worker (submission, max_bytes)
  addpath (submission);
  more off;
  for w = {"exit", "quit"}
    eval (sprintf ("function %s (varargin)\n  error ('attention:exit', 'the submission called %s');\nendfunction",
                   w{1}, w{1}));
  endfor
  while (true)
    [name, nout, args] = frame ("read", max_bytes);
    try
      reply = grade_value ("encode", call_submission (name, nout, args, submission));
    catch err
      reply = grade_value ("encode", {"error", sprintf("the submission's result cannot be graded: %s", ...
                                                      err.message), "attention:channel"});
    end_try_catch
    frame ("send", reply);
  endwhile
endfunction

## The worker's ends of the channel.  The call's nonce is kept here, in no
## workspace that the student's code can reach with evalin while it runs.
function [name, nout, args] = frame (action, arg)
  persistent nonce = "";
  if (strcmp (action, "read"))
    [len, n] = fread (stdin, 1, "uint64=>double");
    if (n < 1 || len > arg)
      builtin ("exit", 0);
    endif
    request = grade_value ("decode", fread (stdin, [1, len], "uint8=>uint8"), arg);
    [nonce, name, nout, args] = request{:};
  else
    fflush (stdout);
    fwrite (stdout, ["\n#ATTN-REPLY#", nonce, "#"]);
    fwrite (stdout, typecast (uint64 (numel (arg)), "uint8"));
    fwrite (stdout, arg);
    fflush (stdout);
  endif
endfunction

## {"ok", outputs, ""} or {"error", message, identifier}.  Called without
## outputs, a function that has one returns it (as ans would be).
function reply = call_submission (name, nout, args, submission)
  try
    if (nout == 0 && nargout (name) != 0)
      nout = 1;
    endif
    out = cell (1, nout);
    if (nout == 0)
      feval (name, args{:});
    else
      [out{:}] = feval (name, args{:});
    endif
    reply = {"ok", out, ""};
  catch err
    msg = strtrim (err.message);
    for s = err.stack(:)'
      if (strncmp (s.file, submission, numel (submission)))
        [~, f, e] = fileparts (s.file);
        msg = sprintf ("%s (in %s%s, line %d)", msg, f, e, s.line);
        break;
      endif
    endfor
    reply = {"error", ["error: ", msg], err.identifier};
  end_try_catch
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
%! assert (R.status, "ok");
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
%! assert (R.status, "missing my_twice.m");
%! assert (! isempty (strfind (R.tests(1).message, "not handed in: my_twice.m")));
%! out = evalc ("attn_grade (grader, fullfile (dir, 'none'))");
%! assert (! isempty (strfind (out, "0 of 3 tests, 0 of 5 points")));

%!test
%! ## a my_twice.m earlier on the path does not hide the submission's
%! addpath (fullfile (dir, "good"));
%! unwind_protect
%!   R = attn_grade (grader, fullfile (dir, "bad"), "quiet", true);
%!   assert (R.score, 1);
%! unwind_protect_cleanup
%!   rmpath (fullfile (dir, "good"));
%! end_unwind_protect

%!test
%! ## a submission that clears every function: the grader's helpers return
%! mkdir (fullfile (dir, "clears"));
%! fid = fopen (fullfile (dir, "clears", "my_twice.m"), "w");
%! fprintf (fid, "function y = my_twice (x)\n  y = 2 * x;\n  clear functions;\nendfunction\n");
%! fclose (fid);
%! R = attn_grade (grader, fullfile (dir, "clears"), "quiet", true);
%! assert ([R.passed, R.score], [3 5]);

%!test
%! ## a time limit, a symbolic link in place of the file
%! mkdir (fullfile (dir, "slow"));
%! fid = fopen (fullfile (dir, "slow", "my_twice.m"), "w");
%! fprintf (fid, "function y = my_twice (x)\n  if (isscalar (x))\n    pause (30);\n  endif\n  y = 2 * x;\nendfunction\n");
%! fclose (fid);
%! R = attn_grade (grader, fullfile (dir, "slow"), "quiet", true, "time_limit", 1);
%! assert ([R.tests.passed], [false true false]);
%! assert (R.tests(1).message, "the submission timed out (more than 1 s)");
%! assert (R.status, "timed out (more than 1 s) in tests 1, 3");
%! mkdir (fullfile (dir, "link"));
%! symlink (fullfile (dir, "good", "my_twice.m"), fullfile (dir, "link", "my_twice.m"));
%! R = attn_grade (grader, fullfile (dir, "link"), "quiet", true);
%! assert (R.score, 0);
%! assert (R.status, "missing my_twice.m; my_twice.m is not a regular file (not graded)");

%!test
%! confirm_recursive_rmdir (false, "local");
%! rmdir (dir, "s");

%!error id=attention:file attn_grade ("no_such_grader.m", "")
%!error id=attention:file attn_grade (which ("attn_grade"), "/no/such/folder")
%!error id=attention:option attn_grade (which ("attn_grade"), "", "loud", true)
