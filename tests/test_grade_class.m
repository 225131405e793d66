## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## attn_grade_class on a folder of fake submissions: a good one, a partly
## wrong one, one that loops forever, one that calls exit, one that ends
## its process, one that deletes files outside its folder, one that floods
## its output, one that runs out of memory and one without the function.
## Short limits keep it quick.  tests/test_grade_hostile.m attacks it.

%!function write (file, varargin)
%!  fid = fopen (file, "w");
%!  fprintf (fid, varargin{:});
%!  fclose (fid);
%!endfunction

%!function put (root, student, body)
%!  mkdir (fullfile (root, student));
%!  write (fullfile (root, student, "my_twice.m"), "function y = my_twice (x)\n%s\nendfunction\n", body);
%!endfunction

%!test
%! root = tempname ();
%! subs = fullfile (root, "submissions");
%! out = fullfile (root, "out");
%! mkdir (root);
%! mkdir (subs);
%! grader = fullfile (root, "grade_twice.m");
%! write (grader, ["## Submission: my_twice.m\n\n%%!function check (x)\n", ...
%!                 "%%!  attn_compare (2 * x, my_twice (x), \"name\", \"y\");\n%%!endfunction\n\n", ...
%!                 "## a scalar\n%%!test\n%%! check (3);\n\n## a matrix (3 points)\n%%!test\n%%! check ([1 2; 3 4]);\n\n", ...
%!                 "## zero\n%%!test\n%%! check (0);\n"]);
%! canary = fullfile (subs, "canary.txt");
%! write (canary, "still here\n");
%! unwind_protect
%!   put (subs, "good", "  y = x + x;");
%!   put (subs, "partly_wrong", "  y = 2 * x(1) * ones (size (x));");
%!   put (subs, "loops", "  while (true)\n  endwhile");
%!   put (subs, "calls_exit", "  if (isscalar (x) && x == 0)\n    exit (3);\n  endif\n  y = 2 * x;");
%!   put (subs, "ends_octave", "  if (isscalar (x) && x == 0)\n    builtin (\"exit\", 4);\n  endif\n  y = 2 * x;");
%!   put (subs, "floods", "  while (true)\n    printf (\"%s\\n\", repmat (\"x\", 1, 1000));\n  endwhile");
%!   ## outside its folder: a file of the submissions folder, the package
%!   ## and the grader (the worker sees none of them, or may not write them)
%!   put (subs, "deletes", sprintf ("  delete ('%s'); delete ('%s'); delete ('%s');\n  y = 2 * x;",
%!                                  canary, which ("attn_grade"), grader));
%!   put (subs, "hog", "  z = zeros (4e8, 1);\n  y = 2 * x;");
%!   mkdir (fullfile (subs, "missing"));
%!   write (fullfile (subs, "missing", "twice.m"), "function y = twice (x)\n  y = 2 * x;\nendfunction\n");
%!   S = attn_grade_class (grader, subs, out, "time_limit", 2, "total_time", 8, "output", 64,
%!                         "memory", 1536, "quiet", true);
%!   ## nothing outside the grades folder changed
%!   assert (exist (which ("attn_grade"), "file"), 2);
%!   assert (exist (grader, "file"), 2);
%!   if (! strcmp (S(1).sandbox, "none"))
%!     assert (exist (canary, "file"), 2);
%!   endif
%!   names = {S.student};
%!   assert (names, sort ({"good", "partly_wrong", "loops", "calls_exit", "ends_octave", ...
%!                         "floods", "deletes", "hog", "missing"}));
%!   r = @(name) S(strcmp (names, name));
%!   assert ([r("good").score, r("good").points], [5 5]);
%!   assert (r("good").status, "ok");
%!   assert (r("partly_wrong").score, 2);
%!   assert (r("partly_wrong").status, "ok");
%!   assert (r("loops").score, 0);
%!   assert (r("loops").status, "timed out (more than 2 s) in tests 1, 2, 3");
%!   assert (r("calls_exit").score, 4);
%!   assert (r("calls_exit").status, "ok");
%!   assert (r("ends_octave").score, 4);
%!   assert (r("ends_octave").status, "ended its process (exit status 4) in test 3");
%!   assert (r("floods").score, 0);
%!   assert (r("floods").status, "flooded its output (more than 64 KiB in a call) in tests 1, 2, 3");
%!   assert (r("hog").score, 0);
%!   assert (r("hog").status, "ok");
%!   assert (r("hog").tests(1).message, "error: out of memory or dimension too large for Octave's index type (in my_twice.m, line 2) (the worker's memory limit is 1536 MiB)");
%!   assert (r("missing").score, 0);
%!   assert (r("missing").status, "missing my_twice.m");
%!   if (! strcmp (S(1).sandbox, "none"))
%!     assert (r("deletes").score, 5);
%!     assert (r("deletes").status, "ok");
%!   endif
%!   ## the outputs
%!   csv = strsplit (strtrim (fileread (fullfile (out, "grades.csv"))), "\n");
%!   assert (csv{1}, "student,score,points,time,status");
%!   assert (numel (csv), 10);
%!   assert (! isempty (regexp (csv{strncmp (csv, "good,", 5)}, '^good,5,5,[\d.]+,ok$', "once")));
%!   fb = fileread (fullfile (out, "partly_wrong", "feedback.txt"));
%!   assert (! isempty (strfind (fb, "y (2×2): element (2,1) differs: expected 6, got 2")));
%!   assert (regexp (fb, '2 of 3 tests, 2 of 5 points\n$', "once") > 0);
%!   j = jsondecode (fileread (fullfile (out, "loops", "results.json")));
%!   assert (j.score, 0);
%!   assert ({j.tests.name}, {"a scalar", "a matrix", "zero"});
%!   assert ([j.tests.max_score], [1 3 1]);
%!   assert (! isempty (strfind (j.tests(1).output, "timed out")));
%!   j = jsondecode (fileread (fullfile (out, "calls_exit", "results.json")));
%!   assert ([j.tests.score], [1 3 0]);
%!   assert (j.tests(3).output, "error: the submission called exit (in my_twice.m, line 3)");
%!   info = dir (fullfile (out, "floods", "output.log"));
%!   assert (info.bytes <= 64 * 1024);
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   [~] = rmdir (root, "s");
%! end_unwind_protect

