## -*- texinfo -*-
## @deftypefn  {} {} attn_show (@var{M})
## @deftypefnx {} {} attn_show (@var{M}, @var{row_labels}, @var{col_labels})
## @deftypefnx {} {} attn_show (@var{M}, @var{row_labels}, @var{col_labels}, @var{title})
## @deftypefnx {} {} attn_show (@var{T}, @var{field})
## @deftypefnx {} {} attn_show (@dots{}, @var{name}, @var{value})
## @deftypefnx {} {@var{s} =} attn_show (@dots{})
## Print a matrix as a table labelled by tokens.
##
## @var{M} is a numeric array; rows are labelled by @var{row_labels} and
## columns by @var{col_labels} (a cell array of strings, a string of
## space-separated words, or @code{[]} for the positions 1, 2, @dots{}).
## The title gives the name and the shape, e.g. @code{A  (2×3)}.
## Arrays with more than two dimensions are printed one page @code{(:,:,k)}
## after another.
##
## With a struct @var{T} (a trace of @code{attn_self}, @code{attn_masked},
## @code{attn_cross}, or a model trace) and a field path @var{field} such as
## @code{"A"} or @code{"decoder@{1@}.cross.A"}, the matrix is read from the
## trace and the title uses the seed's notation with the block's kind and the
## meaning of each axis, e.g. @code{cross.A  (3×4: target × source)}.  Per-head
## arrays (@code{scores}, @code{A}: n×m×h×Bt) are printed one head at a time;
## the columns of @code{Q}, @code{K}, @code{V} and @code{message} are
## labelled @code{head:column} when there are several heads.
##
## Options (name, value):
## @table @code
## @item "decimals"
## digits after the point (default 3).
## @item "width"
## longest line in characters (default 80); wider tables wrap into groups of
## columns.
## @item "rows", "cols"
## row and column labels (override those found in a trace).
## @item "title"
## the title line.
## @item "axes"
## two strings naming the axes, e.g. @code{@{"target", "source"@}}.
## @item "head", "batch"
## print only this head / batch item of a trace field.
## @end table
##
## With an output argument the text is returned instead of printed.
##
## @example
## @group
## A = [0.25 0.75; 1 0];
## attn_show (A, "<bos> la", "the river", "decimals", 2)
## @print{} A  (2×2)
## @print{}        the  river
## @print{} <bos>  0.25   0.75
## @print{} la     1.00   0.00
## @end group
## @end example
##
## @seealso{attn_heatmap, attn_walkthrough}
## @end deftypefn

function s = attn_show (varargin)
  if (nargin < 1)
    print_usage ();
  endif
  name = inputname (1, false);
  if (! isvarname (name))
    name = "";
  endif
  [pages, opts] = collect_pages (varargin, name);
  txt = "";
  for k = 1:numel (pages)
    p = pages(k);
    txt = [txt, p.title, "\n", ...
           format_table(p.M, p.rows, p.cols, opts.decimals, opts.width)];
    if (k < numel (pages))
      txt = [txt, "\n"];
    endif
  endfor
  if (nargout > 0)
    s = txt;
  else
    printf ("%s", txt);
  endif
endfunction

## The 2-D pages to print, each with its title and labels.
function [pages, opts] = collect_pages (args, argname)
  if (isstruct (args{1}))
    if (numel (args) < 2 || ! ischar (args{2}))
      error ("attention:type", "attn_show: FIELD: expected a field path string after the trace struct");
    endif
    [opts, rest] = parse_options (args(3:end));
    src = trace_source (args{1}, args{2}, opts);
  else
    M = args{1};
    if (! (isnumeric (M) || islogical (M)) || ! isreal (M))
      error ("attention:type", "attn_show: M: expected a real numeric array, got %s", class (M));
    endif
    k = 2;
    lab = {[], []};
    while (k <= numel (args) && k <= 3 && ! is_option (args{k}))
      lab{k-1} = args{k};
      k++;
    endwhile
    if (k == 4 && k <= numel (args) && ischar (args{k}) && ! is_option (args{k}))
      ttl = args{k};
      k++;
    else
      ttl = ifelse_str (isempty (argname), "M", argname);
    endif
    [opts, rest] = parse_options (args(k:end));
    src = struct ("M", double (M), "name", ttl, "rows", {lab(1)}, "cols", {lab(2)},
                  "axes", {{}}, "pagename", "plain", "colheads", 1);
  endif
  if (! isempty (rest))
    error ("attention:nargin", "attn_show: unexpected argument %d", numel (args) - numel (rest) + 1);
  endif
  pages = make_pages (src, opts);
