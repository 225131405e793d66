## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {@var{file} =} tutorial_file (@var{name})
## The path of @file{doc/@var{name}} (default @file{tutorial.md}) of the
## package being tested: in the source tree (beside @file{inst/}) or in an
## installed copy (its @file{doc/}).  An error when there is none.
## @end deftypefn

function file = tutorial_file (name = "tutorial.md")
  here = package_dir ();
  for f = {fullfile(here, "doc", name), fullfile(fileparts (here), "doc", name)}
    if (exist (f{1}, "file"))
      file = f{1};
      return;
    endif
  endfor
  error ("doc/%s not found near %s", name, here);
endfunction
