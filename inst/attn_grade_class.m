## -*- texinfo -*-
## @deftypefn  {} {} attn_grade_class (@var{grader}, @var{submissions}, @var{out})
## @deftypefnx {} {@var{S} =} attn_grade_class (@dots{}, @var{name}, @var{value}, @dots{})
## Grade a class: every student's folder, each in its own Octave process.
##
## @var{submissions} holds one folder per student (the folder's name is the
## student's); @var{grader} is the grader file (see @code{attn_grade});
## results go to the folder @var{out}.  For each student the submission and
## the grader are copied to a scratch folder, and a fresh
## @command{octave-cli} runs @code{attn_grade} there with the package on
## the path, with limits on wall time, memory and output.  When
## @command{bwrap} (Debian package @code{bubblewrap}) works, each process
## is sandboxed: no network, and a read-only view of everything but its
## scratch folder, with the other students' folders, the grader's folder
## and @var{out} hidden.  Without it the processes run with the same
## limits but no isolation, one at a time, and files changed outside the
## scratch folder are detected and reported (not prevented).
##
## A submission that loops, ends its process (@code{exit}, a crash),
## floods its output or runs out of memory gets 0 for the test it was in
## and a status that says so; grading resumes with its next test in a new
## process, until its total time is used up.  One submission cannot change
## another's result.
##
## Written to @var{out}:
## @table @file
## @item grades.csv
## one line per student: @code{student,score,points,time,status}
## (time in seconds; status @qcode{"ok"} or what went wrong, e.g.
## @qcode{"timed out in test 2"}).
## @item @var{student}/feedback.txt
## the report of @code{attn_grade}: each test, its points, what is wrong.
## @item @var{student}/results.json
## the same in the Gradescope autograder format: @code{score},
## @code{execution_time}, @code{output} and @code{tests} (each with
## @code{name}, @code{score}, @code{max_score}, @code{output}).
## @item @var{student}/output.log
## what the submission printed (cut at the output limit).
## @end table
##
## Options (name, value):
## @table @code
## @item "time_limit"
## seconds a single test may run (default 60).
## @item "total_time"
## seconds for all of a student's tests (default 600).
## @item "memory"
## MiB of address space per process (default 2048).
## @item "output"
## KiB a process may write (default 1024).
## @item "jobs"
## processes at once (default: the number of cores; 1 without sandbox).
## @item "sandbox"
## @qcode{"auto"} (bwrap when it works), @qcode{"bwrap"} (required) or
## @qcode{"none"}.
## @item "quiet"
## true: print nothing (default false: a line per student).
## @end table
##
## @var{S} is a struct array, one per student, with @code{student},
## @code{score}, @code{points}, @code{seconds}, @code{status},
## @code{sandbox} and @code{tests} (as @code{attn_grade}).
##
## @example
## @group
## attn_grade_class ("doc/assignments/softmax/grade_softmax.m",
##                   "submissions/", "grades/", "time_limit", 20);
## @end group
## @end example
##
## From the shell: @code{make grade GRADER=@dots{} SUBMISSIONS=@dots{}}.
## @seealso{attn_grade}
## @end deftypefn

