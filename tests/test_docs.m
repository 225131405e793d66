## The reference manual that make docs builds from the help texts: doc NAME
## opens the package's own page of every public function (not the top of
## Octave's manual), and doc/html has one page per function with an index
## grouped as INDEX groups them.  Here the package is used in place (src/
## and inst/ on the path, as README.md says); tests/install_check.m checks
## doc in the installed package.

%!shared root, groups, public, built
%! root = fileparts (fileparts (which ("attn_sdpa")));    # src/attn_sdpa.mex
%! lines = strsplit (fileread (fullfile (root, "INDEX")), "\n");
%! lines = lines(2:end);
%! lines = lines(! cellfun (@isempty, strtrim (lines)));
%! groups = struct ("name", {}, "names", {});
%! for k = 1:numel (lines)
%!   if (lines{k}(1) != " ")
%!     groups(end+1).name = strtrim (lines{k});
%!     groups(end).names = {};
%!   else
%!     groups(end).names = [groups(end).names, strsplit(strtrim (lines{k}))];
%!   endif
%! endfor
%! public = [groups.names];
%! built = exist (fullfile (root, "inst", "doc.info"), "file") ...
%!         && exist (fullfile (root, "doc", "html", "index.html"), "file");

%!test
%! assert (built, "no reference manual: run make docs");

## doc NAME, for every public function: the doc.info beside its file, and
## the index search lands on the function's own node at the first start.
%!test
%! shown = doc_screen (public);
%! for k = 1:numel (public)
%!   s = shown(k);
%!   name = public{k};
%!   assert (s.file, fullfile (fileparts (which (name)), "doc.info"));
%!   assert (s.search, name);
%!   assert ([s.status, s.calls], [0, 1]);
%!   assert (s.node, ["(doc)" name]);
%! endfor

## Each node holds its function's help: one usage line per @deftypefn of
## the help text, and its See also line with the package's functions as
## references.
%!test
%! txt = fileread (fullfile (root, "inst", "doc.info"));
%! nodes = regexp (txt, '\x1F\nFile: doc\.info,  Node: ([^,\n]+),[^\n]*\n([^\x1F]*)',
%!                 "tokens");
%! nodes = vertcat (nodes{:});
%! for k = 1:numel (public)
%!   name = public{k};
%!   node = nodes(strcmp (nodes(:,1), name), 2);
%!   assert (numel (node), 1);
%!   usage = regexp (node{1}, ['(?m)^ -- : .*\<' name '\>'], "match");
%!   text = get_help_text (name);
%!   assert (numel (usage), numel (strfind (text, "@deftypefn")), name);
%!   see = regexp (text, '@seealso\{([^}]*)\}', "tokens", "once");
%!   if (! isempty (see))
%!     refs = strtrim (strsplit (see{1}, ","));
%!     shown = regexp (regexprep (node{1}, '\s+', " "), 'See also: ([^.]*)\.',
%!                     "tokens", "once");
%!     shown = regexprep (strtrim (strsplit (shown{1}, ",")), '^\*note (\S+)::$', "$1");
%!     assert (shown, refs);
%!   endif
%! endfor

## A function that is not the package's still gets Octave's manual (when
## it is installed, Debian's octave-doc): no doc.info of the package lies
## beside it.
%!testif ; exist ([info_file() ".gz"], "file") || exist (info_file (), "file")
%! s = doc_screen ({"cumsum", "mean"});
%! assert ({s.file}, {info_file(), info_file()});
%! assert ({s.node}, {"(octave)Sums and Products", "(octave)Descriptive Statistics"});

## doc/html: index.html lists the groups of INDEX in order, each with its
## functions in order, as links to one page per function, which shows the
## function's usage.
%!test
%! html = fullfile (root, "doc", "html");
%! index = fileread (fullfile (html, "index.html"));
%! index = regexp (index, '<table class="menu".*?</table>', "match", "once");
%! items = regexp (index, ['<pre class="menu-comment">\s*([^<]*?)\s*</pre>', ...
%!                         '|<a href="(attn_\w+)\.html"'], "tokens");
%! items = strrep ([items{:}], "&rsquo;", "'");
%! items = items(! cellfun (@isempty, items));
%! expected = arrayfun (@(g) [{g.name}, g.names], groups, "uniformoutput", false);
%! assert (items, [expected{:}]);
%! for k = 1:numel (public)
%!   page = fullfile (html, [public{k} ".html"]);
%!   assert (exist (page, "file") == 2, page);
%!   txt = fileread (page);
%!   assert (! isempty (strfind (txt, sprintf ("<title>%s (attention", public{k}))), public{k});
%!   assert (! isempty (strfind (txt, sprintf ("<strong>%s</strong>", public{k}))), public{k});
%! endfor
