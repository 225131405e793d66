## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {} doc_texinfo (@var{root}, @var{texi})
## Write the package's reference manual, as one Texinfo document, to the
## file @var{texi}: a node per public function of @file{@var{root}/INDEX},
## holding that function's own Texinfo help, and a top node that lists the
## functions grouped as @file{INDEX} groups them.  The functions are read
## with @code{get_help_text}, so @file{@var{root}/src} and
## @file{@var{root}/inst} must be on the path.
##
## @code{make docs} turns the document into @file{doc.info} (the file
## @code{doc @var{name}} opens when it lies beside @var{name}'s file) and
## into the HTML pages of @file{doc/html}.  The last node prints an index
## with one entry per function, at the start of its node: that index is
## what @code{doc} searches.  (The entries that each usage line puts in
## Texinfo's own function index would name a function once per usage
## line; that index is not printed.)  Its first entry is @samp{attention},
## for the top node: the Info reader of texinfo 6.8 never finds an index's
## first entry, and @samp{attention} sorts before every @samp{attn_} name.
## @end deftypefn

function doc_texinfo (root, texi)
  [groups, names] = index_groups (fullfile (root, "INDEX"));
  desc = fileread (fullfile (root, "DESCRIPTION"));
  version = regexp (desc, '(?m)^Version:\s*(\S+)', "tokens", "once"){1};
  index_txt = fileread (fullfile (root, "INDEX"));
  title = strtrim (regexp (index_txt, '^[^\n]*>>([^\n]*)', "tokens", "once"){1});

  all_names = [names{:}];
  nodes = cellfun (@(n) function_node (n, all_names), all_names,
                   "uniformoutput", false);

  fid = fopen (texi, "w");
  if (fid < 0)
    error ("attention:doc", "doc_texinfo: cannot write %s", texi);
  endif
  unwind_protect
    fprintf (fid, "\\input texinfo\n@setfilename doc.info\n");
    fprintf (fid, "@documentencoding UTF-8\n@settitle attention %s\n", version);
    fprintf (fid, "@include %s\n@defcodeindex pf\n\n", texi_macros_file ());
    fprintf (fid, "@node Top\n@top attention %s\n@pfindex attention\n\n%s.\n\n",
             version, title);
    fprintf (fid, ["Each function's page is its help text (what @code{help} ", ...
                   "prints); @code{doc @var{name}} opens it.\n\n@menu\n"]);
    for g = 1:numel (groups)
      fprintf (fid, "\n%s\n\n", texi_escape (groups{g}));
      for k = 1:numel (names{g})
        fprintf (fid, "* %s:: %s\n", names{g}{k},
                 texi_escape (get_first_help_sentence (names{g}{k}, 1024)));
      endfor
    endfor
    fprintf (fid, "\n* Function index:: Every function by name.\n@end menu\n\n");
    fprintf (fid, "%s", nodes{:});
    fprintf (fid, "@node Function index\n@unnumbered Function index\n\n@printindex pf\n\n@bye\n");
  unwind_protect_cleanup
    fclose (fid);
  end_unwind_protect
endfunction

## The groups of INDEX (its lines after the first that do not start with a
## space) and the function names listed under each.
function [groups, names] = index_groups (file)
  lines = strsplit (fileread (file), "\n");
  lines = lines(2:end);
  lines = lines(! cellfun (@isempty, strtrim (lines)));
  is_group = ! strncmp (lines, " ", 1);
  groups = strtrim (lines(is_group));
  owner = cumsum (is_group);
  names = arrayfun (@(g) strsplit (strtrim (strjoin (lines(owner == g & ! is_group), " "))),
                    1:numel (groups), "uniformoutput", false);
endfunction

## The node of function NAME: its help text, with @seealso turned into
## links to the pages of the functions among ALL_NAMES.
function txt = function_node (name, all_names)
  [help, format] = get_help_text (name);
  if (! strcmp (format, "texinfo"))
    error ("attention:doc", "doc_texinfo: %s has no Texinfo help", name);
  endif
  help = regexprep (help, '^ ', "", "lineanchors");
  help = regexprep (help, '^\s*-\*- texinfo -\*-\s*\n', "");
  see = regexp (help, '@seealso\{([^}]*)\}', "tokens", "once");
  if (! isempty (see))
    refs = strtrim (strsplit (see{1}, ","));
    linked = ismember (refs, all_names);
    refs(linked) = strcat ("@ref{", refs(linked), "}");
    refs(! linked) = strcat ("@code{", refs(! linked), "}");
    help = strrep (help, ["@seealso{" see{1} "}"],
                   ["@noindent\nSee also: " strjoin(refs, ", ") "."]);
  endif
  txt = sprintf ("@node %s\n@unnumbered %s\n@pfindex %s\n\n%s\n\n", name, name,
                 name, strtrim (help));
endfunction

## S with Texinfo's special characters quoted.
function s = texi_escape (s)
  s = regexprep (s, '([@{}])', '@$1');
endfunction