function S = attn_grade_class (grader, submissions, out, varargin)
  if (nargin < 3)
    print_usage ();
  endif
  opts = parse_options ("attn_grade_class",
                        {"time_limit", 60, "real (0, Inf)"; "total_time", 600, "real (0, Inf)";
                         "memory", 2048, "real (0, Inf)"; "output", 1024, "real (0, Inf)";
                         "jobs", 0, "integer [0, Inf)"; "sandbox", "auto", "one of auto, bwrap, none";
                         "quiet", false, "flag"}, varargin);
  if (! (ischar (grader) && exist (grader, "file") == 2))
    error ("attention:file", "attn_grade_class: GRADER: expected a grader file, got %s",
           disp_arg (grader));
  endif
  if (! (ischar (submissions) && isfolder (submissions)))
    error ("attention:file", "attn_grade_class: SUBMISSIONS: expected a folder, got %s",
           disp_arg (submissions));
  endif
  if (! ischar (out) || isempty (out))
    error ("attention:file", "attn_grade_class: OUT: expected a folder name, got %s", disp_arg (out));
  endif
  grader = canonicalize_file_name (grader);
  submissions = canonicalize_file_name (submissions);
  if (! isfolder (out))
    mkdir (out);
  endif
  out = canonicalize_file_name (out);
  [tests, ~, files] = grade_format ("parse", grader);
  students = student_folders (submissions);
  students(strcmp (cellfun (@(d) fullfile (submissions, d), students, "uniformoutput", false),
                   out)) = [];

  run.sandbox = choose_sandbox (opts.sandbox);
  run.jobs = opts.jobs;
  if (run.jobs == 0)
    run.jobs = nproc ();
  endif
  if (strcmp (run.sandbox, "none"))
    run.jobs = 1;        # changes outside a folder are then one student's
  endif
  run.opts = opts;
  run.grader = grader;
  run.tests = tests;
  run.files = files;
  run.submissions = submissions;
  run.out = out;
  run.scratch = tempname ();
  run.watched = {submissions, fileparts(grader)};
  ## the package alone (its functions and its MEX files) on top of
  ## Octave's own path: nothing else on this session's path, where a copy
  ## of a solution could hide the student's file
  run.path = strjoin (unique ({fileparts(mfilename ("fullpath")), fileparts(which ("attn_sdpa"))}),
                      pathsep ());
  mkdir (run.scratch);
  if (! opts.quiet)
    printf ("Grading %d submissions in %s with %s (%s)\n", numel (students), submissions,
            grader, sandbox_note (run.sandbox, opts.sandbox));
  endif

  S = struct ("student", students, "score", 0, "points", sum ([tests.points]),
              "seconds", 0, "status", "", "sandbox", run.sandbox,
              "tests", struct ("name", {}, "points", {}, "score", {}, "passed", {},
                               "message", {}, "seconds", {}));
  saved_env = getenv ("OMP_NUM_THREADS");
  unwind_protect
    setenv ("OMP_NUM_THREADS", "1");
    S = grade_all (S, run);
  unwind_protect_cleanup
    setenv ("OMP_NUM_THREADS", saved_env);
    confirm_recursive_rmdir (false, "local");
    [~] = rmdir (run.scratch, "s");
  end_unwind_protect
  write_csv (fullfile (out, "grades.csv"), S);
  if (! opts.quiet)
    printf ("grades: %s\n", fullfile (out, "grades.csv"));
  endif
  if (nargout == 0)
    clear S;
  endif
endfunction

function names = student_folders (root)
  entries = dir (root);
  keep = [entries.isdir] & ! strncmp ({entries.name}, ".", 1);
  names = sort ({entries(keep).name});
endfunction

function s = choose_sandbox (want)
  s = "none";
  if (strcmp (want, "none"))
    return;
  endif
  [status, ~] = system ("bwrap --ro-bind / / --dev /dev --unshare-all --die-with-parent true 2>&1");
  if (status == 0)
    s = "bwrap";
  elseif (strcmp (want, "bwrap"))
    error ("attention:sandbox", "attn_grade_class: \"sandbox\", \"bwrap\": bwrap is missing or does not work here (install the Debian package bubblewrap)");
  endif
endfunction

function txt = sandbox_note (s, want)
  if (strcmp (s, "bwrap"))
    txt = "sandboxed by bwrap: no network, read-only outside the scratch folder";
  else
    txt = "no sandbox: plain processes with limits, one at a time";
    if (! strcmp (want, "none"))
      txt = [txt, " (bwrap is missing or does not work here)"];
    endif
  endif
endfunction

## Runs the students, at most run.jobs processes at once.
function S = grade_all (S, run)
  queue = 1:numel (S);
  live = struct ("k", {}, "pid", {}, "state", {});
  while (! isempty (queue) || ! isempty (live))
    while (! isempty (queue) && numel (live) < run.jobs)
      k = queue(1);
      queue(1) = [];
      state = start_student (S(k), k, run);
      live(end+1) = struct ("k", k, "pid", spawn (state, run), "state", state);
    endwhile
    pause (0.05);
    i = 1;
    while (i <= numel (live))
      [live(i).state, done, live(i).pid] = watch (live(i).state, live(i).pid, run);
      if (done)
        k = live(i).k;
        S(k) = finish_student (S(k), live(i).state, run);
        live(i) = [];
      else
        i += 1;
      endif
    endwhile
  endwhile
endfunction

