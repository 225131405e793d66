## -*- texinfo -*-
## @deftypefn  {} {} attn_grade_class (@var{grader}, @var{submissions}, @var{out})
## @deftypefnx {} {@var{S} =} attn_grade_class (@dots{}, @var{name}, @var{value}, @dots{})
## Grade a class's attention assignments, safely sandboxed.  Every
## student's folder is graded by its own grading process.
##
## @var{submissions} holds one folder per student (the folder's name is the
## student's); @var{grader} is the grader file (see @code{attn_grade});
## results go to the folder @var{out}.  Each student is graded by
## @code{attn_grade} in a fresh @command{octave-cli}: the grader's tests
## run there, on the trusted side, and the student's functions in a
## worker process of their own (see @code{attn_grade}), started anew after
## anything stops it.  Up to @qcode{"jobs"} students are graded at once.
##
## What a submission cannot do, when the sandbox is @qcode{"bwrap"} (the
## default where @command{bwrap} works; run as root, each worker also
## drops to an unprivileged uid of its own):
## @itemize
## @item escape: the worker has no capabilities, cannot make user
## namespaces, has no network and sees only @file{/usr}, a copy of the
## package's functions, its own copied files and a private @file{/tmp} and
## @file{/dev/shm} of bounded size: no checkout, no @file{.git}, no answer
## keys, no other assignment or student, no home folder, and (as its own
## uid) nothing only root may read;
## @item forge a result: only the data its functions return crosses to the
## trusted side, which decodes it strictly; what it prints, writes, kills
## or exits becomes its own status, never a result;
## @item change another student's result or stop the class: each student
## has its own processes and folders, every failure of a worker (any bytes,
## a hang, a crash) is that student's zero for the tests concerned, and
## the run goes on;
## @item exhaust the machine: memory (total, by a cgroup where the machine
## allows it, otherwise per process), processes, disk, CPU and wall time
## are limited per student, and a limit that stops a student is named in
## the feedback (@qcode{"killed: memory limit 2048 MiB in test 3"});
## @item use what it should write: a function named in the grader's
## @samp{Forbidden:} line fails when the submission calls it.
## @end itemize
## Left to the instructor: the grader file and the package are trusted
## code; the folders of @var{submissions} are read as data (a symbolic
## link or a file over 1 MiB is not graded).  A determined student can
## still reach a forbidden function's implementation (by changing Octave's
## path into the package's @file{private} folder): read the code of a
## submission that gets full marks from an unusual route.  With
## @qcode{"sandbox"}, @qcode{"uid"} (root without bwrap) the worker runs
## as its own unprivileged uid but can read every file that anyone may
## read; with @qcode{"none"} it runs as you.  On a course platform run the
## grader as root in its container, or as a normal user where
## unprivileged user namespaces are allowed (Debian's default); see the
## instructor guide in @file{doc/assignments/README.md}.
##
## Written to @var{out}:
## @table @file
## @item grades.csv
## one line per student: @code{student,score,points,time,status}
## (time in seconds; status @qcode{"ok"} or what went wrong, e.g.
## @qcode{"timed out (more than 60 s) in test 2"}).
## @item @var{student}/feedback.txt
## the report of @code{attn_grade}: each test, its points, what is wrong.
## @item @var{student}/results.json
## the same in the Gradescope autograder format: @code{score},
## @code{execution_time}, @code{output} and @code{tests} (each with
## @code{name}, @code{score}, @code{max_score}, @code{output}).
## @item @var{student}/output.log
## what the submission printed (cut at the output limit).
## @end table
## Ctrl-C stops the run: the students graded so far are written.
##
## Options (name, value): @qcode{"time_limit"}, @qcode{"total_time"},
## @qcode{"memory"}, @qcode{"disk"}, @qcode{"processes"}, @qcode{"output"}
## and @qcode{"sandbox"} as for @code{attn_grade}, per student;
## @table @code
## @item "jobs"
## students graded at once (default: the number of cores).
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
                         "memory", 2048, "real [256, Inf)"; "disk", 256, "real [1, Inf)";
                         "processes", 64, "integer [4, 100000]"; "output", 1024, "real (0, Inf)";
                         "jobs", 0, "integer [0, 255]"; "sandbox", "auto", "one of auto, bwrap, uid, none";
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
  [tests, ~, ~, forbidden] = grade_format ("parse", grader);
  kind = grade_sandbox ("probe", opts.sandbox);
  if (! isfolder (out))
    mkdir (out);
  endif
  out = canonicalize_file_name (out);
  students = student_folders (submissions, out);
  if (opts.jobs == 0)
    opts.jobs = nproc ();
  endif
  if (strcmp (kind, "none"))
    opts.jobs = 1;             # the workers would share one user's processes
  endif
  if (! opts.quiet)
    printf ("Grading %d submissions in %s with %s (%s)\n", numel (students), submissions,
            grader, sandbox_note (kind));
  endif

  S = struct ("student", students, "score", 0, "points", sum ([tests.points]),
              "seconds", 0, "status", "not graded: the run was stopped", "sandbox", kind,
              "tests", struct ("name", {}, "points", {}, "score", {}, "passed", {},
                               "message", {}, "seconds", {}));
  done = false (size (S));
  ## a folder named like the grades file would be written over it
  clash = strcmp ({S.student}, "grades.csv");
  [S(clash).status] = deal ("not graded: a student's folder may not be named grades.csv");
  done(clash) = true;
  scratch = tempname ();
  live = struct ("k", {}, "pid", {}, "slot", {}, "start", {});
  saved_dump = crash_dumps_octave_core (false);
  unwind_protect
    grade_sandbox ("cgroup sweep");
    old = umask (0022);
    mkdir (scratch);
    grade_sandbox ("package", fullfile (scratch, "package"), forbidden);
    umask (0077);
    mkdir (fullfile (scratch, "reports"));
    umask (old);
    queue = find (! done);
    while (! isempty (queue) || ! isempty (live))
      while (! isempty (queue) && numel (live) < opts.jobs)
        slot = min (setdiff (1:opts.jobs, [live.slot]));
        k = queue(1);
        queue(1) = [];
        live(end+1) = struct ("k", k, "pid", spawn (grader, fullfile (submissions, S(k).student),
                                                    report_file (scratch, k), slot, scratch, opts),
                              "slot", slot, "start", time ());
      endwhile
      pause (0.02);
      i = 1;
      while (i <= numel (live))
        [pid, status] = waitpid (live(i).pid, WNOHANG);
        over = time () - live(i).start > opts.total_time + 60;
        if (pid != live(i).pid && ! over)
          i += 1;
          continue;
        endif
        if (pid != live(i).pid)
          stop_grading (live(i));
        endif
        grade_sandbox ("cgroup remove", grade_sandbox ("cgroup name", live(i).pid, live(i).slot));
        k = live(i).k;
        S(k) = finish_student (S(k), live(i), report_file (scratch, k), out, opts);
        done(k) = true;
        live(i) = [];
      endwhile
    endwhile
  unwind_protect_cleanup
    ## also after Ctrl-C: no process left, the students graded so far written
    for l = live
      stop_grading (l);
    endfor
    crash_dumps_octave_core (saved_dump);
    if (isfolder (scratch))
      system (sprintf ("rm -rf '%s'", strrep (scratch, "'", "'\\''")));
    endif
    write_csv (fullfile (out, "grades.csv"), S(done));
    if (! opts.quiet)
      printf ("grades: %s (%d of %d students)\n", fullfile (out, "grades.csv"), nnz (done),
              numel (S));
    endif
  end_unwind_protect
  if (nargout == 0)
    clear S;
  endif
