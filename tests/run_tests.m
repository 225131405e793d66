## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{nfail} =} run_tests ()
## @deftypefnx {} {@var{nfail} =} run_tests ("--installed", @var{prefix})
## Run every Octave test of the package and count the results.
##
## Without arguments, tests the source tree: the @code{%!} blocks of
## @file{src/*.m}, @file{src/*.c}, @file{inst/**/*.m},
## @file{tests/reference/**/*.m} and @file{tests/**/test_*.m}, with
## @file{src}, @file{inst} and @file{tests/reference} on the path, then the
## @code{@@example} blocks of @file{src} and @file{inst} with the doctest
## package when it is installed.
##
## With @code{"--installed"}, tests the copy installed under @var{prefix}
## (by @code{pkg prefix @var{prefix} @var{prefix}}, local list
## @file{@var{prefix}/octave_packages}): it loads the package with
## @code{pkg load} and runs the tests and examples of its installed files,
## with only @file{tests/reference} of the source tree on the path.
##
## Each test file runs in its own @command{octave-cli} process (as many at
## once as there are cores, or @env{ATTN_TEST_JOBS}), so a file that errors,
## hangs (killed after @env{ATTN_TEST_TIMEOUT} seconds, default 600) or
## crashes Octave counts as failed without stopping the others.  A test
## whose condition does not hold here (@code{%!testif}, e.g. the browser
## tests without Chromium) is counted as skipped, never as passed.  Logs of
## failing files are printed; the last line is exactly
## @samp{@var{N} passed, @var{N} failed, @var{N} skipped}.  Returns the
## number of failures, so @code{exit (run_tests () > 0)} gives a shell
## status.
## @end deftypefn

function nfail = run_tests (varargin)
  if (nargin >= 1 && strcmp (varargin{1}, "--child"))
    run_child ();
    nfail = 0;
    return;
  endif

  root = fileparts (fileparts (mfilename ("fullpath")));
  if (nargin == 0)
    mode = "tree";
    prefix = "";
  elseif (nargin == 2 && strcmp (varargin{1}, "--installed"))
    mode = "installed";
    prefix = make_absolute_filename (varargin{2});
  else
    error ("run_tests: usage: run_tests () or run_tests (\"--installed\", PREFIX)");
  endif

  jobs = job_list (root, mode, prefix);
  printf ("Running %d test jobs (%s)\n", numel (jobs), describe (mode, prefix));
  results = run_jobs (jobs, root, mode, prefix);

  npass = sum ([results.npass]);
  nfail = sum ([results.nfail]);
  nskip = sum ([results.nskip]);
  failed = results([results.nfail] > 0);
  for r = failed
    printf ("\n==== %s: log ====\n%s\n", r.label, r.log);
  endfor
  printf ("%d passed, %d failed, %d skipped\n", npass, nfail, nskip);
endfunction

function txt = describe (mode, prefix)
  if (strcmp (mode, "tree"))
    txt = "source tree";
  else
    txt = ["installed under " prefix];
  endif
endfunction

## The work to do: one doctest job, then one job per file with tests.
function jobs = job_list (root, mode, prefix)
  if (strcmp (mode, "tree"))
    src = fullfile (root, "src");
    inst = fullfile (root, "inst");
    files = [glob(fullfile(src, "*.m")); glob(fullfile(src, "*.c"));
             find_files(inst, '\.m$');
             find_files(fullfile (root, "tests", "reference"), '\.m$');
             find_files(fullfile (root, "tests"), '^test_.*\.m$')];
    doc_dirs = {src, inst};
  else
    ## The package's code: its folder and subfolders but not doc/ (whose
    ## assignment graders need a student's solution) nor packinfo/.
    pkgdir = installed_dir (prefix);
    files = [find_files(pkgdir, '\.m$', {"doc", "packinfo"});
             find_files(pkgdir, '-tst$')];
    doc_dirs = {pkgdir};
  endif
  files = unique (files(cellfun (@has_tests, files)));
  jobs = struct ("kind", "test", "target", files, "label",
                 cellfun (@(f) relative (f, root, prefix), files,
                          "uniformoutput", false));
  jobs = jobs(:);
  ## The doctest job is among the longest: start it first.
  if (! isempty (pkg ("list", "doctest")))
    jobs = [struct("kind", "doctest", "target", strjoin (doc_dirs, pathsep ()),
                   "label", "doctest (@example blocks)"); jobs];
  else
    printf ("doctest package not installed: @example blocks not checked\n");
  endif