## A scratch folder with copies of the submission and the grader.
function st = start_student (s, k, run)
  st.dir = fullfile (run.scratch, sprintf ("%d", k));
  st.sub = fullfile (st.dir, "submission");
  st.work = fullfile (st.dir, "work");
  st.grader = fullfile (st.dir, "grader", [nthargout(2, @fileparts, run.grader), ".m"]);
  mkdir (st.dir);
  mkdir (st.work);
  mkdir (fileparts (st.grader));
  mkdir (fullfile (st.dir, "tmp"));
  copyfile (run.grader, st.grader);
  [status, msg] = system (sprintf ("cp -R -P %s %s", shell_quote ([fullfile(run.submissions, s.student), "/."]),
                                   shell_quote (st.sub)));
  if (status != 0)
    error ("attention:file", "attn_grade_class: cannot copy the submission of %s: %s", s.student, msg);
  endif
  st.from = 1;
  st.runs = 1;
  st.start = time ();
  st.run_start = 0;
  st.test_start = NaN;
  st.seen = 0;
  st.results = repmat (struct ("passed", false, "message", "not run", "seconds", 0),
                       1, numel (run.tests));
  st.causes = cell (2, 0);       # {cause; test} of each stop
  st.killed = "";
  st.log = "";
  if (strcmp (run.sandbox, "none"))
    st.snapshot = snapshot (run.watched);
  endif
endfunction

## Starts one grading process for tests st.from onwards; returns its pid.
function pid = spawn (st, run)
  code = ["addpath (getenv ('ATTN_GRADE_PATH')); ", ...
          "attn_grade (getenv ('ATTN_GRADE_GRADER'), getenv ('ATTN_GRADE_SUB'), 'quiet', true, ", ...
          "'from', str2double (getenv ('ATTN_GRADE_FROM')), 'progress', getenv ('ATTN_GRADE_PROGRESS')); ", ...
          "exit (0);"];
  octave = fullfile (OCTAVE_HOME (), "bin", "octave-cli");
  cmd = {octave, "--no-history", "--no-init-file", "--no-gui", "--no-window-system", "--eval", code};
  if (strcmp (run.sandbox, "bwrap"))
    hide = unique ([run.watched, {run.scratch, run.out}]);
    ## never hide the package itself (e.g. submissions inside its folder)
    need = {fileparts(mfilename ("fullpath")), fileparts(which ("attn_sdpa"))};
    inside = @(h) any (cellfun (@(d) strncmp ([d, "/"], [h, "/"], numel (h) + 1), need));
    hide = hide(! cellfun (inside, hide));
    box = {"bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", ...
           "--unshare-all", "--die-with-parent"};
    for h = hide
      box = [box, {"--tmpfs", h{1}}];
    endfor
    cmd = [box, {"--bind", st.dir, st.dir, "--chdir", st.work}, cmd];
  endif
  limits = {"prlimit", sprintf("--as=%d", round (run.opts.memory * 2^20)), ...
            sprintf("--fsize=%d", round (run.opts.output * 2^10))};
  env = {"ATTN_GRADE_PATH", run.path; "ATTN_GRADE_GRADER", st.grader; "ATTN_GRADE_SUB", st.sub;
         "ATTN_GRADE_FROM", sprintf("%d", st.from); "ATTN_GRADE_PROGRESS", progress_file(st);
         "HOME", st.work; "TMPDIR", fullfile(st.dir, "tmp")};
  old = cellfun (@getenv, env(:, 1), "uniformoutput", false);
  for i = 1:rows (env)
    setenv (env{i, 1}, env{i, 2});
  endfor
  line = sprintf ("cd %s && exec %s > %s 2>&1 < /dev/null", shell_quote (st.work),
                  strjoin (cellfun (@shell_quote, [limits, cmd], "uniformoutput", false), " "),
                  shell_quote (fullfile (st.dir, sprintf ("log%d.txt", st.runs))));
  pid = system (line, false, "async");
  for i = 1:rows (env)
    setenv (env{i, 1}, old{i});
  endfor
endfunction

function q = shell_quote (s)
  q = ["'", strrep(s, "'", "'\\''"), "'"];
endfunction

