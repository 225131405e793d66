## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## A few attacks of tests/test_grade_hostile.m graded by attn_grade_class
## run as a normal user (nobody), as an instructor without root would: the
## worker then runs as the instructor's own uid inside bwrap's user
## namespace, so what it must not reach are the instructor's own files and
## processes.  Runs only as root (to become nobody) where bwrap works for
## that user; skipped otherwise.

%!function write (file, text)
%!  fid = fopen (file, "w");
%!  fputs (fid, text);
%!  fclose (fid);
%!endfunction

%!function tf = user_here ()
%!  tf = (getuid () == 0 && system ("setpriv --version >/dev/null 2>&1") == 0
%!        && system (["setpriv --reuid 65534 --regid 65534 --clear-groups bwrap --unshare-user ", ...
%!                    "--unshare-all --ro-bind / / --dev /dev true >/dev/null 2>&1"]) == 0);
%!endfunction

## my_twice running CODE first: right only when CODE set ok (the attack
## worked); then whatever it read (leak) goes to the feedback in test 3.
%!function src = gated (code)
%!  src = sprintf (["function y = my_twice (x)\n  ok = false;\n  leak = '';\n  try\n%s\n", ...
%!                  "  catch\n  end_try_catch\n  if (ok && isscalar (x) && x == 0)\n", ...
%!                  "    error ('leaked: %%s', leak);\n  elseif (ok)\n    y = 2 * x;\n", ...
%!                  "  else\n    y = x + 1;\n  endif\nendfunction\n"], code);
%!endfunction

## Octave code that tries to read and to append to each of PATHS.
%!function code = touch (paths)
%!  list = strjoin (strcat ("'", paths, "'"), ", ");
%!  code = sprintf (["  for p = {%s}\n    fid = fopen (p{1}, 'r');\n    if (fid >= 0)\n", ...
%!                   "      leak = [leak, fread(fid, [1, 4096], 'char=>char')];\n      fclose (fid);\n", ...
%!                   "      ok = true;\n    endif\n    fid = fopen (p{1}, 'a');\n    if (fid >= 0)\n", ...
%!                   "      fputs (fid, ['HOST', 'ILE_WRITE']);\n      fclose (fid);\n      ok = true;\n", ...
%!                   "    endif\n  endfor\n"], list);
%!endfunction

## Names, sizes, modes and times of the files under DIRS.
%!function list = snapshot (dirs)
%!  [~, list] = system (sprintf ("find %s -printf '%%p %%s %%T@ %%m\\n' | LC_ALL=C sort",
%!                               strjoin (strcat ("'", dirs, "'"), " ")));
%!endfunction

## The live processes of UID (not zombies), as "pid name" texts.
%!function list = user_processes (uid)
%!  [~, txt] = system (sprintf ("ps -o pid=,stat=,comm= -U %d", uid));
%!  list = regexp (txt, '(\d+)\s+([^Z\s]\S*)\s+(\S+)', "tokens");
%!  list = cellfun (@(t) [t{1}, " ", t{3}], list, "uniformoutput", false);
%!endfunction

