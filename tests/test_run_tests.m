## Tests of the counting runner tests/run_tests.m on a throwaway tree whose
## outcomes are known by construction: passing, failing, malformed,
## crashing, hanging and skipped test files, and a private function's tests.

%!function root = make_tree (files)
%!  root = tempname ();
%!  here = fileparts (which ("run_tests"));
%!  for f = {"src", "inst/private", "tests/unit"}
%!    mkdir (fullfile (root, f{1}));
%!  endfor
%!  copyfile (fullfile (here, "run_tests.m"), fullfile (root, "tests"));
%!  files = files.'(:);                 # rows of {name, content} pairs
%!  for i = 1:2:numel (files)
%!    fid = fopen (fullfile (root, files{i}), "w");
%!    fputs (fid, files{i+1});
%!    fclose (fid);
%!  endfor
%!endfunction

%!function [status, out] = run_tree (root)
%!  ## from ROOT, so that no other run_tests.m shadows the copy
%!  cmd = sprintf (["cd '%s' && ATTN_TEST_TIMEOUT=5 %s --no-history " ...
%!                  "--no-init-file --eval \"addpath ('%s'); " ...
%!                  "exit (run_tests () > 0)\" 2>&1"],
%!                 root, fullfile (OCTAVE_HOME (), "bin", "octave-cli"),
%!                 fullfile (root, "tests"));
%!  [status, out] = system (cmd);
%!  confirm_recursive_rmdir (false, "local");
%!  rmdir (root, "s");
%!endfunction

%!function last = last_line (out)
%!  lines = strsplit (strtrim (out), "\n");
%!  last = lines{end};
%!endfunction

%!test
%! ## 2 + 1 + 1 passes; a failing assert, a parse error, a crash and a hang
%! ## each count as one failure, and the exit status says so
%! root = make_tree ({
%!   "inst/good.m", "function y = good (x)\n  y = twice (x);\nendfunction\n%!assert (good (1), 2)\n%!assert (good (2), 4)\n",
%!   "inst/private/twice.m", "function y = twice (x)\n  y = 2 * x;\nendfunction\n%!assert (twice (3), 6)\n",
%!   "tests/unit/test_mixed.m", "%!assert (1, 1)\n%!assert (1, 2)\n",
%!   "tests/unit/test_parse.m", "%!test\n%! x = [1 2\n",
%!   "tests/unit/test_crash.m", "%!test\n%! kill (getpid (), 11);\n",
%!   "tests/unit/test_hang.m", "%!test\n%! while (true)\n%! endwhile\n",
%!   "tests/unit/helper.m", "%!assert (false)\n"});
%! [status, out] = run_tree (root);
%! assert (last_line (out), "4 passed, 4 failed, 0 skipped");
%! assert (status, 1);
%! assert (! isempty (strfind (out, "tests/unit/test_crash.m: crashed (signal 11)")));
%! assert (! isempty (strfind (out, "tests/unit/test_hang.m: timed out")));
%! assert (isempty (strfind (out, "helper.m")));

%!test
%! ## an all-passing tree exits 0; tests whose condition does not hold here
%! ## (a run-time condition, a feature Octave lacks) count as skipped
%! root = make_tree ({"tests/unit/test_ok.m", "%!assert (true)\n%!assert (2, 2)\n",
%!                    "tests/unit/test_skip.m", ["%!testif ; false\n%! error ('ran');\n", ...
%!                                               "%!testif HAVE_NO_SUCH_FEATURE\n%! error ('ran');\n"]});
%! [status, out] = run_tree (root);
%! assert (last_line (out), "2 passed, 0 failed, 2 skipped");
%! assert (status, 0);
