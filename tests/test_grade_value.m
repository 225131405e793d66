## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## The tests of the private grade_value (the values that cross from a
## grading worker to the grader), run from its own folder as run_tests
## does for private files, so that `test tests/test_grade_value.m` checks
## it from anywhere.  The tests themselves live in
## inst/private/grade_value.m, once.

%!test
%! d = fullfile ("..", "inst", "private");
%! if (! isfolder (d))
%!   d = fullfile ("inst", "private");
%! endif
%! file = fullfile (canonicalize_file_name (d), "grade_value.m");
%! old = pwd ();
%! unwind_protect
%!   cd (fileparts (file));
%!   [npass, ntests] = test (file, "quiet", stdout);
%! unwind_protect_cleanup
%!   cd (old);
%! end_unwind_protect
%! assert (ntests >= 20);
%! assert (npass, ntests);