## One look at a running process: new results, a test over its time, the
## student's time used up, or the process gone.
function [st, done, pid] = watch (st, pid, run)
  done = false;
  if (st.run_start == 0)
    st.run_start = time ();
  endif
  st = read_progress (st);
  now = time ();
  over_test = ! isnan (st.test_start) && now - st.test_start > run.opts.time_limit;
  over_total = now - st.start > run.opts.total_time;
  info = dir (fullfile (st.dir, sprintf ("log%d.txt", st.runs)));
  flood = ! isempty (info) && info.bytes >= run.opts.output * 2^10;
  if (isempty (st.killed) && (flood || over_test || over_total))
    kill (pid, 9);
    if (flood)
      ## a write past the file size limit fails, and Octave goes on
      st.killed = sprintf ("flooded its output (more than %g KiB)", run.opts.output);
    elseif (over_test)
      st.killed = sprintf ("timed out (more than %g s)", run.opts.time_limit);
    else
      st.killed = sprintf ("used up its total time (%g s)", run.opts.total_time);
    endif
  endif
  [p, status] = waitpid (pid, WNOHANG);
  if (p != pid)
    return;
  endif
  st = read_progress (st);
  st.log = [st.log, read_log(fullfile (st.dir, sprintf ("log%d.txt", st.runs)), run)];
  st.log = st.log(1:min (end, round (run.opts.output * 2^10)));
  if (st.finished)
    done = true;
    return;
  endif
  cause = why_stopped (st, status, run);
  k = st.current;
  if (k == 0)
    ## died outside a test: every remaining test is lost
    for j = st.from:numel (run.tests)
      st.results(j).message = sprintf ("not run: the grading process %s; its output ends:\n%s",
                                       cause, st.log(max (1, end-400):end));
    endfor
    st.causes(:, end+1) = {cause; 0};
    done = true;
    return;
  endif
  st.results(k).message = sprintf ("the submission %s during this test", cause);
  st.results(k).seconds = now - st.test_start;
  st.causes(:, end+1) = {cause; k};
  st.from = k + 1;
  st.test_start = NaN;
  st.killed = "";
  if (st.from > numel (run.tests) || now - st.start > run.opts.total_time)
    for j = st.from:numel (run.tests)
      st.results(j).message = sprintf ("not run: the submission used up its total time (%g s)",
                                       run.opts.total_time);
    endfor
    done = true;
    return;
  endif
  st.run_start = 0;
  st.current = 0;
  st.runs += 1;
  pid = spawn (st, run);
endfunction

function cause = why_stopped (st, status, run)
  if (! isempty (st.killed))
    cause = st.killed;
    return;
  endif
  if (! isempty (regexp (st.log, 'bad_alloc|out of memory', "once")))
    cause = sprintf ("ran out of memory (limit %g MiB)", run.opts.memory);
  elseif (WIFEXITED (status))
    cause = sprintf ("ended its process (exit status %d)", WEXITSTATUS (status));
  elseif (WIFSIGNALED (status))
    cause = sprintf ("crashed (signal %d)", WTERMSIG (status));
  else
    cause = "crashed";
  endif
endfunction

## Each process reports to its own file, so a test it never finished
## stays unfinished.
function f = progress_file (st)
  f = fullfile (st.dir, sprintf ("progress%d.txt", st.runs));
endfunction