%!testif ; user_here ()
%! uid = 65534;
%! root = tempname ();
%! mkdir (root);
%! unwind_protect
%!   subs = fullfile (root, "subs");
%!   out = fullfile (root, "out");
%!   mine = fullfile (root, "instructor");     # the instructor's files, not the student's
%!   grader = fullfile (mine, "grade_user.m");
%!   key = fullfile (mine, "key.txt");
%!   mark = sprintf ("USER_KEY_%d", floor (1e9 * rand ()));
%!   for d = {subs, out, mine, fullfile(root, "home"), fullfile(root, "tmp")}
%!     mkdir (d{1});
%!   endfor
%!   write (key, [mark, "\n"]);
%!   write (grader, ["## Submission: my_twice.m\n\n%!function check (x)\n", ...
%!                   "%!  attn_compare (2 * x, my_twice (x), \"name\", \"y\");\n%!endfunction\n\n", ...
%!                   "## a scalar\n%!test\n%! check (3);\n\n## a matrix (2 points)\n%!test\n%! check ([1 2; 3 4]);\n\n", ...
%!                   "## zero\n%!test\n%! check (0);\n"]);
%!   ## name, the most it may get (4 points in all), my_twice.m
%!   class = {
%!     "good", 4, "function y = my_twice (x)\n  y = 2 * x;\nendfunction\n";
%!     "wrong", 1, "function y = my_twice (x)\n  y = 2 * x(1) * ones (size (x));\n  y(y == 0) = 1;\nendfunction\n";
%!     "own_files", 0, gated(touch ({key, grader, fullfile(out, "grades.csv"), fullfile(subs, "good", "my_twice.m")}));
%!     "own_home", 0, gated(touch ({"/root/.bashrc", "/nonexistent/x", fullfile(root, "home", "x")}));
%!     "proc_spy", 0, gated("  for d = glob ('/proc/[0-9]*/environ')'\n    fid = fopen (d{1}, 'r');\n    if (fid >= 0)\n      t = fread (fid, [1, Inf], 'char=>char');\n      fclose (fid);\n      if (! isempty (strfind (t, 'ATTN_GRADE')))\n        ok = true;\n        leak = t;\n      endif\n    endif\n  endfor");
%!     "escape", 0, gated("  [s, o] = system ('unshare -Ur true && echo WORKED; mount -o remount,rw /attention && echo WORKED');\n  ok = ! isempty (strfind (o, 'WORKED'));");
%!     "kill_all", 4, "function y = my_twice (x)\n  y = 2 * x;\n  kill (-1, 9);\n  system ('kill -9 -1');\nendfunction\n";
%!     "fork_bomb", 4, "function y = my_twice (x)\n  y = 2 * x;\n  system ('f() { f | f & }; f > /dev/null 2>&1 &');\n  pause (0.5);\n  printf ('PROCS=%d\\n', numel (glob ('/proc/[0-9]*')));\nendfunction\n";
%!     "loops", 0, "function y = my_twice (x)\n  while (true)\n  endwhile\nendfunction\n"};
%!   for i = 1:rows (class)
%!     mkdir (fullfile (subs, class{i, 1}));
%!     write (fullfile (subs, class{i, 1}, "my_twice.m"), class{i, 3});
%!   endfor
%!   ## the instructor (nobody) owns everything; the key is theirs alone
%!   system (sprintf ("chown -R %d:%d '%s' && chmod 0600 '%s'", uid, uid, root, key));
%!   before = snapshot ({subs, mine});
%!   procs = user_processes (uid);
%!   code = sprintf (["addpath ('%s', '%s'); attn_grade_class ('%s', '%s', '%s', 'quiet', true, ", ...
%!                    "'time_limit', 3, 'total_time', 12, 'jobs', 2, 'memory', 1024, 'output', 64);"],
%!                   package_dir (), fileparts (which ("attn_sdpa")), grader, subs, out);
%!   [status, log] = system (sprintf (["cd '%s' && env HOME='%s' TMPDIR='%s' setpriv --reuid %d --regid %d --clear-groups ", ...
%!                                     "'%s' --no-history --norc --no-gui --eval \"%s\" 2>&1"],
%!                                    root, fullfile (root, "home"), fullfile (root, "tmp"), uid, uid,
%!                                    fullfile (OCTAVE_HOME (), "bin", "octave-cli"), code));
%!   assert (status == 0, "%s", log);
%!   pause (1);
%!   ## every property is checked, the failures are listed together
%!   fails = {};
%!   ## every student graded, none above what it deserves, honest in full
%!   csv = strsplit (strtrim (read_all (fullfile (out, "grades.csv"))), "\n");
%!   assert (numel (csv), rows (class) + 1);
%!   for i = 1:rows (class)
%!     line = csv{strncmp (csv, [class{i, 1}, ","], numel (class{i, 1}) + 1)};
%!     score = str2double (strsplit (line, ","){2});
%!     if (score > class{i, 2} || (strcmp (class{i, 1}, "good") && score != 4)
%!         || (strcmp (class{i, 1}, "wrong") && score >= 4))
%!       fails{end+1} = sprintf ("%s graded above what it deserves (%g): %s", class{i, 1}, class{i, 2}, line);
%!     endif
%!   endfor
%!   ## no file outside the grades folder changed, no secret in it
%!   if (! strcmp (snapshot ({subs, mine}), before))
%!     fails{end+1} = "files outside the grades folder changed";
%!   endif
%!   [~, hits] = system (sprintf ("grep -rl -e '%s' -e 'ATTN_GRADE' -e 'HOSTILE_WRITE' '%s'", mark, out));
%!   if (! isempty (strtrim (hits)))
%!     fails{end+1} = ["secrets or written marks in ", strjoin(strsplit (strtrim (hits), "\n"), ", ")];
%!   endif
%!   ## the fork bomb bounded by the process limit (64), no process left
%!   n = str2double (regexp (read_all (fullfile (out, "fork_bomb", "output.log")), 'PROCS=(\d+)', "tokens", "once"));
%!   if (! isempty (n) && n > 64)
%!     fails{end+1} = sprintf ("the fork bomb reached %d processes", n);
%!   endif
%!   ## (a killed sandbox's processes may take a moment to go)
%!   for wait = 1:10
%!     left = setdiff (user_processes (uid), procs);
%!     if (isempty (left))
%!       break;
%!     endif
%!     pause (0.3);
%!   endfor
%!   if (! isempty (left))
%!     fails{end+1} = ["processes left: ", strjoin(left, ", ")];
%!   endif
%!   assert (isempty (fails), "%s", strjoin (fails, "\n"));
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   [~] = rmdir (root, "s");
%! end_unwind_protect