endfunction

function d = installed_dir (prefix)
  d = fullfile (prefix, sprintf ("attention-%s", package_version ()));
endfunction

function v = package_version ()
  txt = fileread (fullfile (fileparts (fileparts (mfilename ("fullpath"))),
                            "DESCRIPTION"));
  v = regexp (txt, '(?m)^Version:\s*(\S+)', "tokens", "once"){1};
endfunction

function label = relative (f, root, prefix)
  label = f;
  for base = {root, prefix}
    b = [base{1} filesep()];
    if (! isempty (base{1}) && strncmp (f, b, numel (b)))
      label = f(numel (b)+1:end);
      return;
    endif
  endfor
endfunction

## Files under DIR (recursively) whose name matches the regexp PAT, not
## looking into the subfolders of DIR named in SKIP nor into links.
function files = find_files (dir, pat, skip = {})
  files = cell (0, 1);
  if (! isfolder (dir))
    return;
  endif
  entries = readdir (dir);
  for i = 1:numel (entries)
    name = entries{i};
    if (name(1) == "." || any (strcmp (name, skip)))
      continue;
    endif
    path = fullfile (dir, name);
    if (S_ISLNK (lstat (path).mode))   # a topic folder's link to ../private
      continue;
    elseif (isfolder (path))
      files = [files; find_files(path, pat)];
    elseif (! isempty (regexp (name, pat, "once")))
      files{end+1, 1} = path;
    endif
  endfor
endfunction

function tf = has_tests (f)
  tf = ! isempty (regexp (fileread (f), '(?m)^%!', "once"));
endfunction

## Runs the jobs in child processes, at most N at once.
function results = run_jobs (jobs, root, mode, prefix)
  njobs = str2double (getenv ("ATTN_TEST_JOBS"));
  if (isnan (njobs) || njobs < 1)
    njobs = nproc ();
  endif
  timeout = getenv ("ATTN_TEST_TIMEOUT");
  if (isempty (timeout))
    timeout = "600";
  endif
  tmp = tempname ();
  mkdir (tmp);
  unwind_protect
    setenv ("ATTN_TEST_MODE", mode);
    setenv ("ATTN_TEST_PREFIX", prefix);
    setenv ("ATTN_TEST_ROOT", root);
    ## From the root, so that no run_tests.m in the current folder shadows
    ## this one; TERM at the timeout, KILL 10 s later if that is ignored.
    cmd = ["cd \"$ATTN_TEST_ROOT\" && ", ...
           sprintf("timeout -k 10 %s ", timeout), ...
           shell_quote(fullfile (OCTAVE_HOME (), "bin", "octave-cli")), ...
           " --no-history --no-init-file --no-gui --eval ", ...
           "'addpath (fullfile (getenv (\"ATTN_TEST_ROOT\"), \"tests\"));", ...
           " run_tests (\"--child\");'", ...
           " > \"$ATTN_TEST_LOG\" 2>&1 < /dev/null"];
    results = struct ("label", {jobs.label}, "npass", 0, "nfail", 0,
                      "nskip", 0, "log", "", "seconds", 0);
    running = zeros (0, 3);   # rows: pid, job index, start time
    next = 1;
    while (next <= numel (jobs) || ! isempty (running))
      while (next <= numel (jobs) && rows (running) < njobs)
        setenv ("ATTN_TEST_KIND", jobs(next).kind);
        setenv ("ATTN_TEST_TARGET", jobs(next).target);
        setenv ("ATTN_TEST_LOG", fullfile (tmp, sprintf ("%d.log", next)));
        setenv ("ATTN_TEST_OUT", fullfile (tmp, sprintf ("%d.out", next)));
        pid = system (cmd, false, "async");
        running(end+1, :) = [pid, next, time()];
        next += 1;
      endwhile
      [pid, status] = waitpid (-1);
      if (pid <= 0)
        error ("run_tests: lost track of the test processes");
      endif
      k = find (running(:, 1) == pid);
      if (isempty (k))
        continue;
      endif
      i = running(k, 2);
      results(i).seconds = time () - running(k, 3);
      running(k, :) = [];
      results(i) = collect (results(i), tmp, i, status);
      report (results(i));
    endwhile
  unwind_protect_cleanup
    confirm_recursive_rmdir (false, "local");
    rmdir (tmp, "s");
  end_unwind_protect
endfunction

function q = shell_quote (s)
  q = ["'" strrep(s, "'", "'\\''") "'"];
