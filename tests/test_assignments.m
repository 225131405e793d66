## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## The graders of doc/assignments/ run against the reference solutions (all
## tests pass), against the deliberately wrong solutions (tests fail, and
## the log carries the grading helpers' messages) and against the starters
## (every test fails).

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

## Run the grader of ASSIGNMENT with the VARIANT folder (solution, wrong,
## starter) first on the path; returns the counts and the log.
%!function [npass, ntest, log] = grade (assignment, variant)
%!  dir = fullfile (assignments_dir (), assignment);
%!  grader = fullfile (dir, ["grade_", assignment, ".m"]);
%!  logfile = [tempname(), ".log"];
%!  fid = fopen (logfile, "w");
%!  addpath (fullfile (dir, variant));
%!  unwind_protect
%!    [npass, ntest] = test (grader, "quiet", fid);
%!  unwind_protect_cleanup
%!    rmpath (fullfile (dir, variant));
%!    fclose (fid);
%!    log = fileread (logfile);
%!    delete (logfile);
%!  end_unwind_protect
%!endfunction

%!test
%! [npass, ntest, log] = grade ("cross_attention", "solution");
%! assert (ntest, 6);
%! assert (npass, ntest, log);

%!test
%! [npass, ntest, log] = grade ("cross_attention", "wrong");
%! assert (ntest, 6);
%! assert (npass < ntest);
%! ## attn_compare's report of the first wrong weight
%! assert (! isempty (regexp (log, 'A \(3×4\): element \(1,1\) differs: expected [-\d.]+, got [-\d.]+ \(difference')));

%!test
%! [npass, ntest, log] = grade ("cross_attention", "starter");
%! assert (npass, 0);
%! assert (! isempty (strfind (log, "not written yet")));

%!test
%! [npass, ntest, log] = grade ("masked_backward", "solution");
%! assert (ntest, 5);
%! assert (npass, ntest, log);

%!test
%! [npass, ntest, log] = grade ("masked_backward", "wrong");
%! assert (ntest, 5);
%! assert (npass < ntest);
%! ## attn_compare names dX; attn_gradcheck's table fails X and only X
%! assert (! isempty (regexp (log, 'dX \(3×3\): element \(1,1\) differs: expected [-\d.]+, got [-\d.]+')));
%! assert (! isempty (regexp (log, '\nX +3×3 +9 .* FAIL\n')));
%! assert (! isempty (strfind (log, "1 of 5 parameters FAIL")));

%!test
%! [npass, ntest, log] = grade ("masked_backward", "starter");
%! assert (npass, 0);
