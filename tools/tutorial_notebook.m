## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {} tutorial_notebook (@var{md}, @var{ipynb})
## @deftypefnx {} {@var{json} =} tutorial_notebook (@var{md})
## Make the Jupyter notebook of the tutorial: read the Markdown file
## @var{md} (@file{doc/tutorial.md}) and write the notebook (nbformat 4.5,
## Octave kernel) to @var{ipynb}, or return its text.
##
## Each fenced @samp{```octave} block becomes a code cell, the text between
## them a Markdown cell (other fenced blocks, such as the shell commands,
## stay in the Markdown).  Three changes, and only these:
##
## @itemize
## @item The block that puts the source tree on the path
## (@code{addpath ([pwd "/src"], [pwd "/inst"]);}) becomes a cell that
## loads the package from the folder above the notebook's (the source tree
## after @code{make}) or with @code{pkg load attention}, and does nothing
## when the package is already on the path.  Its first line,
## @code{%plot -r 100}, has the kernel draw figures at 100 dpi, the
## resolution at which @code{attn_heatmap} and @code{attn_plot_loss} save
## them (to Octave it is a comment); then it switches off readline's
## @code{blink-matching-paren}: the kernel types each line at Octave's
## prompt, and readline waited half a second at each closing bracket
## (most of the notebook's two minutes).
## @item A statement that writes a figure to a file
## (@code{attn_heatmap (@dots{}, "file", @dots{})},
## @code{attn_plot_loss (@dots{}, "file", @dots{})}) is given an output,
## @code{fig = @dots{}}: the figure is then kept open after the file is
## written, and the kernel draws it below the cell (the same image as the
## file).
## @item A note above the first cell says where the notebook comes from.
## @end itemize
##
## The notebook has no outputs: running it (from the top) makes them.  The
## text is the same for the same tutorial, byte for byte (cell ids are
## numbered), so @code{make notebook} after an edit changes only what the
## edit changed, and @file{tests/test_notebook.m} checks that the committed
## notebook is this function's result.
## @end deftypefn

function json = tutorial_notebook (md, ipynb)
  if (nargin < 1 || nargin > 2 || ! ischar (md))
    print_usage ();
  endif
  cells = tutorial_cells (fileread (md));
  json = notebook_json (cells);
  if (nargin == 2)
    fid = fopen (ipynb, "w");
    if (fid < 0)
      error ("tutorial_notebook: cannot write %s", ipynb);
    endif
    fwrite (fid, json);
    fclose (fid);
    clear json;
  endif
endfunction

## A struct array with fields type ("markdown" or "code") and text.
function cells = tutorial_cells (text)
  text = strrep (text, "\r\n", "\n");
  [s, e, tok] = regexp (text, '(?m)^```octave\n(.*?)^```[ \t]*$\n?', "start", "end", "tokens");
  if (isempty (s))
    error ("tutorial_notebook: no ```octave blocks in the tutorial");
  endif
  note = ["*This notebook is made from `doc/tutorial.md` by `make notebook` ", ...
          "(`tools/tutorial_notebook.m`): edit the tutorial, not the notebook. ", ...
          "Run the cells in order from the top; the first code cell loads the ", ...
          "package. Each figure a command saves to a file is also drawn below ", ...
          "its cell.*"];
  cells = struct ("type", {"markdown"}, "text", {note});
  loaded = false;
  from = 1;
  for k = 1:numel (s)
    cells = add_markdown (cells, text(from:s(k)-1));
    code = regexprep (tok{k}{1}, '\n+$', "");
    if (! isempty (regexp (code, '^\s*addpath\s*\(\s*\[pwd "/src"\]', "once")))
      if (loaded)
        error ("tutorial_notebook: two blocks set up the path");
      endif
      code = load_cell ();
      loaded = true;
    else
      code = keep_figures (code);
    endif
    cells(end+1) = struct ("type", "code", "text", code);
    from = e(k) + 1;
  endfor
  cells = add_markdown (cells, text(from:end));
  if (! loaded)
    error ("tutorial_notebook: no block sets up the path (addpath ([pwd \"/src\"], ...))");
  endif
endfunction

function cells = add_markdown (cells, md)
  md = regexprep (md, '^\n+', "");
  md = regexprep (md, '\n+$', "");
  if (! isempty (strtrim (md)))
    cells(end+1) = struct ("type", "markdown", "text", md);
  endif
endfunction