endfunction

## Reads a child's counts (passed, failed and, from this version on,
## skipped); a child that died or reported nothing failed.
function r = collect (r, tmp, i, status)
  logfile = fullfile (tmp, sprintf ("%d.log", i));
  if (exist (logfile, "file"))
    r.log = fileread (logfile);
  endif
  counts = [];
  outfile = fullfile (tmp, sprintf ("%d.out", i));
  if (exist (outfile, "file"))
    counts = sscanf (fileread (outfile), "%d");
  endif
  known = any (numel (counts) == [2, 3]);
  if (known)
    r.npass = counts(1);
    r.nfail = counts(2);
    if (numel (counts) == 3)
      r.nskip = counts(3);
    endif
  endif
  code = WEXITSTATUS (status);
  if (! WIFEXITED (status) || code != 0 || ! known)
    if (WIFSIGNALED (status))
      why = sprintf ("killed by signal %d", WTERMSIG (status));
    elseif (code == 124)
      why = "timed out";
    elseif (code == 137)
      why = "killed (timed out, or out of memory)";
    elseif (code > 128)
      why = sprintf ("crashed (signal %d)", code - 128);
    else
      why = sprintf ("exited with status %d", code);
    endif
    r.log = sprintf ("%s\n%s: %s\n", r.log, r.label, why);
    r.nfail = max (r.nfail, 1);
  endif
endfunction

function report (r)
  if (r.nfail > 0)
    tag = "FAIL";
  else
    tag = "ok  ";
  endif
  printf ("  %s %4d passed %4d failed %3d skipped %6.1f s  %s\n", tag,
          r.npass, r.nfail, r.nskip, r.seconds, r.label);
  fflush (stdout);
endfunction

## ---- child process: one job -------------------------------------------

function run_child ()
  kind = getenv ("ATTN_TEST_KIND");
  target = getenv ("ATTN_TEST_TARGET");
  setup_path (getenv ("ATTN_TEST_MODE"), getenv ("ATTN_TEST_ROOT"),
              getenv ("ATTN_TEST_PREFIX"));
  set (0, "defaultfigurevisible", "off");
  npass = 0;
  nfail = 0;
  nskip = 0;
  try
    if (strcmp (kind, "doctest"))
      [npass, nfail] = run_doctest (strsplit (target, pathsep ()));
    else
      [npass, nfail, nskip] = run_test_file (target);
    endif
  catch err
    printf ("error while running %s:\n%s\n", target, err.message);
    nfail = max (nfail, 1);
  end_try_catch
  fid = fopen (getenv ("ATTN_TEST_OUT"), "w");
  fprintf (fid, "%d %d %d\n", npass, nfail, nskip);
  fclose (fid);
endfunction

function setup_path (mode, root, prefix)
  if (strcmp (mode, "tree"))
    addpath (fullfile (root, "src"), fullfile (root, "inst"));
  else
    pkg ("prefix", prefix, prefix);
    pkg ("local_list", fullfile (prefix, "octave_packages"));
    pkg ("load", "attention");
  endif
  ref = fullfile (root, "tests", "reference");
  if (isfolder (ref))
    addpath (genpath (ref));
  endif
endfunction

## Runs the %! blocks of FILE from its own folder (so that tests of
## private functions can call them), as __run_test_suite__ does.
function [npass, nfail, nskip] = run_test_file (file)
  cd (fileparts (file));
  [n, nmax, nxfail, nbug, nmissing, nrtskip, nregression] = ...
    test (file, "quiet", stdout);
  npass = n;
  nfail = nmax - n - nxfail - nbug - nregression;
  nskip = nmissing + nrtskip;
  if (nxfail + nbug + nskip > 0)
    printf ("%s: %d known failures, %d skipped\n", file, nxfail + nbug, nskip);
  endif
endfunction

## The @example blocks of the help texts, one doctest target per function
## (a folder target would count a MEX file and its help stub twice).
function [npass, nfail] = run_doctest (dirs)
  pkg ("load", "doctest");
  names = {};
  for i = 1:numel (dirs)
    for f = find_files (dirs{i}, '\.m$', {"doc", "packinfo"})'
      [d, name] = fileparts (f{1});
      if (isempty (strfind (d, [filesep() "private"])))
        names{end+1} = name;
      endif
    endfor
  endfor
  names = unique (names);
  [npass, ntests] = doctest (names);
  nfail = ntests - npass;
endfunction