## Reads the progress file: finished tests, and the test now running.
function st = read_progress (st)
  st.finished = false;
  st.current = 0;
  if (! exist (progress_file (st), "file"))
    return;
  endif
  lines = strsplit (fileread (progress_file (st)), "\n");
  for i = 1:numel (lines)
    f = strsplit (lines{i}, "\t");
    switch (f{1})
      case "start"
        st.current = str2double (f{2});
      case "done"
        k = str2double (f{2});
        if (numel (f) < 5)
          continue;          # being written
        endif
        st.results(k).passed = strcmp (f{3}, "1");
        st.results(k).seconds = str2double (f{4});
        st.results(k).message = char (sscanf (f{5}, "%2x")');
        st.current = 0;
      case "finished"
        st.finished = true;
    endswitch
  endfor
  if (st.current != 0 && st.current != st.seen)
    st.seen = st.current;
    st.test_start = time ();
  elseif (st.current == 0)
    st.test_start = NaN;
  endif
endfunction

function txt = read_log (file, run)
  txt = "";
  fid = fopen (file, "r");
  if (fid >= 0)
    txt = fread (fid, [1, round(run.opts.output * 2^10)], "char=>char");
    fclose (fid);
  endif
endfunction

## The student's result, feedback.txt, results.json and output.log.
function s = finish_student (s, st, run)
  s.seconds = time () - st.start;
  missing = run.files(! cellfun (@(f) exist (fullfile (st.sub, f), "file") == 2, run.files));
  causes = {};
  what = {};
  for c = st.causes(1, :)
    if (! any (strcmp (c{1}, what)))
      what{end+1} = c{1};
    endif
  endfor
  for i = 1:numel (what)
    k = [st.causes{2, strcmp (st.causes(1, :), what{i})}];
    if (all (k == 0))
      causes{end+1} = what{i};
    elseif (isscalar (k))
      causes{end+1} = sprintf ("%s in test %d", what{i}, k);
    else
      causes{end+1} = sprintf ("%s in tests %s", what{i}, strjoin (arrayfun (@num2str, k, "uniformoutput", false), ", "));
    endif
  endfor
  memory = find (! cellfun (@isempty, regexp ({st.results.message}, 'out of memory', "once")));
  if (! isempty (memory))
    causes{end+1} = sprintf ("ran out of memory (limit %g MiB) in %s %s", run.opts.memory,
                             merge (isscalar (memory), "test", "tests"),
                             strjoin (arrayfun (@num2str, memory, "uniformoutput", false), ", "));
  endif
  called = find (! cellfun (@isempty, regexp ({st.results.message},
                                               'the submission called (exit|quit)', "once")));
  if (! isempty (called))
    causes{end+1} = sprintf ("called exit in %s %s", merge (isscalar (called), "test", "tests"),
                             strjoin (arrayfun (@num2str, called, "uniformoutput", false), ", "));
  endif
  if (! isempty (missing))
    causes = [{sprintf("missing %s", strjoin (missing, ", "))}, causes];
  endif
  if (strcmp (run.sandbox, "bwrap")
      && ! isempty (regexp (st.log, 'Read-only file system', "once")))
    causes{end+1} = "tried to write outside its folder (blocked)";
  endif
  if (strcmp (run.sandbox, "none") && ! isequal (snapshot (run.watched), st.snapshot))
    causes{end+1} = "changed files outside its folder (no sandbox: not prevented)";
  endif
  s.status = "ok";
  if (! isempty (causes))
    s.status = strjoin (causes, "; ");
  endif
  for k = 1:numel (run.tests)
    r = st.results(k);
    s.tests(k) = struct ("name", run.tests(k).name, "points", run.tests(k).points,
                         "score", r.passed * run.tests(k).points, "passed", r.passed,
                         "message", r.message, "seconds", r.seconds);
  endfor
  s.score = sum ([s.tests.score]);
  R = struct ("grader", run.grader, "submission", s.student, "missing", {missing},
              "tests", s.tests, "passed", sum ([s.tests.passed]), "total", numel (s.tests),
              "score", s.score, "points", s.points, "status", s.status);
  folder = fullfile (run.out, s.student);
  if (! isfolder (folder))
    mkdir (folder);
  endif
  text = grade_format ("feedback", R);
  write_text (fullfile (folder, "feedback.txt"), text);
  write_text (fullfile (folder, "results.json"), grade_format ("json", R, s.seconds));
  write_text (fullfile (folder, "output.log"), st.log);
  if (! run.opts.quiet)
    printf ("  %-20s %6g of %g points %7.1f s  %s\n", s.student, s.score, s.points, s.seconds,
            s.status);
    fflush (stdout);
  endif
endfunction

## Names, sizes and times of every file below the folders (to notice
## changes when there is no sandbox).
function snap = snapshot (folders)
  snap = {};
  for f = folders
    [~, txt] = system (sprintf ("find %s -printf '%%p %%s %%T@\\n' 2>/dev/null", shell_quote (f{1})));
    snap{end+1} = txt;
  endfor
endfunction

function write_text (file, text)
  fid = fopen (file, "w");
  fwrite (fid, text);
  fclose (fid);
endfunction

function write_csv (file, S)
  text = "student,score,points,time,status\n";
  for s = S(:)'
    text = [text, sprintf("%s,%g,%g,%.1f,%s\n", csv_field (s.student), s.score, s.points,
                          s.seconds, csv_field (s.status))];
  endfor
  write_text (file, text);
endfunction

function f = csv_field (s)
  f = s;
  if (any (ismember (s, ",\"\n")))
    f = ["\"", strrep(s, "\"", "\"\""), "\""];
  endif
endfunction

%!error id=attention:file attn_grade_class ("no_such.m", ".", "out")
%!error id=attention:file attn_grade_class (which ("attn_grade"), "/no/such/dir", "out")
%!error id=attention:option attn_grade_class (which ("attn_grade"), ".", "out", "time_limit", 0)
%!error id=attention:option attn_grade_class (which ("attn_grade"), ".", "out", "sandbox", "docker")