function code = load_cell ()
  code = strjoin ({
    "%plot -r 100",
    "## For the notebook (harmless at Octave's prompt): the line above, a",
    "## kernel command (to Octave a comment), draws figures below the cells",
    "## at 100 dpi, as the package's functions save them to files; the lines",
    "## below switch off readline's blinking of the matching bracket, which",
    "## waits 0.5 s at each closing bracket of each line the kernel types.",
    "rc = [tempname() \".inputrc\"];",
    "fid = fopen (rc, \"w\");",
    "fputs (fid, \"set blink-matching-paren off\\n\");",
    "fclose (fid);",
    "readline_read_init_file (rc);",
    "delete (rc);",
    "clear rc fid",
    "## The package: already on the path, or in place in the source tree",
    "## this notebook's folder (doc/) belongs to (after make), or installed.",
    "if (isempty (which (\"attn_sdpa\")))",
    "  if (exist (fullfile (\"..\", \"src\", \"attention_core.c\"), \"file\"))",
    "    addpath (canonicalize_file_name (fullfile (\"..\", \"src\")),",
    "             canonicalize_file_name (fullfile (\"..\", \"inst\")));",
    "  else",
    "    pkg load attention",
    "  endif",
    "endif"}, "\n");
endfunction

## "attn_heatmap (..., "file", f);" as the start of a statement on its own
## line becomes "fig = attn_heatmap (...": the function keeps the figure
## open when it returns its handle.
function code = keep_figures (code)
  lines = strsplit (code, "\n", "CollapseDelimiters", false);
  for i = 1:numel (lines)
    if (! isempty (regexp (lines{i}, '^(attn_heatmap|attn_plot_loss) \(', "once")))
      ## the statement: this line and its continuations, up to the closing
      ## parenthesis that ends it
      stmt = lines{i};
      j = i;
      while (sum (stmt == "(") > sum (stmt == ")") && j < numel (lines))
        j += 1;
        stmt = [stmt, "\n", lines{j}];
      endwhile
      if (! isempty (strfind (stmt, '"file"')))
        lines{i} = ["fig = ", lines{i}];
        ## continuation lines stay aligned under the arguments
        for k = i+1:j
          if (! isempty (regexp (lines{k}, '^ ', "once")))
            lines{k} = ["      ", lines{k}];
          endif
        endfor
      endif
    endif
  endfor
  code = strjoin (lines, "\n");
endfunction

## The notebook as text: the layout Jupyter itself writes (one-space
## indent, keys sorted, source as a list of lines).
function json = notebook_json (cells)
  out = {"{\n", " \"cells\": [\n"};
  for k = 1:numel (cells)
    c = cells(k);
    id = sprintf ("%s-%02d", merge (strcmp (c.type, "code"), "code", "md"), k);
    out{end+1} = "  {\n";
    if (strcmp (c.type, "code"))
      out{end+1} = "   \"cell_type\": \"code\",\n";
      out{end+1} = "   \"execution_count\": null,\n";
    else
      out{end+1} = "   \"cell_type\": \"markdown\",\n";
    endif
    out{end+1} = sprintf ("   \"id\": \"%s\",\n", id);
    out{end+1} = "   \"metadata\": {},\n";
    if (strcmp (c.type, "code"))
      out{end+1} = "   \"outputs\": [],\n";
    endif
    out{end+1} = ["   \"source\": ", source_json(c.text), "\n"];
    out{end+1} = merge (k < numel (cells), "  },\n", "  }\n");
  endfor
  out = [out, {" ],\n", ...
               " \"metadata\": {\n", ...
               "  \"kernelspec\": {\n", ...
               "   \"display_name\": \"Octave\",\n", ...
               "   \"language\": \"octave\",\n", ...
               "   \"name\": \"octave\"\n", ...
               "  },\n", ...
               "  \"language_info\": {\n", ...
               "   \"file_extension\": \".m\",\n", ...
               "   \"mimetype\": \"text/x-octave\",\n", ...
               "   \"name\": \"octave\"\n", ...
               "  }\n", ...
               " },\n", ...
               " \"nbformat\": 4,\n", ...
               " \"nbformat_minor\": 5\n", ...
               "}\n"}];
  json = [out{:}];
endfunction

## A cell's text as a JSON list of its lines, each but the last ending in
## a newline.
function s = source_json (text)
  lines = strsplit (text, "\n", "CollapseDelimiters", false);
  items = cell (1, numel (lines));
  for i = 1:numel (lines)
    line = lines{i};
    if (i < numel (lines))
      line = [line, "\n"];
    endif
    items{i} = ["    ", jsonencode(line)];   # UTF-8 kept, controls escaped
  endfor
  s = ["[\n", strjoin(items, ",\n"), "\n   ]"];
endfunction

