## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## post_install (desc): called by pkg install once the files are in place.
##
## pkg copies the MEX files (src/*.mex) into the architecture folder of the
## installed package and their help-only stubs (src/*.m) into the package
## folder.  That folder comes later on the path, and Octave prefers a MEX
## file over an .m file only within one folder, so the stubs are moved next
## to their MEX files: calls then run the MEX, while help, test and doctest
## read the stub.  The reference manual doc.info goes there too, and into
## each topic folder, since doc NAME opens the doc.info that lies beside
## NAME's file.  pkg indexes the help texts of the package folder for
## lookfor; the topic folders get their own index here.

function post_install (desc)
  mex_files = glob (fullfile (desc.archprefix, "*", "*.mex"));
  manual = fullfile (desc.dir, "doc.info");
  archdirs = unique (cellfun (@fileparts, mex_files, "uniformoutput", false));
  topics = glob (fullfile (desc.dir, "*", filesep ()));
  topics = cellfun (@(d) d(1:end-1), topics, "uniformoutput", false);
  topics(! cellfun (@(d) numel (glob (fullfile (d, "*.m"))), topics)) = [];
  topics(! cellfun (@isempty, regexp (topics, '[/\\]private$', "once"))) = [];
  for i = 1:numel (topics)
    doc_cache_create (fullfile (topics{i}, "doc-cache"), topics{i});
  endfor
  if (! exist (manual, "file"))         # a source folder without make docs
    archdirs = topics = {};
  endif
  for d = [archdirs(:); topics(:)]'
    [status, msg] = copyfile (manual, d{1});
    if (! status)
      error ("attention: post_install: cannot copy %s to %s: %s",
             manual, d{1}, msg);
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
