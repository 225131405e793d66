## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## Every Octave command of doc/tutorial.md runs, in order, in one session.
## The training run is shortened (fewer pairs, one epoch): what is checked
## is that the commands work, not how well the short run translates.

%!function file = tutorial_file (name = "tutorial.md")
%!  here = fileparts (which ("attn_compare"));
%!  for f = {fullfile(here, "doc", name), fullfile(fileparts (here), "doc", name)}
%!    if (exist (f{1}, "file"))
%!      file = f{1};
%!      return;
%!    endif
%!  endfor
%!  error ("doc/%s not found near %s", name, here);
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

%!test
%! ## one black cat: make demo's step and grid are seed 004's numbers and
%! ## those of attn_toy ("blackcat"), which the tutorial shows
%! out = evalc ("run (tutorial_file (\"attention_demo.m\"))");
%! w = str2double (strsplit (regexp (out, 'softmax weights +\[([^\]]*)\]', "tokens", "once"){1}));
%! assert (w, [0.08 0.22 0.61 0.08]);             # seed 004's softmax row
%! assert (! isempty (regexp (out, 'scores q\*K'' +\[0 2 4 0\]')));
%! assert (isempty (strfind (out, "<end>")));
%! [text, info] = attn_greedy (attn_toy ("blackcat"), "the black cat");
%! assert (text, "le chat noir");
%! for i = 1:numel (info.tokens)
%!   row = regexp (out, ['\n +', regexptranslate("escape", info.tokens{i}), '((?: +[\d.]+){4})\n'],
%!                 "tokens", "once");
%!   assert (str2double (strsplit (strtrim (row{1}))), round (100 * info.A(i,:,1,1)) / 100);
%! endfor
%! ## the tutorial states the same row
%! assert (! isempty (strfind (fileread (tutorial_file ()), "[0.08 0.22 0.61 0.08]")));
