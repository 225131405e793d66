## -*- texinfo -*-
## @deftypefn {} {[@var{pages}, @var{opts}] =} matrix_pages (@var{args}, @var{argname}, @var{caller}, @var{defaults})
## The 2-D pages of the matrix an inspection call names, each with its title
## and row and column labels.  @var{args} are the caller's arguments
## (@code{M [, rows, cols [, title]]} or @code{T, path}, then options);
## @var{argname} is the caller's @code{inputname (1, false)}: the title of a
## matrix given without one when it is a variable name, else @code{M};
## @var{spec} is the @code{parse_options} table of the caller's own options;
## the options every caller shares (@code{rows}, @code{cols},
## @code{title}, @code{axes}, @code{head}, @code{batch}) are added here, and
## @var{opts} holds them all.  Each page has @code{M}, @code{title} (name,
## shape and axes, page), @code{short} (name and page), @code{rows},
## @code{cols}, @code{axes} (the two axis names, or @{@}).  A trace path
## gets the axes and labels of its block kind (seed 004's table) and the
## trace's token lists.
## @end deftypefn

function [pages, opts] = matrix_pages (args, argname, caller, spec)
  text = find (cellfun ("ischar", args) | cellfun ("iscellstr", args));
  for k = text(! cellfun (@(a) file_utf8 ([a{:}]), cellfun (@cellstr, args(text), "UniformOutput", false)))
    a = cellstr (args{k});
    w = find (! cellfun (@file_utf8, a), 1);
    file_utf8 (a{w}, caller, sprintf ("argument %d", k));   # text enters here
  endfor
  spec = [spec; {"rows", {}, "any"; "cols", {}, "any"; "title", "", "text";
                 "axes", {}, "any"; "head", [], "integer [1, Inf)";
                 "batch", [], "integer [1, Inf)"}];
  if (isstruct (args{1}))
    if (numel (args) < 2 || ! ischar (args{2}))
      error ("attention:type", "%s: FIELD: expected a field path string after the trace struct", caller);
    endif
    opts = parse_options (caller, spec, args(3:end));
    check_axes (opts.axes, caller);
    src = trace_source (args{1}, args{2}, opts, caller);
  else
    M = args{1};
    if (! (isnumeric (M) || islogical (M)) || ! isreal (M))
      error ("attention:type", "%s: M: expected a real numeric array, got %s", caller, class (M));
    endif
    p = positional_count (args, size (M), spec(:,1));
    lab = [args(2:min (p, 2) + 1), {[], []}](1:2);
    if (p == 3)
      ttl = args{4};
    elseif (isvarname (argname))
      ttl = argname;
    else
      ttl = "M";
    endif
    opts = parse_options (caller, spec, args(p+2:end));
    check_axes (opts.axes, caller);
    src = struct ("M", double (M), "name", ttl, "rows", {lab(1)}, "cols", {lab(2)},
                  "axes", {{}}, "pagename", "plain", "colheads", 1);
  endif
  pages = make_pages (src, opts, caller);
endfunction

## How many of ARGS(2:4) are row labels, column labels and title: the most
## whose label counts fit the matrix of size SZ, else the most that could be
## (as_labels then names the count); never an option name.  A misspelled
## option ("decimls", 2) is then left to parse_options.
function p = positional_count (args, sz, names)
  fits = [];
  cands = [];
  for k = 0:min (3, numel (args) - 1)
    rest = args(k+2:end);
    if (k > 0)
      a = args{k+1};
      if (ischar (a) && any (strcmpi (a, names)))
        break;
      endif
      if (k == 3)
        ok = ischar (a) && rows (a) <= 1;
      else
        ok = isempty (a) || ischar (a) || iscellstr (a) || (isnumeric (a) && isvector (a));
      endif
      if (! ok)
        break;
      endif
    endif
    if (mod (numel (rest), 2) != 0 || (! isempty (rest) && ! ischar (rest{1}))
        || (k == 0 && ! isempty (rest) && ! isvarname (rest{1})))
      continue;
    endif
    cands(end+1) = k;
    if (all (arrayfun (@(j) label_count_fits (args{j+1}, sz(j)), 1:min (k, 2))))
      fits(end+1) = k;
    endif
  endfor
  p = max ([fits, -1]);
  if (p < 0)
    p = max ([cands, 0]);
  endif