%!test
%! ## Ctrl-C stops a class run cleanly: grades.csv holds the students graded
%! ## so far, and no grading process or worker is left
%! root = tempname ();
%! subs = fullfile (root, "submissions");
%! out = fullfile (root, "out");
%! mkdir (root);
%! mkdir (subs);
%! grader = fullfile (root, "grade_twice.m");
%! write (grader, ["## Submission: my_twice.m\n\n", ...
%!                 "%%!test\n%%! assert (my_twice (1), 2);\n\n%%!test\n%%! assert (my_twice (2), 4);\n"]);
%! for k = 1:6
%!   put (subs, sprintf ("s%d", k), "  pause (1.5);\n  y = 2 * x;");
%! endfor
%! ## its scratch folders under ROOT, to tell its processes from others'
%! mkdir (fullfile (root, "tmp"));
%! script = child_script (sprintf ("setenv ('TMPDIR', '%s'); attn_grade_class ('%s', '%s', '%s', 'jobs', 2);",
%!                                 fullfile (root, "tmp"), grader, subs, out));
%! pid = system (sprintf ("exec octave-cli --no-history --norc %s > %s 2>&1", script,
%!                        fullfile (root, "log.txt")), false, "async");
%! unwind_protect
%!   t0 = time ();
%!   while (isempty (glob (fullfile (out, "*", "feedback.txt"))) && time () - t0 < 120)
%!     pause (0.2);
%!   endwhile
%!   [~] = kill (pid, 2);
%!   t0 = time ();
%!   while (waitpid (pid, WNOHANG) != pid && time () - t0 < 60)
%!     pause (0.2);
%!   endwhile
%!   csv = strsplit (strtrim (fileread (fullfile (out, "grades.csv"))), "\n");
%!   assert (csv{1}, "student,score,points,time,status");
%!   assert (numel (csv) - 1 >= 1 && numel (csv) - 1 < 6, "%d students graded", numel (csv) - 1);
%!   assert (all (! cellfun (@isempty, regexp (csv(2:end), '^s\d,2,2,[\d.]+,ok$', "once"))));
%!   pause (0.5);
%!   ## grading processes (their environment names the submissions) and
%!   ## workers (their command line names the scratch folder)
%!   ## (a pattern that does not match the shell that runs it)
%!   [~, left] = system (sprintf ("grep -l 'ATTN_GRADE_SUB=%s' /proc/[0-9]*/environ 2>/dev/null; pgrep -f '[%s]%s/tmp/'",
%!                                subs, root(1), root(2:end)));
%!   assert (strtrim (left), "");
%! unwind_protect_cleanup
%!   [~] = kill (pid, 9);
%!   delete (script);
%!   confirm_recursive_rmdir (false, "local");
%!   [~] = rmdir (root, "s");
%! end_unwind_protect

%!test
%! ## the sandboxes without bwrap grade alike: a plain process, and as root
%! ## an unprivileged uid of its own
%! root = tempname ();
%! mkdir (root);
%! grader = fullfile (root, "grade_twice.m");
%! write (grader, ["## Submission: my_twice.m\n\n%%!test\n%%! assert (my_twice (1), 2);\n\n", ...
%!                 "%%!test\n%%! assert (my_twice ([1 2]), [2 4]);\n"]);
%! put (root, "good", "  y = x + x;");
%! put (root, "wrong", "  y = 2 * x(1);");
%! kinds = {"none"};
%! if (getuid () == 0)
%!   kinds{end+1} = "uid";
%! endif
%! unwind_protect
%!   for k = kinds
%!     R = attn_grade (grader, fullfile (root, "good"), "quiet", true, "sandbox", k{1});
%!     assert ({R.sandbox, R.score, R.status}, {k{1}, 2, "ok"});
%!     R = attn_grade (grader, fullfile (root, "wrong"), "quiet", true, "sandbox", k{1});
%!     assert ([R.tests.passed], [true false]);
%!   endfor
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   [~] = rmdir (root, "s");
%! end_unwind_protect
