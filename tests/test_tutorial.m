## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## Every Octave command of doc/tutorial.md runs, in order, in one session.
## The training run is shortened (fewer pairs, one epoch): what is checked
## is that the commands work, not how well the short run translates.

%!function file = tutorial_file ()
%!  here = fileparts (which ("attn_compare"));
%!  for f = {fullfile(here, "doc", "tutorial.md"), fullfile(fileparts (here), "doc", "tutorial.md")}
%!    if (exist (f{1}, "file"))
%!      file = f{1};
%!      return;
%!    endif
%!  endfor
%!  error ("doc/tutorial.md not found near %s", here);
%!endfunction

%!function run_tutorial_code (code__)
%!  ## in a function of its own: the tutorial's variables stay here
%!  evalc (code__);
%!endfunction

%!test
%! text = fileread (tutorial_file ());
%! blocks = regexp (text, '```octave\n(.*?)```', "tokens");
%! assert (numel (blocks) >= 15);
%! code = strjoin (cellfun (@(b) b{1}, blocks, "UniformOutput", false), "\n");
%! ## the package is already on the path
%! code = strrep (code, 'addpath ([pwd "/src"], [pwd "/inst"]);', "");
%! ## a short training run
%! code = strrep (code, '"n_train", 1000', '"n_train", 150');
%! code = strrep (code, '"epochs", 8', '"epochs", 1');
%! assert (isempty (strfind (code, '"epochs", 8')));
%! old = pwd ();
%! dir = tempname ();
%! mkdir (dir);
%! unwind_protect
%!   cd (dir);
%!   run_tutorial_code (code);
%!   for png = {"alignment.png", "loss.png", "cross_layer2.png", "encoder_layer1.png"}
%!     assert (exist (fullfile (dir, png{1}), "file"), 2);
%!   endfor
%! unwind_protect_cleanup
%!   cd (old);
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (dir, "s");
%! end_unwind_protect