endfunction

function tf = label_count_fits (a, n)
  if (isempty (a))
    tf = true;
  elseif (ischar (a))
    tf = numel (strsplit (strtrim (a))) == n;
  else
    tf = numel (a) == n;
  endif
endfunction

function check_axes (ax, caller)
  if (! isempty (ax) && ! (iscellstr (ax) && numel (ax) == 2))
    error ("attention:option", "%s: option \"axes\" must be two strings, e.g. {\"target\", \"source\"}, got %s",
           caller, disp_arg (ax));
  endif
endfunction

## Split src.M into 2-D pages with titles; heads and batch items of a trace.
function pages = make_pages (src, opts, caller)
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
    item = 1;
    if (numel (idx) > 1)
      item = idx{2};
    endif
    if (! isempty (opts.head)), sel &= idx{1} == opts.head; endif
    if (! isempty (opts.batch)), sel &= item == opts.batch; endif
  elseif (strcmp (src.pagename, "batch") && ! isempty (opts.batch))
    sel &= idx{1} == opts.batch;
  endif
  if (! any (sel))
    error ("attention:size", "%s: head/batch: no such page in a %s array",
           caller, shape_str (sz));
  endif
  shape = shape_str (sz(1:2));
  keep = 1:sz(1);
  if (isfield (opts, "last") && opts.last)
    ## the last row alone: the position that predicts the next token
    keep = sz(1);
    shape = sprintf ("row %d of %s", sz(1), shape);
  endif
  if (isempty (src.axes))
    shape = sprintf ("(%s)", shape);
  else
    shape = sprintf ("(%s: %s × %s)", shape, src.axes{:});
  endif
  pages = struct ("M", {}, "title", {}, "short", {}, "rows", {}, "cols", {}, "axes", {});
  for p = find (sel)'
    pagetitle = [src.name, "  ", shape];
    short = src.name;
    if (npage > 1)
      which = page_label (src.pagename, cellfun (@(v) v(p), idx));
      pagetitle = [pagetitle, "  ", which];
      short = [short, "  ", which];
    endif
    pages(end+1) = struct ("M", M(keep,:,p), "title", pagetitle, "short", short,
                           "rows", {rows(keep)}, "cols", {cols}, "axes", {src.axes});
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

## The matrix at PATH inside trace T, with the axes and labels the trace knows.
function src = trace_source (T, path, opts, caller)
  [M, parent, leaf] = trace_get (T, path);
  if (! (isnumeric (M) || islogical (M)))
    error ("attention:type", "%s: field %s is a %s, not a numeric array", caller, path, class (M));
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
  if (strcmp (qside, "target") && isfield (T, "written_labels")
      && ! any (strcmp (leaf, {"target_rows", "target_ids", "tgt_allow"})))
    ## a decoder row is named by the word it writes (seed 004's grid)
    qside = "word written";
    qlab = labels_of (T, "written_labels", opts);
  endif
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
      src.colheads = merge (strcmp (leaf, "E"), 1, heads);
    case {"logits", "probs"}
      src.cols = {vlab};
      src.axes = {qside, "vocabulary"};
      if (isfield (T, "source_ids") && ! isfield (T, "target_ids"))
        ## a classifier head: one row of class scores per source word, or
        ## one per sentence
        src.rows = {labels_of(T, "source_labels", opts)};
        src.axes = {"source", "class"};
        if (numel (src.rows{1}) != rows (M))
          src.rows = {{"sentence"}};
          src.axes = {"sentence", "class"};
        endif
      endif
    case {"X", "D", "delta", "out", "input", "after_self", "after_cross", ...
          "after_ffn", "source_rows", "encoded", "target_rows", "decoder_out"}
      ## one row per query position: as set above
    case {"hidden_pre", "hidden"}
      ## a token classifier's head: one row per source word (a sentence
      ## head's one row is a plain matrix)
      if (numel (src.rows{1}) != rows (M))
        [src.pagename, src.axes, src.rows] = deal ("plain", {}, {[]});
      endif
    otherwise
      src.pagename = "plain";
      src.axes = {};
      src.rows = {[]};
  endswitch
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
      if (regexp (path, '^(encoder|encoded|source|hidden|head_norm)'))
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
## vocab_labels or class_labels) for the query side, key side and the
## output columns, or [].
function [qlab, klab, vlab] = trace_tokens (T, qside, kside, opts)
  lab.source = labels_of (T, "source_labels", opts);
  lab.target = labels_of (T, "target_labels", opts);
  lab.query = [];
  lab.key = [];
  qlab = lab.(qside);
  klab = lab.(kside);
  vlab = labels_of (T, "vocab_labels", opts);
  if (isempty (vlab))
    vlab = labels_of (T, "class_labels", opts);    # classifier heads
  endif
