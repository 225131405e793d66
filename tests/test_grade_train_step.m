## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## The grader of doc/assignments/train_step against its own material: the
## solution gets full marks, each of the planted wrong solutions loses
## marks, the starter gets none; and a wrong bias gradient is reported as
## the first wrong quantity of the backward pass.

%!test
%! here = fileparts (package_dir ());
%! dir = fullfile (here, "doc", "assignments", "train_step");
%! [ok, rows] = attn_grade_selftest (dir);
%! txt = sprintf ("%s: %g of %g\n", [{rows.variant}; {rows.score}; {rows.points}]{:});
%! assert (ok, "%s", txt);
%! assert (numel (rows) - 2 >= 8);
%! ## each gradient path forgotten in turn is among them
%! for v = {"no_onehot", "no_bias_grad", "dD_no_residual", "dE_no_value_path", "sgd_head_only"}
%!   assert (any (strcmp (["wrong/", v{1}], {rows.variant})), v{1});
%! endfor
%! ## a wrong bias gradient is the first wrong quantity of the backward pass
%! R = rows(strcmp ({rows.variant}, "wrong/no_bias_grad")).report;
%! assert (regexp (R.tests(4).message, '^b_vocab \(1×5\): element \(1,1\) differs: expected [-\d.e]+, got 0 ', "once"), 1);
%! ## calling attn_loss, which the grader forbids, fails every test
%! assert (rows(strcmp ({rows.variant}, "wrong/calls_attn_loss")).score, 0);
