## -*- texinfo -*-
## @deftypefn  {} {} attn_show (@var{M})
## @deftypefnx {} {} attn_show (@var{M}, @var{row_labels}, @var{col_labels})
## @deftypefnx {} {} attn_show (@var{M}, @var{row_labels}, @var{col_labels}, @var{title})
## @deftypefnx {} {} attn_show (@var{T}, @var{field})
## @deftypefnx {} {} attn_show (@dots{}, @var{name}, @var{value})
## @deftypefnx {} {@var{s} =} attn_show (@dots{})
## Print an attention matrix as a table labelled by tokens.
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
## @code{"A"} or @code{"decoder(1).cross.A"}, the matrix is read from the
## trace and the title uses the seed's notation with the block's kind and the
## meaning of each axis, e.g. @code{cross.A  (3×4: target × source)}.  Rows
## and columns are labelled with the trace's tokens (@code{source_labels},
## @code{target_labels}, and @code{vocab_labels} or @code{class_labels} for
## logits and probabilities) when it has them.  A model trace's decoder
## rows are named by the word they write (@code{written_labels}, as seed
## 004's grid names them), and the axis says so:
## @code{decoder(1).cross.A  (3×4: word written × source)}; a token
## classifier's outputs are @code{source × class}.  Per-head
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
## @item "last"
## true: print only the last row (the position that predicts the next
## token).
## @item "top"
## k > 0: each row's k largest values only, largest first, each with its
## column label (e.g. the five most probable of 215 words); default 0 (all).
## @item "columns"
## print at most this many columns (default all); a line says how many
## more there are.
## @end table
##
## With a model @var{m} (a struct from @code{attn_model}, @code{attn_family}
## or @code{attn_toy}) alone, @code{attn_show (@var{m})} prints the model on
## one screen: its configuration, vocabularies and parameter count, then
## every array in model order with its path (@code{decoder.1.cross.W_Q}),
## shape, number of parameters and norm.  The layers of a stack share a row
## per array, e.g. @code{encoder.1-2.self.W_Q  32×32  2 × 1,024}, with the
## norm of each layer.  The arrays are those of the model's schema: a model
## that lacks one or holds one of the wrong shape is an
## @code{attention:model} error.
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
  if (nargin == 1 && isstruct (varargin{1}) && isscalar (varargin{1})
      && isfield (varargin{1}, "config") && isstruct (varargin{1}.config))
    name = inputname (1, false);
    txt = show_model (varargin{1}, merge (isvarname (name), name, "model"));
  else
    txt = show_matrix (varargin, inputname (1, false));
  endif
  if (nargout > 0)
    s = txt;
  else
    printf ("%s", txt);
  endif
endfunction

