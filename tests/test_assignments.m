## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## The graders of doc/assignments/ against their own material: the
## reference solution gets full marks, every planted wrong solution loses
## marks, the starter gets none (attn_grade_selftest); and the feedback of
## a few wrong solutions names the first wrong quantity in the order of
## the computation.  The training-step assignment is tested in
## test_grade_train_step.m.

%!function d = assignments_dir ()
%!  ## source tree: inst/../doc; installed package: doc beside the functions
%!  here = fileparts (which ("attn_compare"));
%!  for d = {fullfile(here, "doc", "assignments"), fullfile(fileparts (here), "doc", "assignments")}
%!    if (exist (d{1}, "dir"))
%!      d = d{1};
%!      return;
%!    endif
%!  endfor
%!  error ("doc/assignments not found near %s", here);
%!endfunction

%!function check_selftest (assignment, min_wrong)
%!  [ok, rows] = attn_grade_selftest (fullfile (assignments_dir (), assignment));
%!  txt = sprintf ("%s: %g of %g (failed %s)\n", [{rows.variant}; {rows.score}; {rows.points};
%!                 cellfun(@num2str, {rows.failed}, "uniformoutput", false)]{:});
%!  assert (ok, "%s", txt);
%!  assert (rows(1).score, rows(1).points);
%!  assert (numel (rows) - 2 >= min_wrong, "only %d wrong solutions", numel (rows) - 2);
%!endfunction

## The report of WRONG (a folder of wrong/) overlaid on the solution
%!function R = grade_wrong (assignment, wrong)
%!  dir = fullfile (assignments_dir (), assignment);
%!  tmp = tempname ();
%!  mkdir (tmp);
%!  unwind_protect
%!    copyfile (fullfile (dir, "solution", "*"), tmp);
%!    copyfile (fullfile (dir, "wrong", wrong, "*"), tmp);
%!    R = attn_grade (fullfile (dir, ["grade_", assignment, ".m"]), tmp, "quiet", true);
%!  unwind_protect_cleanup
%!    confirm_recursive_rmdir (false, "local");
%!    rmdir (tmp, "s");
%!  end_unwind_protect
%!endfunction

%!test
%! check_selftest ("softmax", 8);

%!test
%! check_selftest ("cross_attention", 8);

%!test
%! check_selftest ("masked_backward", 8);

%!test
%! ## softmax down the columns: A is the first wrong matrix, after it
%! ## message, delta and out
%! R = grade_wrong ("cross_attention", "down_columns");
%! assert (regexp (R.tests(1).message, '^A \(3×4\): element \(1,1\) differs: expected [-\d.]+, got [-\d.]+ \(difference .*\); also differ: message, delta, out$', "once"), 1);
%! ## no max subtraction: only the large scores fail, A = NaN where the kernel has 1
%! R = grade_wrong ("cross_attention", "no_max");
%! assert (find (! [R.tests.passed]), 4);
%! assert (regexp (R.tests(4).message, '^A \(2×2\): element \(1,1\) differs: expected 1, got NaN', "once"), 1);
%! assert (regexp (R.text, '6 of 7 tests, 9 of 11 points\n$', "once") > 0);

%!test
%! ## a wrong dmessage: named first, and everything below it after
%! R = grade_wrong ("masked_backward", "dmessage_transposed");
%! assert (regexp (R.tests(2).message, '^dmessage \(3×3\): element .* also differ: dA, dV, W_V, dscores, dQ, dK, W_Q, W_K, dX$', "once"), 1);
%! ## the weights' test names W_V first: W_O is right
%! assert (regexp (R.tests(1).message, '^W_V \(3×3\)', "once"), 1);
%! ## a forgotten residual: only dX, and the gradient check fails X alone
%! R = grade_wrong ("masked_backward", "no_residual");
%! assert (regexp (R.tests(1).message, '^dX \(3×3\): element \(1,1\) differs: expected [-\d.]+, got [-\d.]+ \([^;]*$', "once"), 1);
%! assert (! isempty (regexp (R.tests(4).message, '\nX +3×3 +9 .* FAIL\n', "once")));
%! assert (! isempty (strfind (R.tests(4).message, "1 of 5 parameters FAIL")));
