## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## doc/tutorial.ipynb, the tutorial as a Jupyter notebook: the committed
## notebook is what tools/tutorial_notebook.m makes of doc/tutorial.md
## (so the two never drift), and, where jupyter nbconvert and the Octave
## kernel (Debian: jupyter-nbconvert, python3-octave-kernel) are
## installed, it runs from top to bottom, its cells print what the
## tutorial says they print (tests/reference/tutorial_check_outputs.m,
## as tests/test_tutorial.m checks the same blocks at the prompt) and its
## figure cells draw their figures (PNG).  The training runs are
## shortened, and section 8 opens the fixture checkpoints, as
## tests/test_tutorial.m does.  Without the tools
## that test is counted as skipped.

%!function root = tree_root ()
%!  root = fileparts (package_dir ());
%!  if (! exist (fullfile (root, "tools", "tutorial_notebook.m"), "file"))
%!    error ("tools/tutorial_notebook.m not found under %s", root);
%!  endif
%!  addpath (fullfile (root, "tools"));
%!endfunction

%!function items = as_cell (x)
%!  ## jsondecode gives a struct array for a list of like objects and a
%!  ## cell array otherwise
%!  if (iscell (x))
%!    items = x(:)';
%!  else
%!    items = num2cell (x(:)');
%!  endif
%!endfunction

%!function t = source_text (c)
%!  t = c.source;
%!  if (iscell (t))
%!    t = [t{:}];
%!  endif
%!endfunction

%!function ok = notebook_tools ()
%!  ## jupyter nbconvert, and the Octave kernel among the kernels it finds
%!  ok = false;
%!  [st, ~] = system ("jupyter nbconvert --version 2>&1");
%!  if (st != 0)
%!    return;
%!  endif
%!  [st, out] = system ("jupyter --paths --json 2>/dev/null");
%!  if (st != 0)
%!    return;
%!  endif
%!  paths = jsondecode (out);
%!  for d = as_cell (paths.data)
%!    if (exist (fullfile (d{1}, "kernels", "octave", "kernel.json"), "file"))
%!      ok = true;
%!      return;
%!    endif
%!  endfor
%!endfunction

%!function write_text (file, text)
%!  fid = fopen (file, "w");
%!  fwrite (fid, text);
%!  fclose (fid);
%!endfunction

%!test
%! ## the generator: code cells for the octave blocks, Markdown between
%! ## them (with the shell block), the path block becomes the loading
%! ## cell, a figure written to a file gets an output (and so stays open)
%! tree_root ();
%! md = [tempname() ".md"];
%! write_text (md, ["# T\n\nSet up:\n\n```sh\nmake\n```\n\n", ...
%!                  "```octave\naddpath ([pwd \"/src\"], [pwd \"/inst\"]);\n```\n\n", ...
%!                  "Say \"hi\"\\n\ttab:\n\n", ...
%!                  "```octave\nx = 1\nattn_heatmap (A, \"file\", \"a.png\",\n", ...
%!                  "              \"title\", \"t\");\nattn_heatmap (A)\n```\nend ×\n"]);
%! unwind_protect
%!   json = tutorial_notebook (md);
%!   assert (tutorial_notebook (md), json);        # the same text every time
%! unwind_protect_cleanup
%!   delete (md);
%! end_unwind_protect
%! nb = jsondecode (json);
%! assert ([nb.nbformat, nb.nbformat_minor], [4, 5]);
%! assert (nb.metadata.kernelspec.name, "octave");
%! c = as_cell (nb.cells);
%! assert (numel (c), 6);
%! types = cellfun (@(x) x.cell_type, c, "UniformOutput", false);
%! assert (types, {"markdown", "markdown", "code", "markdown", "code", "markdown"});
%! assert (! isempty (strfind (source_text (c{1}), "make notebook")));
%! assert (source_text (c{2}), "# T\n\nSet up:\n\n```sh\nmake\n```");
%! assert (! isempty (strfind (source_text (c{3}), "pkg load attention")));
%! assert (strncmp (source_text (c{3}), "%plot -r 100\n", 13));
%! assert (isempty (strfind (source_text (c{3}), "[pwd")));
%! assert (source_text (c{4}), "Say \"hi\"\\n\ttab:");
%! assert (source_text (c{5}), ["x = 1\nfig = attn_heatmap (A, \"file\", \"a.png\",\n", ...
%!                              "                    \"title\", \"t\");\nattn_heatmap (A)"]);
%! assert (source_text (c{6}), "end ×");
%! assert (isempty (c{5}.outputs));
%! ids = cellfun (@(x) x.id, c, "UniformOutput", false);
%! assert (numel (unique (ids)), 6);

%!test
%! ## a tutorial without the block that sets up the path, or without any
%! ## block, is refused
%! tree_root ();
%! md = [tempname() ".md"];
%! unwind_protect
%!   write_text (md, "# T\n\n```octave\nx = 1\n```\n");
%!   try
%!     tutorial_notebook (md);
%!     error ("no error");
%!   catch err
%!     assert (err.message, 'tutorial_notebook: no block sets up the path (addpath ([pwd "/src"], ...))');
%!   end_try_catch
%!   write_text (md, "# T\n\n```sh\nmake\n```\n");
%!   try
%!     tutorial_notebook (md);
%!     error ("no error");
%!   catch err
%!     assert (err.message, "tutorial_notebook: no ```octave blocks in the tutorial");
%!   end_try_catch
%! unwind_protect_cleanup
%!   delete (md);
%! end_unwind_protect

%!test
%! ## the committed notebook is the generator's output for the tutorial:
%! ## after an edit of doc/tutorial.md, run make notebook
%! root = tree_root ();
%! made = tutorial_notebook (fullfile (root, "doc", "tutorial.md"));
%! committed = fileread (fullfile (root, "doc", "tutorial.ipynb"));
%! assert (strcmp (committed, made), true,
%!         "doc/tutorial.ipynb differs from what make notebook makes of doc/tutorial.md");
%! ## one code cell per block of the tutorial, in order
%! nb = jsondecode (committed);
%! code = cellfun (@source_text, as_cell (nb.cells)(cellfun (@(c) strcmp (c.cell_type, "code"),
%!                 as_cell (nb.cells))), "UniformOutput", false);
%! blocks = tutorial_blocks (fileread (fullfile (root, "doc", "tutorial.md")));
%! assert (numel (code), numel (blocks));
%! assert (! isempty (strfind (code{1}, "pkg load attention")));
%! ## the same code but for the figures' outputs (and the spaces that
%! ## align continuation lines under them)
%! squeeze = @(t) regexprep (regexprep (t, '\n+$', ""), ' +', " ");
%! for k = 2:numel (code)
%!   assert (squeeze (strrep (code{k}, "fig = ", "")), squeeze (blocks{k}));
%! endfor

%!test
%! ## the loading cell, run in a fresh Octave from doc/ of the source tree
%! ## (where Jupyter starts the kernel of doc/tutorial.ipynb), puts this
%! ## tree's package on the path
%! root = tree_root ();
%! nb = jsondecode (fileread (fullfile (root, "doc", "tutorial.ipynb")));
%! c = as_cell (nb.cells);
%! code = source_text (c{find (cellfun (@(x) strcmp (x.cell_type, "code"), c), 1)});
%! file = [tempname() ".m"];
%! write_text (file, [code, "\nprintf ('found %s\\n', which ('attn_sdpa'));\n"]);
%! unwind_protect
%!   [st, out] = system (sprintf ("cd '%s' && '%s' --no-history --no-init-file --no-gui --eval 'source (\"%s\")' 2>&1",
%!                                fullfile (root, "doc"), fullfile (OCTAVE_HOME (), "bin", "octave-cli"), file));
%! unwind_protect_cleanup
%!   delete (file);
%! end_unwind_protect
%! assert (st == 0, out);
%! assert (strtrim (out), ["found ", fullfile(root, "src", "attn_sdpa.mex")]);

%!testif ; notebook_tools ()
%! root = tree_root ();
%! dir = tempname ();
%! mkdir (dir);
%! unwind_protect
%!   ## the notebook of the tutorial with the short training runs and
%!   ## section 8 on the fixture checkpoints: the committed one but for these
%!   ck = tutorial_checkpoints ();
%!   prep = @(code) tutorial_checkpoints (tutorial_shorten (code), ck);
%!   md = fullfile (dir, "tutorial.md");
%!   write_text (md, prep (fileread (fullfile (root, "doc", "tutorial.md"))));
%!   nbfile = fullfile (dir, "tutorial.ipynb");
%!   tutorial_notebook (md, nbfile);
%!   short = as_cell (jsondecode (fileread (nbfile)).cells);
%!   full = as_cell (jsondecode (fileread (fullfile (root, "doc", "tutorial.ipynb"))).cells);
%!   assert (numel (short), numel (full));
%!   is_code = cellfun (@(c) strcmp (c.cell_type, "code"), full);
%!   assert (cellfun (@source_text, short, "UniformOutput", false)(is_code),
%!           prep (cellfun (@source_text, full(is_code), "UniformOutput", false)));
%!   assert (cellfun (@source_text, short, "UniformOutput", false)(! is_code),
%!           cellfun (@source_text, full(! is_code), "UniformOutput", false));
%!   ## run it with the package on the kernel's path (OCTAVE_PATH), in a
%!   ## folder of its own (the figures and pages it writes)
%!   dirs = unique ({fileparts(which ("attn_sdpa")), package_dir()});
%!   cmd = sprintf (["cd '%s' && OCTAVE_PATH='%s' timeout -k 10 900 jupyter nbconvert ", ...
%!                   "--to notebook --execute --ExecutePreprocessor.timeout=600 ", ...
%!                   "--output executed.ipynb tutorial.ipynb 2>&1"],
%!                  dir, strjoin (dirs, pathsep ()));
%!   t0 = time ();
%!   [st, log] = system (cmd);
%!   printf ("notebook executed in %.0f s\n", time () - t0);
%!   assert (st == 0, "jupyter nbconvert failed:\n%s", log);
%!   cells = as_cell (jsondecode (fileread (fullfile (dir, "executed.ipynb"))).cells);
%!   cells = cells(cellfun (@(c) strcmp (c.cell_type, "code"), cells));
%!   outs = cell (size (cells));
%!   npng = 0;
%!   for k = 1:numel (cells)
%!     outs{k} = "";
%!     images = {};
%!     for o = as_cell (cells{k}.outputs)
%!       o = o{1};
%!       switch (o.output_type)
%!         case "stream"
%!           outs{k} = [outs{k}, source_text(struct ("source", {o.text}))];
%!         case {"display_data", "execute_result"}
%!           if (isfield (o.data, "image_png"))
%!             png = o.data.image_png;
%!             if (iscell (png))
%!               png = [png{:}];
%!             endif
%!             ## a PNG: its signature, base64-encoded
%!             png = regexprep (png, '\s', "");
%!             assert (strncmp (png, "iVBORw0KGgo", 11), true);
%!             images{end+1} = matlab.net.base64decode (png);
%!           endif
%!         case "error"
%!           error ("cell %d: %s: %s", k, o.ename, o.evalue);
%!       endswitch
%!     endfor
%!     ## each figure the cell writes to a file is drawn below it, the
%!     ## same image as the file, and no other
%!     files = regexp (source_text (cells{k}), 'fig = attn_\w+ \([^;]*?"file", "([^"]+)"', "tokens");
%!     assert (numel (images) == numel (files), "cell %d: %d figures drawn, %d written",
%!             k, numel (images), numel (files));
%!     for i = 1:numel (files)
%!       fid = fopen (fullfile (dir, files{i}{1}), "r");
%!       saved = fread (fid, Inf, "uint8=>uint8");
%!       fclose (fid);
%!       ## (the kernel draws a cell's figures newest first)
%!       assert (any (cellfun (@(im) isequal (im(:), saved), images)),
%!               "cell %d: no figure drawn is %s", k, files{i}{1});
%!     endfor
%!     npng += numel (images);
%!   endfor
%!   assert (npng, 6);
%!   blocks = prep (tutorial_blocks (fileread (fullfile (root, "doc", "tutorial.md"))));
%!   tutorial_check_outputs (blocks, outs);
%!   for png = {"alignment.png", "loss.png", "cross_layer2.png", "encoder_layer1.png", "lm_loss.png", ...
%!              "opus_cross.png"}
%!     assert (exist (fullfile (dir, png{1}), "file"), 2);
%!   endfor
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (dir, "s");
%!   if (exist ("ck", "var"))
%!     rmdir (ck, "s");
%!   endif
%! end_unwind_protect
