## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## post_install (desc): called by pkg install once the files are in place.
##
## pkg copies the MEX files (src/*.mex) into the architecture folder of the
## installed package and their help-only stubs (src/*.m) into the package
## folder.  That folder comes later on the path, and Octave prefers a MEX
## file over an .m file only within one folder, so the stubs are moved next
## to their MEX files: calls then run the MEX, while help, test and doctest
## read the stub.  The reference manual doc.info goes there too, since
## doc NAME opens the doc.info that lies beside NAME's file.

function post_install (desc)
  mex_files = glob (fullfile (desc.archprefix, "*", "*.mex"));
  manual = fullfile (desc.dir, "doc.info");
  archdirs = unique (cellfun (@fileparts, mex_files, "uniformoutput", false));
  if (! exist (manual, "file"))         # a source folder without make docs
    archdirs = {};
  endif
  for i = 1:numel (archdirs)
    [status, msg] = copyfile (manual, archdirs{i});
    if (! status)
      error ("attention: post_install: cannot copy %s to %s: %s",
             manual, archdirs{i}, msg);
    endif
  endfor
  for i = 1:numel (mex_files)
    [archdir, name] = fileparts (mex_files{i});
    stub = fullfile (desc.dir, [name ".m"]);
    if (exist (stub, "file"))
      [status, msg] = movefile (stub, archdir);
      if (! status)
        error ("attention: post_install: cannot move %s to %s: %s",
               stub, archdir, msg);
      endif
    endif
  endfor
endfunction