function txt = show_matrix (args, argname)
  [pages, opts] = matrix_pages (args, argname, "attn_show",
                                {"decimals", 3, "integer [0, 16]";
                                 "width", 80, "integer [1, Inf)";
                                 "last", false, "flag";
                                 "top", 0, "integer [0, Inf)";
                                 "columns", Inf, "integer [1, Inf]"});
  ## one titled table per page, a blank line between pages
  tables = cell (size (pages));
  for k = 1:numel (pages)
    p = pages(k);
    cells = number_cells (p.M, opts.decimals);
    cols = p.cols;
    more = "";
    if (opts.top > 0)
      ## each row's largest values, with the label of their column
      t = min (opts.top, columns (p.M));
      [~, at] = sort (p.M, 2, "descend");
      at = at(:,1:t);
      cells = strcat (cols(at), {" "}, cells(sub2ind (size (p.M), repmat ((1:rows (p.M))', 1, t), at)));
      cols = arrayfun (@(j) sprintf ("top %d", j), 1:t, "UniformOutput", false);
      p.title = sprintf ("%s  the %d largest of %d in each row", p.title, t, columns (p.M));
    endif
    if (columns (cells) > opts.columns)
      more = sprintf ("  ... %d more columns\n", columns (cells) - opts.columns);
      cells = cells(:,1:opts.columns);
      cols = cols(1:opts.columns);
    endif
    tables{k} = [p.title, "\n", format_cells(cells, p.rows, cols, opts.width), more];
  endfor
  txt = strjoin (tables, "\n");
endfunction

## s = show_model (m, name):
## One screen of text about model m (titled name; checked by check_model):
## its configuration, vocabularies, parameter count, then one row per array in
## model order with its path ("decoder.1.cross.W_Q"), shape,
## parameter count and Frobenius norm.  The layers of a stack share one row
## per array (encoder.1-2.self.W_Q, a norm per layer; the smallest and
## largest beyond four layers).  Arrays that are not learned (sinusoidal
## positions) are marked fixed.
function s = show_model (m, name)
  ## the arrays in model order (path, shape, learned) are the schema's
  parts = model_schema (check_model (m, "attn_show"));
  ## head counts are numbers of the config, not arrays
  parts = parts(! strcmp ({parts.init}, "heads"));
  vals = arrayfun (@(p) subsref (m, p.subs), parts, "UniformOutput", false);
  count = cellfun (@numel, vals);
  norms = cellfun (@(v) norm (v(:)), vals);
  s = sprintf ("%s: %s\n", name, config_text (m.config));
  vocabs = vocab_fields (m);
  words = cell (1, numel (vocabs));
  for k = 1:numel (vocabs)
    same = find (cellfun (@(f) isequal (m.(f), m.(vocabs{k})), vocabs(1:k-1)), 1);
    if (isempty (same))
      words{k} = sprintf ("%s %d words", vocabs{k}, numel (m.(vocabs{k}).words));
    else
      words{k} = sprintf ("%s = %s", vocabs{k}, vocabs{same});
    endif
  endfor
  learned = [parts.learned];
  nlearned = "all";
  if (! all (learned))
    nlearned = thousands (sum (count(learned)));
  endif
  s = [s, wrapped([strjoin(words, ", "), sprintf("; %d arrays, %s parameters, %s learned",
                                                 numel (parts), thousands (sum (count)), nlearned)]), "\n"];
  ## rows: one per array, or per array of a stack's layers
  [key, layer] = stack_keys ({parts.path}, cellfun (@size, vals, "UniformOutput", false));
  [~, first, g] = unique (key, "first");
  tab = cell (numel (first), 4);
  ## rows in model order: by the first array of each group
  [~, order] = sort (first);
  for r = 1:numel (first)
    in = find (g == order(r))';
    p = parts(in(1));
    path = p.path;
    nparam = thousands (count(in(1)));
    if (numel (in) > 1)
      path = regexprep (path, '^(\w+)\.\d+\.', sprintf ('$1.%d-%d.', layer(in([1 end]))));
      nparam = sprintf ("%d × %s", numel (in), nparam);
    endif
    if (! p.learned)
      path = [path, " (fixed)"];
    endif
    if (all (norms(in) == norms(in(1))))
      nrm = sprintf ("%.2f", norms(in(1)));
    elseif (numel (in) <= 4)
      nrm = strjoin (arrayfun (@(x) sprintf ("%.2f", x), norms(in), "UniformOutput", false), "  ");
    else
      nrm = sprintf ("%.2f to %.2f", min (norms(in)), max (norms(in)));
    endif
    tab(r,:) = {path, shape_str(p.shape), nparam, nrm};
  endfor
  tab = [{"path", "shape", "parameters", merge(numel (first) < numel (parts), "norm (by layer)", "norm")}; tab];
  w = max (cellfun (@(c) utf8_width ({c}), tab), [], 1);
  for r = 1:rows (tab)
    s = [s, sprintf("%s%s  %s%s  %s%s  %s\n", tab{r,1}, blanks(w(1) - utf8_width (tab(r,1))),
                    tab{r,2}, blanks(w(2) - utf8_width (tab(r,2))),
                    blanks(w(3) - utf8_width (tab(r,3))), tab{r,3}, tab{r,4})];
  endfor
endfunction

## The vocabularies of M (structs with a word list).
function f = vocab_fields (m)
  f = fieldnames (m)';
  f = f(cellfun (@(n) isstruct (m.(n)) && isfield (m.(n), "words"), f));
endfunction

## Rows of a stack's layers share a key (stack, rest of the path, shape);
## LAYER is the layer number (0 outside a stack).
function [key, layer] = stack_keys (paths, shapes)
  tok = regexp (paths, '^(\w+)\.(\d+)\.(.*)$', "tokens", "once");
  layer = zeros (1, numel (paths));
  key = paths;
  for k = 1:numel (paths)
    if (! isempty (tok{k}))
      layer(k) = str2double (tok{k}{2});
      key{k} = sprintf ("%s.*.%s %s", tok{k}{1}, tok{k}{3}, mat2str (shapes{k}));
    endif
  endfor
endfunction

function s = config_text (c)
  f = fieldnames (c)';
  keep = cellfun (@(n) ischar (c.(n)) || (isnumeric (c.(n)) && isscalar (c.(n))), f);
  items = cellfun (@(n) sprintf ("%s = %s", n, num2str (c.(n))), f(keep), "UniformOutput", false);
  s = wrapped (strjoin (items, ", "));
endfunction

## Text of items joined by ", " wrapped when longer than 78 characters,
## continuation lines indented (a GPT-2's summary line is 93 characters long)
function s = wrapped (s)
  if (numel (s) <= 78)
    return;
  endif
  s = regexprep (s, '(.{1,74})(, |$)', "$1,\n  ");
  s = regexprep (s, ',\n  $', "");
endfunction

function s = thousands (n)
  s = regexprep (sprintf ("%d", n), '(\d)(?=(\d{3})+$)', '$1,');
endfunction

## The numbers of M as text with DECIMALS digits after the point.
function cells = number_cells (M, decimals)
  cells = cell (size (M));
  if (isempty (M))
    return;
  endif
  cells = reshape (strtrim (cellstr (num2str (M(:), sprintf ("%%.%df", decimals)))), size (M));
  ## "-0.000" reads as a sign that is not there
  cells = regexprep (cells, '^-(0\.?0*)$', '$1');
endfunction

## s = format_cells (cells, rows, cols, width): the text cells of an n×m
## table: row labels on the left, column labels above, cells right-aligned
## in one width; column groups wrapped so no line is wider than WIDTH.
function s = format_cells (cells, rows, cols, width)
  [n, m] = size (cells);
  if (n == 0 || m == 0)
    s = "  (empty)\n";
    return;
  endif
  ## one width for every column: a grid reads better than ragged columns
  colw = max ([utf8_width(cells(:)); utf8_width(cols(:))]) + 2;
  roww = max ([utf8_width(rows), 0]);
  ## column groups: as many columns as fit the line, at least one
  per = max (1, floor ((width - roww) / colw));
  s = "";
  for first = 1:per:m
    last = min (first + per - 1, m);
    if (first > 1 || last < m)
      if (first == last)
        s = [s, sprintf("  column %d of %d\n", first, m)];
      else
        s = [s, sprintf("  columns %d to %d of %d\n", first, last, m)];
      endif
    endif
    s = [s, blanks(roww), pad_right(cols(first:last), colw){:}, "\n"];
    for i = 1:n
      s = [s, pad_left(rows{i}, roww), pad_right(cells(i,first:last), colw){:}, "\n"];
    endfor
  endfor
endfunction

## string x left-aligned in width w (row labels)
function x = pad_left (x, w)
  x = [x, blanks(w - utf8_width ({x}))];
endfunction

## strings of cell c right-aligned in width w (numbers and column labels)
function c = pad_right (c, w)
  c = cellfun (@(x) [blanks(w - utf8_width ({x})), x], c, "UniformOutput", false);
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
%! ## a batched per-head array (n×m×h×Bt): "head" and "batch" pick the pages
%! T = struct ("kind", "self", "heads", 2, "A", reshape ((1:24) / 24, 2, 2, 2, 3));
%! t = attn_show (T, "A", "head", 2, "batch", 3, "decimals", 4);
%! lines = strsplit (t, "\n");
%! assert (lines{1}, "self.A  (2×2: source × source)  head 2, item 3");
%! got = cellfun (@(l) str2double (strsplit (strtrim (l(2:end)))), lines(3:4),
%!                "UniformOutput", false);
%! assert (vertcat (got{:}), round (1e4 * T.A(:,:,2,3)) / 1e4);
%! t = attn_show (T, "A", "batch", 2);
%! assert (regexp (t, 'head \d, item \d', "match"), {"head 1, item 2", "head 2, item 2"});

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

%!test
%! ## "top": each row's largest values with their labels; "columns": the first few
%! t = attn_show ([0.1 0.5 0.4; 0.7 0.2 0.1], "r1 r2", "a b c", "title", "P", "top", 2,
%!                "decimals", 1);
%! assert (t, ["P  (2×3)  the 2 largest of 3 in each row\n", "    top 1  top 2\n", ...
%!             "r1  b 0.5  c 0.4\n", "r2  a 0.7  b 0.2\n"]);
%! t = attn_show (magic (4), "columns", 3, "decimals", 0);
%! lines = strsplit (t, "\n");
%! assert (strsplit (strtrim (lines{2})), {"1", "2", "3"});
%! assert (lines{end-1}, "  ... 1 more columns");

%!test
%! t = attn_show ([1 2; 3 4; 5 6], "a b c", "x y", "last", true);
%! lines = strsplit (t, "\n");
%! assert (lines{1}, "M  (row 3 of 3×2)");
%! assert (strsplit (lines{3}), {"c", "5.000", "6.000"});
%! assert (numel (lines), 4);

%!test
%! ## an empty matrix; a width narrower than one column still prints it
%! assert (attn_show (zeros (0, 3)), "M  (0×3)\n  (empty)\n");
%! t = attn_show ([1.5 2.5], "width", 3);
%! assert (regexp (t, 'column (\d) of 2', "tokens"), {{"1"}, {"2"}});

%!test
%! ## a model on one screen; counts and norms against the arrays themselves
%! c.src_vocab = attn_vocab ("the river bank");
%! c.tgt_vocab = attn_vocab ("la rive");
%! c.d = 8;  c.heads = 2;  c.d_ff = 12;  c.encoder_layers = 2;  c.decoder_layers = 2;
%! net = attn_model (c);
%! t = attn_show (net);
%! lines = strsplit (strtrim (t), "\n");
%! assert (numel (lines) <= 42);
%! assert (strncmp (lines{1}, "net: family = encoder-decoder, d = 8, heads = 2", 47));
%! [d, f, Vs, Vt, P] = deal (8, 12, numel (net.src_vocab.words), numel (net.tgt_vocab.words),
%!                           net.config.max_len);
%! enc = 4*d*d + d*f + f + f*d + d + 4*d;      # attention, FFN, two LayerNorms
%! dec = 8*d*d + d*f + f + f*d + d + 6*d;
%! total = (Vs + Vt + 2*P) * d + 2*enc + 2*dec + d*Vt + Vt;
%! printed = regexp (t, '([\d,]+) parameters', "tokens", "once"){1};
%! assert (str2double (strrep (printed, ",", "")), total);
%! row = lines{find (strncmp (lines, "decoder.1-2.cross.W_K ", 22))};
%! assert (strsplit (row), {"decoder.1-2.cross.W_K", "8×8", "2", "×", "64", ...
%!                          sprintf("%.2f", norm (net.decoder(1).cross.W_K, "fro")), ...
%!                          sprintf("%.2f", norm (net.decoder(2).cross.W_K, "fro"))});
%! row = lines{find (strncmp (lines, "W_vocab ", 8))};
%! assert (strsplit (row), {"W_vocab", sprintf("8×%d", Vt), num2str(d*Vt), ...
%!                          sprintf("%.2f", norm (net.W_vocab, "fro"))});
%! ## model order: embeddings, encoder, decoder, vocabulary head
%! at = cellfun (@(p) find (strncmp (lines, p, numel (p)), 1),
%!               {"src_embed", "tgt_pos", "encoder.1-2.self.W_Q", "encoder.1-2.ffn.W_1", ...
%!                "decoder.1-2.self.W_Q", "decoder.1-2.cross.W_Q", "W_vocab", "b_vocab"});
%! assert (issorted (at));
%! assert (max (cellfun (@numel, lines)) <= 80);

%!test
%! ## one layer keeps its number; fixed sinusoidal positions are marked
%! t = attn_show (attn_toy ("blackcat"));
%! assert (! isempty (regexp (t, '\ndecoder\.1\.cross\.W_K +10×4 +40 +4\.00\n')));
%! lm = attn_family (struct ("family", "decoder-only", "vocab", "a b c", "d", 8,
%!                           "heads", 2, "layers", 6, "positions", "sinusoidal"));
%! t = attn_show (lm);
%! assert (! isempty (strfind (t, "tgt_pos (fixed)")));
%! assert (! isempty (strfind (t, "src_vocab = tgt_vocab")));
%! row = regexp (t, 'decoder\.1-6\.self\.W_Q +8×8 +6 × 64 +([\d.]+) to ([\d.]+)', "tokens"){1};
%! n = arrayfun (@(L) norm (L.self.W_Q, "fro"), lm.decoder);
%! assert (str2double (row), round (100 * [min(n), max(n)]) / 100, 1e-12);

%!test
%! ## a summary line too long for 80 columns (a 300-word vocabulary and
%! ## thousands of parameters) is wrapped at ", " as the config is
%! lm = attn_family (struct ("family", "decoder-only", "d", 8, "heads", 2, "layers", 2,
%!                           "vocab", {arrayfun(@(k) sprintf ("w%d", k), 1:300, "UniformOutput", false)}));
%! lines = strsplit (attn_show (lm), "\n");
%! chars = cellfun (@(l) numel (regexprep (l, '[\x80-\xBF]', "")), lines);
%! assert (max (chars) <= 78);
%! k = find (! cellfun (@isempty, regexp (lines, '^\w+ \d+ words, ')));
%! assert (numel (k), 1);
%! assert (strncmp (lines{k+1}, "  ", 2));
%! joined = [lines{k}, " ", strtrim(lines{k+1})];
%! assert (numel (joined) > 78);
%! assert (! isempty (regexp (joined, '^\w+ 30\d words, \w+ = \w+; \d+ arrays, [\d,]+ parameters, all learned$')));

%!test
%! ## a misspelled option is an option error, not row labels
%! try
%!   attn_show (eye (3), "decimls", 2);
%!   error ("no error");
%! catch err
%!   assert (err.identifier, "attention:option");
%!   assert (! isempty (strfind (err.message, "unknown option \"decimls\"")));
%! end_try_catch
%!error id=attention:option attn_show (eye (3), "a b c", "x y z", "decimls", 2)
%!error id=attention:option attn_show (eye (3), "a b c", "x y z", "t", "widht", 2)
%!error id=attention:option attn_show (eye (3), "decimals", -1)
%!error id=attention:option attn_show (eye (3), "axes", "target")
%!error <expected 3 labels, got 2> attn_show (eye (3), "a b")
%!error id=attention:size attn_show (eye (3), {"a", "b"}, [])
%!error id=attention:type attn_show ({1})
%!error id=attention:field attn_show (struct ("A", 1), "B")
%!error id=attention:field attn_show (struct ("A", 1), "A{2}")
%!error id=attention:field attn_show (struct ("A", {1, 2}), "A(3)")
%!error id=attention:size attn_show (struct ("kind", "self", "A", ones (2, 2, 2)), "A", "head", 3)
%!error <attn_show: .*W_vocab> attn_show (rmfield (attn_toy ("river"), "W_vocab"))
