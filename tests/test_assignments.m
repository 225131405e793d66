## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## The graders of doc/assignments/ against their own material: the
## reference solution gets full marks, every planted mistake loses marks,
## the starter gets none (attn_grade_selftest); the feedback of a few
## mistakes names the first wrong quantity in the order of the
## computation; a call of a forbidden function fails.  The training-step
## assignment is tested in test_grade_train_step.m.

%!function d = assignments_dir ()
%!  ## source tree: inst/../doc; installed package: doc beside the functions
%!  here = package_dir ();
%!  for d = {fullfile(here, "doc", "assignments"), fullfile(fileparts (here), "doc", "assignments")}
%!    if (exist (d{1}, "dir"))
%!      d = d{1};
%!      return;
%!    endif
%!  endfor
%!  error ("doc/assignments not found near %s", here);
%!endfunction

%!function rows = check_selftest (assignment, min_wrong)
%!  [ok, rows] = attn_grade_selftest (fullfile (assignments_dir (), assignment));
%!  txt = sprintf ("%s: %g of %g (failed %s)\n", [{rows.variant}; {rows.score}; {rows.points};
%!                 cellfun(@num2str, {rows.failed}, "uniformoutput", false)]{:});
%!  assert (ok, "%s", txt);
%!  assert (rows(1).score, rows(1).points);
%!  assert (numel (rows) - 2 >= min_wrong, "only %d wrong solutions", numel (rows) - 2);
%!endfunction

## A submission whose FILE holds CODE, a call of the package's NAME (the
## readable reference of what the assignment asks), fails every test:
## the grader forbids NAME
%!function check_forbidden (assignment, file, code, name)
%!  dir = fullfile (assignments_dir (), assignment);
%!  tmp = tempname ();
%!  mkdir (tmp);
%!  unwind_protect
%!    fid = fopen (fullfile (tmp, file), "w");
%!    fputs (fid, code);
%!    fclose (fid);
%!    R = attn_grade (fullfile (dir, ["grade_" assignment ".m"]), tmp, "quiet", true);
%!    assert (R.status, "ok");
%!    assert (! any ([R.tests.passed]));
%!    assert (all (! cellfun (@isempty, strfind ({R.tests.message},
%!                                               [name " may not be used in this assignment"]))),
%!            "%s", strjoin ({R.tests.message}, "\n"));
%!  unwind_protect_cleanup
%!    confirm_recursive_rmdir (false, "local");
%!    rmdir (tmp, "s");
%!  end_unwind_protect
%!endfunction

## The report of the planted mistake NAME
%!function R = report (rows, name)
%!  R = rows(strcmp ({rows.variant}, ["wrong/", name])).report;
%!endfunction

%!test
%! rows = check_selftest ("softmax", 8);
%! assert (find (! [report(rows, "no_max").tests.passed]), [3 6]);
%! ## a submission that calls the package's softmax (the grader forbids it)
%! ## fails the tests that call it, and only those
%! dir = fullfile (assignments_dir (), "softmax");
%! tmp = tempname ();
%! mkdir (tmp);
%! unwind_protect
%!   copyfile (fullfile (dir, "solution", "my_softmax_backward.m"), tmp);
%!   fid = fopen (fullfile (tmp, "my_softmax.m"), "w");
%!   fputs (fid, "function A = my_softmax (S, varargin)\n  A = attn_softmax (S, varargin{:});\nendfunction\n");
%!   fclose (fid);
%!   R = attn_grade (fullfile (dir, "grade_softmax.m"), tmp, "quiet", true);
%!   failed = ! [R.tests.passed];
%!   assert (any (failed) && ! all (failed));
%!   assert (all (! cellfun (@isempty, strfind ({R.tests(failed).message},
%!                                              "attn_softmax may not be used in this assignment"))));
%!   assert (R.status, "ok");
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (tmp, "s");
%! end_unwind_protect

%!test
%! rows = check_selftest ("cross_attention", 8);
%! ## softmax down the columns: A is the first wrong matrix, after it
%! ## message, delta and out
%! R = report (rows, "down_columns");
%! assert (regexp (R.tests(1).message, '^A \(3×4\): element \(1,1\) differs: expected [-\d.]+, got [-\d.]+ \(difference .*\); also differ: message, delta, out$', "once"), 1);
%! ## no max subtraction: only the large scores fail, A = NaN where the kernel has 1
%! R = report (rows, "no_max");
%! assert (find (! [R.tests.passed]), 4);
%! assert (regexp (R.tests(4).message, '^A \(2×2\): element \(1,1\) differs: expected 1, got NaN', "once"), 1);
%! assert (regexp (R.text, '6 of 7 tests, 9 of 11 points\n$', "once") > 0);

%!test
%! check_forbidden ("cross_attention", "my_cross_attention.m",
%!                  sprintf (['function [Y, T] = my_cross_attention (D, E, B, key_allow = [])\n', ...
%!                            '  [Y, T] = attn_ref_block ("cross", D, E, B, key_allow);\nendfunction\n']),
%!                  "attn_ref_block");
%! check_forbidden ("masked_backward", "my_masked_backward.m",
%!                  sprintf (['function G = my_masked_backward (dY, T, B)\n', ...
%!                            '  G = attn_ref_block_backward (dY, T, B);\nendfunction\n']),
%!                  "attn_ref_block_backward");

%!test
%! rows = check_selftest ("masked_backward", 8);
%! ## a wrong dmessage: named first, and everything below it after
%! R = report (rows, "dmessage_transposed");
%! assert (regexp (R.tests(2).message, '^dmessage \(3×3\): element .* also differ: dA, dV, W_V, dscores, dQ, dK, W_Q, W_K, dX$', "once"), 1);
%! ## the weights' test names W_V first: W_O is right
%! assert (regexp (R.tests(1).message, '^W_V \(3×3\)', "once"), 1);
%! ## a forgotten residual: only dX, and the gradient check fails X alone
%! R = report (rows, "no_residual");
%! assert (regexp (R.tests(1).message, '^dX \(3×3\): element \(1,1\) differs: expected [-\d.]+, got [-\d.]+ \([^;]*$', "once"), 1);
%! assert (! isempty (regexp (R.tests(4).message, '\nX +3×3 +9 .* FAIL\n', "once")));
%! assert (! isempty (strfind (R.tests(4).message, "1 of 5 parameters FAIL")));