endfunction

function tf = is_option (a)
  tf = ischar (a) && any (strcmpi (a, {"decimals", "width", "rows", "cols", "title", "axes", "head", "batch"}));
endfunction

function s = ifelse_str (c, a, b)
  if (c)
    s = a;
  else
    s = b;
  endif
endfunction

function [opts, rest] = parse_options (args)
  opts = struct ("decimals", 3, "width", 80, "rows", {{}}, "cols", {{}},
                 "title", "", "axes", {{}}, "head", [], "batch", []);
  names = fieldnames (opts);
  rest = {};
  k = 1;
  while (k <= numel (args))
    if (! ischar (args{k}) || ! any (strcmpi (args{k}, names)))
      rest = args(k:end);
      return;
    elseif (k == numel (args))
      error ("attention:nargin", "attn_show: option \"%s\" needs a value", args{k});
    endif
    opts.(lower (args{k})) = args{k+1};
    k += 2;
  endwhile
  if (! (isscalar (opts.decimals) && opts.decimals >= 0 && opts.decimals == fix (opts.decimals)))
    error ("attention:type", "attn_show: \"decimals\": expected a non-negative integer");
  endif
endfunction

## Split src.M into 2-D pages with titles; heads and batch items of a trace.
function pages = make_pages (src, opts)
  M = src.M;
  sz = size (M);
  npage = prod (sz(3:end));
  if (! isempty (opts.rows)), src.rows = {opts.rows}; endif
  if (! isempty (opts.cols)), src.cols = {opts.cols}; endif
  if (! isempty (opts.axes)), src.axes = opts.axes; endif
  if (! isempty (opts.title)), src.name = opts.title; endif
  rows = as_labels (src.rows{1}, sz(1), "row labels");
  cols = as_labels (src.cols{1}, sz(2), "column labels");
  if (src.colheads > 1 && isempty (opts.cols))
    w = sz(2) / src.colheads;
    cols = arrayfun (@(j) sprintf ("%d:%d", ceil (j / w), mod (j - 1, w) + 1), 1:sz(2),
                     "UniformOutput", false);
  endif
  ## which pages: dims 3.. are (head, batch) for per-head fields, (batch) else
  idx = cell (1, max (numel (sz) - 2, 1));
  [idx{:}] = ind2sub ([sz(3:end), 1], (1:npage)');
  sel = true (npage, 1);
  if (strcmp (src.pagename, "head"))
    hb = [idx{1}, idx{min (2, end)} .* (numel (idx) > 1) + (numel (idx) == 1)];
    if (! isempty (opts.head)), sel &= hb(:,1) == opts.head; endif
    if (! isempty (opts.batch)), sel &= hb(:,2) == opts.batch; endif
  elseif (strcmp (src.pagename, "batch") && ! isempty (opts.batch))
    sel &= idx{1} == opts.batch;
  endif
  if (! any (sel))
    error ("attention:size", "attn_show: head/batch: no such page in a %s array",
           shape_str (sz));
  endif
  if (isempty (src.axes))
    shape = sprintf ("(%s)", shape_str (sz(1:2)));
  else
    shape = sprintf ("(%s: %s × %s)", shape_str (sz(1:2)), src.axes{:});
  endif
  pages = struct ("M", {}, "title", {}, "rows", {}, "cols", {});
  for p = find (sel)'
    pagetitle = [src.name, "  ", shape];
    if (npage > 1)
      pagetitle = [pagetitle, "  ", page_label(src.pagename, cellfun (@(v) v(p), idx))];
    endif
    pages(end+1) = struct ("M", M(:,:,p), "title", pagetitle, "rows", {rows}, "cols", {cols});
  endfor
endfunction

function s = page_label (kind, sub)
  switch (kind)
    case "head"
      s = sprintf ("head %d", sub(1));
      if (numel (sub) > 1)
        s = [s, sprintf(", item %d", sub(2))];
      endif
    case "batch"
      s = sprintf ("item %d", sub(1));
    otherwise
      s = ["(:,:", sprintf(",%d", sub), ")"];
  endswitch
endfunction

function s = shape_str (sz)
  s = strjoin (arrayfun (@num2str, sz, "UniformOutput", false), "×");
endfunction

## The matrix at PATH inside trace T, with the axes and labels the trace knows.
function src = trace_source (T, path, opts)
  [M, parent, leaf] = trace_get (T, path);
  if (! (isnumeric (M) || islogical (M)))
    error ("attention:type", "attn_show: field %s is a %s, not a numeric array", path, class (M));
  endif
  kind = "";
  if (isfield (parent, "kind"))
    kind = parent.kind;
  endif
  heads = 1;
  if (isfield (parent, "heads"))
    heads = parent.heads;
  endif
  [qside, kside] = block_sides (kind, path);
  [qlab, klab, vlab] = trace_tokens (T, qside, kside, opts);
  name = path;
  if (! isempty (kind) && isempty (strfind (path, ".")))
    name = [kind, ".", path];
  endif
  src = struct ("M", double (M), "name", name, "rows", {{qlab}}, "cols", {{[]}},
                "axes", {{qside, "width"}}, "pagename", "batch", "colheads", 1);
  switch (leaf)
    case {"scores", "A"}
      src.axes = {qside, kside};
      src.cols = {klab};
      src.pagename = "head";
    case {"Q", "message"}
      src.colheads = heads;
    case {"K", "V", "E"}
      src.axes = {kside, "width"};
      src.rows = {klab};
      src.colheads = heads * ! strcmp (leaf, "E");
    case {"logits", "probs"}
      src.axes = {"target", "vocabulary"};
      src.cols = {vlab};
    case {"X", "D", "delta", "out", "input", "after_self", "after_cross", ...
          "after_ffn", "source_rows", "encoded", "target_rows", "decoder_out"}
    otherwise
      src.pagename = "plain";
      src.axes = {};
      src.rows = {[]};
  endswitch
  src.colheads = max (src.colheads, 1);
  ## labels that do not fit the matrix (e.g. one decoder step) are dropped
  if (! isempty (src.rows{1}) && numel (src.rows{1}) != rows (M))
    src.rows = {[]};
  endif
  if (! isempty (src.cols{1}) && numel (src.cols{1}) != columns (M))
    src.cols = {[]};
  endif
endfunction

## Axis names of a block's queries and keys, after seed 004's table; outside
## a block, the stack the path starts in.
function [qside, kside] = block_sides (kind, path)
  switch (kind)
    case "self"
      qside = "source"; kside = "source";
    case "masked"
      qside = "target"; kside = "target";
    case "cross"
      qside = "target"; kside = "source";
    otherwise
      if (regexp (path, '^(encoder|encoded|source)'))
        qside = "source";
      elseif (regexp (path, '^(decoder|target|logits|probs)'))
        qside = "target";
      else
        qside = "query";
      endif
      kside = "key";
  endswitch
endfunction

## Token labels of a model trace (source_labels, target_labels,
## vocab_labels) for the query side, key side and vocabulary, or [].
function [qlab, klab, vlab] = trace_tokens (T, qside, kside, opts)
  lab.source = field_or_empty (T, "source_labels", opts);
  lab.target = field_or_empty (T, "target_labels", opts);
  lab.query = [];
  lab.key = [];
  qlab = lab.(qside);
  klab = lab.(kside);
  vlab = field_or_empty (T, "vocab_labels", opts);
endfunction

## T.(f), or [] when absent; a cell of per-item cells gives the batch item.
function v = field_or_empty (T, f, opts)
  v = [];
  if (isfield (T, f))
    v = T.(f);
    if (iscell (v) && ! isempty (v) && iscell (v{1}))
      v = v{max ([opts.batch, 1])};
    endif
  endif
endfunction

%!shared M, s
%! M = [0.123456 -2.5 -Inf; 10 0 -0.0001];
%! s = attn_show (M, {"<bos>", "la"}, "the river bank", "title", "cross.scores",
%!                "axes", {"target", "source"});

%!test
%! lines = strsplit (s, "\n");
%! assert (lines{1}, "cross.scores  (2×3: target × source)");
%! assert (strsplit (strtrim (lines{2})), {"the", "river", "bank"});
%! assert (strncmp (lines{3}, "<bos>", 5) && strncmp (lines{4}, "la ", 3));

%!test
%! ## the printed numbers read back as M rounded to 3 decimals
%! lines = strsplit (s, "\n");
%! got = cellfun (@(l) str2double (strsplit (strtrim (l(6:end)))), lines(3:4),
%!                "UniformOutput", false);
%! assert (vertcat (got{:}), round (M * 1000) / 1000);
%! assert (isempty (strfind (s, "-0.000")));

%!test
%! ## wide matrices wrap: every line fits, every column printed once
%! W = reshape (1:60, 2, 30) / 7;
%! t = attn_show (W, "width", 50, "decimals", 4);
%! lines = strsplit (t, "\n");
%! assert (max (cellfun (@numel, lines)) <= 50);
%! heads = regexp (t, 'columns (\d+) to (\d+) of 30', "tokens");
%! rng = cellfun (@(c) str2double (c), heads, "UniformOutput", false);
%! rng = vertcat (rng{:});
%! assert (rng(1,1), 1);
%! assert (rng(end,2), 30);
%! assert (rng(2:end,1), rng(1:end-1,2) + 1);
%! assert (numel (strfind (t, sprintf ("%.4f", W(2,30)))), 1);

%!test
%! ## a kernel trace: per-head pages, sides named after the block kind
%! T = struct ("kind", "masked", "heads", 2, "A", cat (3, eye (3), ones (3) / 3),
%!             "Q", reshape (1:12, 3, 4));
%! t = attn_show (T, "A");
%! assert (! isempty (strfind (t, "masked.A  (3×3: target × target)  head 1")));
%! assert (! isempty (strfind (t, "masked.A  (3×3: target × target)  head 2")));
%! t = attn_show (T, "A", "head", 2, "rows", "<bos> la rive");
%! assert (isempty (strfind (t, "head 1")));
%! assert (! isempty (strfind (t, "rive   0.333  0.333  0.333")));
%! t = attn_show (T, "Q");
%! lines = strsplit (t, "\n");
%! assert (strsplit (strtrim (lines{2})), {"1:1", "1:2", "2:1", "2:2"});

%!test
%! ## a nested model trace with token lists
%! tr.source_labels = {"the", "river", "bank", "<eos>"};
%! tr.target_labels = {"<bos>", "la"};
%! tr.vocab_labels = {"<eos>", "la", "rive"};
%! tr.decoder(1).cross = struct ("kind", "cross", "heads", 1, "A", [0.1 0.6 0.2 0.1; 0.25 0.25 0.25 0.25]);
%! tr.probs = [0.2 0.3 0.5; 0 0 1];
%! t = attn_show (tr, "decoder(1).cross.A", "decimals", 2);
%! assert (strncmp (t, "decoder(1).cross.A  (2×4: target × source)", 44));
%! lines = strsplit (t, "\n");
%! assert (strsplit (strtrim (lines{2})), tr.source_labels);
%! assert (strsplit (lines{4}), {"la", "0.25", "0.25", "0.25", "0.25"});
%! t = attn_show (tr, "probs");
%! lines = strsplit (t, "\n");
%! assert (lines{1}, "probs  (2×3: target × vocabulary)");
%! assert (strsplit (strtrim (lines{2})), tr.vocab_labels);

%!error <expected 3 labels, got 2> attn_show (eye (3), "a b")
%!error id=attention:size attn_show (eye (3), {"a", "b"}, [])
%!error id=attention:type attn_show ({1})
%!error id=attention:field attn_show (struct ("A", 1), "B")
%!error id=attention:field attn_show (struct ("A", 1), "A{2}")
%!error id=attention:field attn_show (struct ("A", {1, 2}), "A(3)")
%!error id=attention:size attn_show (struct ("kind", "self", "A", ones (2, 2, 2)), "A", "head", 3)
