## The package's metadata agrees with its files: DESCRIPTION has what
## pkg install needs, INDEX lists exactly the public functions, every MEX
## gateway has a help stub and a build target, every public function has
## Texinfo help.

%!shared root, public
%! root = fileparts (fileparts (which ("attn_sdpa")));    # src/attn_sdpa.mex
%! names = @(files) cellfun (@(f) nthargout (2, @fileparts, f), files,
%!                           "uniformoutput", false);
%! topic_files = glob (fullfile (root, "inst", "*", "*.m"));
%! topic_files(! cellfun (@isempty, strfind (topic_files, [filesep() "private" filesep()]))) = [];
%! public = unique ([names(topic_files); names(glob (fullfile (root, "src", "*.m")))]);

%!test
%! ## inst/: no function at the top, only topic folders, each put on the
%! ## path by PKG_ADD, taken off by PKG_DEL, and its link to the shared
%! ## helpers in ../private (links are what pkg install copies as they are)
%! inst = fullfile (root, "inst");
%! assert (isempty (glob (fullfile (inst, "*.m"))));
%! entries = dir (inst);
%! topics = sort ({entries([entries.isdir] & ! strncmp ({entries.name}, ".", 1)).name});
%! topics(strcmp (topics, "private")) = [];
%! for file = {"PKG_ADD", "PKG_DEL"}
%!   braces = regexp (fileread (fullfile (inst, file{1})), '\{([^}]*)\}', "tokens", "once");
%!   listed = regexp (braces{1}, '"(\w+)"', "tokens");
%!   assert (sort ([listed{:}]), topics, file{1});
%! endfor
%! for t = topics
%!   link = fullfile (inst, t{1}, "private");
%!   if (exist (link, "dir"))
%!     assert (readlink (link), fullfile ("..", "private"), link);
%!   endif
%! endfor

%!test
%! ## the fields pkg install reads, and a version that make dist can name
%! txt = fileread (fullfile (root, "DESCRIPTION"));
%! for f = {"Name", "Version", "Date", "Author", "Maintainer", "Title", ...
%!          "Description", "Depends", "License"}
%!   assert (! isempty (regexp (txt, ["(?m)^" f{1} ":\\s*\\S"], "once")), f{1});
%! endfor
%! assert (regexp (txt, '(?m)^Name:\s*(\S+)', "tokens", "once"), {"attention"});
%! assert (! isempty (regexp (txt, '(?m)^Version:\s*\d+\.\d+\.\d+\s*$', "once")));
%! assert (exist (fullfile (root, "COPYING"), "file"), 2);

%!test
%! ## INDEX: every public function once, nothing else
%! lines = strsplit (fileread (fullfile (root, "INDEX")), "\n");
%! listed = strsplit (strtrim (strjoin (lines(strncmp (lines, " ", 1)), " ")));
%! assert (numel (unique (listed)), numel (listed));
%! assert (sort (listed(:)), public(:));

%!test
%! ## each gateway attn_NAME.c: a help stub beside it and a MEX target
%! mk = fileread (fullfile (root, "src", "Makefile"));
%! mex_names = strsplit (strtrim (regexprep (
%!   regexp (mk, '(?m)^MEX_NAMES\s*=((?:[^\n]*\\\n)*[^\n]*)', "tokens", "once"){1},
%!   '\\\n', " ")));
%! gateways = glob (fullfile (root, "src", "attn_*.c"));
%! for i = 1:numel (gateways)
%!   [~, name] = fileparts (gateways{i});
%!   assert (exist (fullfile (root, "src", [name ".m"]), "file"), 2, name);
%!   assert (any (strcmp (mex_names, name)), true, name);
%! endfor
%! assert (numel (mex_names), numel (gateways));
%! ## each internal MEX function __NAME__.c (no stub: a private function
%! ## documents it) has a MEX target
%! internal = strsplit (strtrim (
%!   regexp (mk, '(?m)^INTERNAL_MEX_NAMES\s*=([^\n]*)', "tokens", "once"){1}));
%! sources = glob (fullfile (root, "src", "__*__.c"));
%! assert (numel (internal), numel (sources));
%! for i = 1:numel (sources)
%!   [~, name] = fileparts (sources{i});
%!   assert (any (strcmp (internal, name)), true, name);
%!   assert (exist (fullfile (root, "src", [name ".m"]), "file"), 0, name);
%! endfor

%!test
%! ## Texinfo help with a usage line for every public function
%! for i = 1:numel (public)
%!   [text, format] = get_help_text (public{i});
%!   assert (format, "texinfo", public{i});
%!   assert (! isempty (strfind (text, "@deftypefn")), public{i});
%! endfor

## make demo installs only what the demo needs: no browser (Chromium is for
## the browser tests of make check), no figure tools; make setup (behind
## make check) still asks for Chromium.  In the source tree only.
%!testif ; exist (fullfile (fileparts (fileparts (which ("attn_sdpa"))), "Makefile"), "file")
%! top = fileparts (fileparts (which ("attn_sdpa")));
%! mk = fileread (fullfile (top, "Makefile"));
%! assert (! isempty (regexp (mk, '(?m)^demo: setup-demo$', "once")));
%! [st, demo] = system (sprintf ("make -s -n -C '%s' setup-demo", top));
%! assert (st, 0);
%! assert (! isempty (strfind (demo, "octave octave-dev libopenblas0-pthread")));
%! assert (isempty (strfind (demo, "chromium")));
%! assert (isempty (strfind (demo, "gnuplot")));
%! [st, check] = system (sprintf ("make -s -n -C '%s' setup", top));
%! assert (st, 0);
%! assert (! isempty (strfind (check, "chromium")));

## lookfor attention: every public function's first help sentence (what
## lookfor searches and prints) names attention, and is ASCII and short
## enough for lookfor's one line at 80 columns (lookfor wraps a longer one
## byte by byte, one character twice at each break, and splits a × or a
## curly quote).
%!test
%! for k = 1:numel (public)
%!   s = get_first_help_sentence (public{k}, 1024);
%!   room = 58 - max (0, numel (public{k}) + 1 - 20);    # lookfor's indent is 20
%!   assert (numel (s) <= room, "%s: %s", public{k}, s);
%!   assert (all (s < 128), "%s: %s", public{k}, s);
%!   assert (! isempty (strfind (s, "attention")), "%s: %s", public{k}, s);
%! endfor