endfunction

## T.(f) as a list of names, or [] when absent; labels shaped like the
## ids (m×Bt) give the column of the batch item asked for (default 1).
function v = labels_of (T, f, opts)
  v = [];
  if (isfield (T, f))
    v = T.(f);
    if (iscell (v) && min (size (v)) > 1)
      v = v(:, max ([opts.batch, 1]));
    endif
  endif
endfunction

## c = as_labels (labels, n, argname):
## Token labels as a 1×n cellstr.  labels is a cellstr, a string
## of space-separated words, a numeric vector (printed as numbers) or empty
## (positions 1…n).  A count other than n is an
## attention:size error naming argname.
function c = as_labels (labels, n, argname)
  if (isempty (labels))
    c = arrayfun (@num2str, 1:n, "UniformOutput", false);
    return;
  elseif (ischar (labels))
    c = strsplit (strtrim (labels));
  elseif (iscellstr (labels))
    c = labels(:).';
  elseif (isnumeric (labels) && isvector (labels))
    c = arrayfun (@num2str, labels(:).', "UniformOutput", false);
  else
    error ("attention:type",
           "%s: expected a cell array of strings, a string of words or a vector, got %s",
           argname, class (labels));
  endif
  if (numel (c) != n)
    error ("attention:size", "%s: expected %d labels, got %d", argname, n, numel (c));
  endif
endfunction

## [v, parent, leaf] = trace_get (T, path):
## The value at path (e.g. "decoder{2@.cross.A"}) inside struct
## T, the struct that holds it and the last field name.  A missing
## field is an attention:field error naming the path.
function [v, parent, leaf] = trace_get (T, path)
  parts = regexp (path, '([A-Za-z_]\w*)(?:\{(\d+)\}|\((\d+)\))?', "tokens");
  if (isempty (parts))
    error ("attention:field", "trace path \"%s\": expected names such as \"cross.A\" or \"decoder{1}.cross.A\"", path);
  endif
  v = T;
  parent = T;
  for k = 1:numel (parts)
    name = parts{k}{1};
    if (! isstruct (v) || ! isfield (v, name))
      error ("attention:field", "trace path \"%s\": no field \"%s\"", path, name);
    endif
    parent = v;
    v = v.(name);
    if (numel (parts{k}) > 1 && ! isempty (parts{k}{2}))
      i = str2double (parts{k}{2});
      if (i > numel (v))
        error ("attention:field", "trace path \"%s\": %s has %d elements, asked for %d",
               path, name, numel (v), i);
      endif
      if (iscell (v))
        v = v{i};
      else
        v = v(i);
      endif
    endif
  endfor
  leaf = parts{end}{1};
endfunction