endfunction

function names = student_folders (root, out)
  entries = dir (root);
  keep = [entries.isdir] & ! strncmp ({entries.name}, ".", 1);
  names = sort ({entries(keep).name});
  names(strcmp (strcat (root, "/", names), out)) = [];
endfunction

function txt = sandbox_note (kind)
  switch (kind)
    case "bwrap"
      txt = "sandboxed by bwrap: no network, no view beyond the package and the submission";
    case "uid"
      txt = "no bwrap: each student as an unprivileged uid of its own, files readable by anyone are visible";
    otherwise
      txt = "no sandbox: plain processes with limits, one at a time";
  endswitch
endfunction

function f = report_file (scratch, k)
  f = fullfile (scratch, "reports", sprintf ("%d", k));
endfunction

## Starts the trusted grading process of one student; returns its pid.
## Paths go through the environment, so that no folder name is code.
function pid = spawn (grader, submission, report, slot, scratch, opts)
  code = ["addpath (getenv ('ATTN_GRADE_PATH')); ", ...
          "attn_grade (getenv ('ATTN_GRADE_GRADER'), getenv ('ATTN_GRADE_SUB'), 'quiet', true, ", ...
          sprintf("'time_limit', %.17g, 'total_time', %.17g, 'memory', %.17g, 'disk', %.17g, ",
                  opts.time_limit, opts.total_time, opts.memory, opts.disk), ...
          sprintf("'processes', %d, 'output', %.17g, 'sandbox', '%s', 'run', %d, 'slot', %d, ",
                  opts.processes, opts.output, opts.sandbox, getpid (), slot), ...
          "'package', getenv ('ATTN_GRADE_PACKAGE'), 'report', getenv ('ATTN_GRADE_REPORT'));"];
  package = fileparts (fileparts (mfilename ("fullpath")));     # (its PKG_ADD adds the topics)
  env = {"ATTN_GRADE_PATH", strjoin(unique ({package, fileparts(which ("attn_sdpa"))}), pathsep ());
         "ATTN_GRADE_GRADER", grader; "ATTN_GRADE_SUB", submission;
         "ATTN_GRADE_PACKAGE", fullfile(scratch, "package"); "ATTN_GRADE_REPORT", report;
         "OMP_NUM_THREADS", "1"; "OPENBLAS_NUM_THREADS", "1"};
  old = cellfun (@getenv, env(:, 1), "uniformoutput", false);
  for i = 1:rows (env)
    setenv (env{i, 1}, env{i, 2});
  endfor
  ## it dies with this process (pdeathsig), its worker with it
  octave = fullfile (OCTAVE_HOME (), "bin", "octave-cli");
  line = sprintf ("exec setpriv --pdeathsig KILL %s --no-history --norc --no-gui --no-window-system --eval %s > %s 2>&1 < /dev/null",
                  shell_quote (octave), shell_quote (code), shell_quote ([report, ".log"]));
  pid = system (line, false, "async");
  for i = 1:rows (env)
    setenv (env{i, 1}, old{i});
  endfor
endfunction

function q = shell_quote (s)
  q = ["'", strrep(s, "'", "'\\''"), "'"];
endfunction

## Kills a grading process past its time, and what it left behind.
function stop_grading (l)
  [~] = kill (l.pid, 9);
  waitpid (l.pid);
  grade_sandbox ("cgroup remove", grade_sandbox ("cgroup name", l.pid, l.slot));
  if (getuid () == 0)
    system (sprintf ("pkill -9 -U %d >/dev/null 2>&1", grade_sandbox ("uid", getpid (), l.slot)));
  endif
endfunction

## The student's result from its report, and feedback.txt, results.json
## and output.log.
function s = finish_student (s, l, report, out, opts)
  s.seconds = time () - l.start;
  R = [];
  fid = fopen (report, "r");
  if (fid >= 0)
    bytes = fread (fid, [1, Inf], "uint8=>uint8");
    fclose (fid);
    try
      R = grade_value ("decode", bytes, 256 * 2^20);
    catch
      R = [];
    end_try_catch
  endif
  if (! isstruct (R))
    ## the trusted side itself failed: every test 0, and say so
    R = struct ("grader", "", "submission", s.student, "missing", {{}},
                "tests", struct ("name", {}, "points", {}, "score", {}, "passed", {},
                                 "message", {}, "seconds", {}),
                "passed", 0, "total", 0, "score", 0, "points", s.points,
                "status", sprintf ("not graded: the grading process ended without a result (after %.0f s)",
                                   s.seconds),
                "log", "");
  endif
  s.score = R.score;
  s.status = R.status;
  s.tests = R.tests;
  folder = fullfile (out, s.student);
  if (! isfolder (folder))
    mkdir (folder);
  endif
  write_text (fullfile (folder, "feedback.txt"), grade_format ("feedback", R));
  write_text (fullfile (folder, "results.json"), grade_format ("json", R, s.seconds));
  write_text (fullfile (folder, "output.log"), R.log);
  if (! opts.quiet)
    printf ("  %-20s %6g of %g points %7.1f s  %s\n", s.student, s.score, s.points, s.seconds,
            s.status);
    fflush (stdout);
  endif
endfunction

function write_text (file, text)
  [fid, msg] = fopen (file, "w");
  if (fid < 0)
    error ("attention:file", "attn_grade_class: cannot write %s: %s", file, msg);
  endif
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
  if (any (ismember (s, ",\"\n\r")))
    f = ["\"", strrep(s, "\"", "\"\""), "\""];
  endif
endfunction

%!error id=attention:file attn_grade_class ("no_such.m", ".", "out")
%!error id=attention:file attn_grade_class (which ("attn_grade"), "/no/such/dir", "out")
%!error id=attention:option attn_grade_class (which ("attn_grade"), ".", "out", "time_limit", 0)
%!error id=attention:option attn_grade_class (which ("attn_grade"), ".", "out", "sandbox", "docker")
