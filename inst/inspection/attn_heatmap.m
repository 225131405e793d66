## -*- texinfo -*-
## @deftypefn  {} {} attn_heatmap (@var{A}, @var{row_labels}, @var{col_labels})
## @deftypefnx {} {} attn_heatmap (@var{A}, @var{row_labels}, @var{col_labels}, @var{title})
## @deftypefnx {} {} attn_heatmap (@var{T}, @var{field})
## @deftypefnx {} {} attn_heatmap (@dots{}, @var{name}, @var{value})
## @deftypefnx {} {@var{h} =} attn_heatmap (@dots{})
## Draw attention weights or any matrix as a heatmap.  The axes are
## labelled with the tokens.
##
## The arguments are those of @code{attn_show}: a matrix with row and
## column labels, or a trace (kernel or model) and a field path such as
## @code{"encoder(1).self.A"}, @code{"decoder(2).self.A"} or
## @code{"decoder(1).cross.A"}; a per-head array gives one panel per head.
## Rows are queries (top to bottom), columns keys; every panel names its
## axes (e.g. target × source).  Each cell shows its value when the matrix
## is small enough to read (at most 12 columns and 16 rows, and the cells
## wide enough).  Masked scores
## (@code{-Inf}) are grey and hatched, a colour no value has, and labelled
## @code{masked}.
##
## The colours are the explorer's (@code{attn_explore}): a matrix with no
## negative value (weights, probabilities) runs from white to blue; a
## signed matrix (scores, logits, queries) runs from red (negative)
## through white (0) to blue (positive), centred at 0 (from -b to b, b the
## largest magnitude), so the sign of a cell shows at a glance.  White is
## always 0.  All panels share one colour scale: 0 to 1 when every value is
## in [0, 1] (weights: near-uniform attention looks pale, not sharp), else
## 0 to the largest value of all panels (-b to b when one is negative).  Column labels too wide to
## stand side by side stand upright, and the figure grows so that every
## label has a line of its own (40 tokens fit); when a given @code{"size"} is too small for that,
## every k-th label is drawn, numbered, and the caption below lists every
## token with its number.
##
## Options (name, value): @code{"file"} saves the figure as PNG to that
## path (headless: the figure is never shown when a file is given, and is
## closed after saving unless an output is requested); @code{"decimals"}
## (default 2) for the cell values; @code{"scale"}: @qcode{"shared"}
## (default) or @qcode{"panel"} (each panel from its own smallest to its
## largest value, -b to b when signed); @code{"size"} the size of one panel in pixels
## (default: @code{[560 420]}, larger for more than 20 tokens);
## @code{"rows"}, @code{"cols"}, @code{"title"}, @code{"axes"},
## @code{"head"}, @code{"batch"} as in @code{attn_show}.  @var{h} is the
## figure handle.
##
## @example
## @group
## f = [tempname() ".png"];
## attn_heatmap ([0.7 0.3; 0.1 0.9], "le chat", "the cat", "cross.A", "file", f);
## exist (f, "file")
## @result{} ans = 2
## delete (f);
## @end group
## @end example
##
## @seealso{attn_show, attn_plot_loss}
## @end deftypefn

function h = attn_heatmap (varargin)
  if (nargin < 1)
    print_usage ();
  endif
  [pages, opts] = matrix_pages (varargin, inputname (1, false), "attn_heatmap",
                                {"decimals", 2, "integer [0, 10]";
                                 "file", "", "text";
                                 "size", [], "any";
                                 "scale", "shared", "one of shared, panel"});
  warning ("off", "Octave:gnuplot-graphics", "local");
  np = numel (pages);
  ncol = ceil (sqrt (np));
  nrow = ceil (np / ncol);
  lay = panel_layout (pages(1), opts.size, opts.decimals);
  caption = caption_text (pages(1), lay, ncol * lay.px(1));
  px = [lay.px(1) * ncol, lay.px(2) * nrow + numel(caption) * lay.line];
  fig = figure_png ("open", opts.file, px, "attn_heatmap");
  clim = [];
  if (strcmp (opts.scale, "shared"))
    clim = colour_limits (vertcat (pages.M), false);
  endif
  for k = 1:np
    ## panels placed in pixels: gnuplot's subplot clips the titles
    r = ceil (k / ncol);
    c = k - (r - 1) * ncol;
    x0 = (c - 1) * lay.px(1) + lay.left;
    y0 = px(2) - r * lay.px(2) + lay.bottom;
    axes ("position", [x0 / px(1), y0 / px(2), lay.cells ./ px]);
    draw_page (pages(k), opts.decimals, np > 1, lay, clim);
  endfor
  if (! isempty (caption))
    axes ("position", [0 0 1 numel(caption) * lay.line / px(2)], "visible", "off", "tag", "caption");
    ## one text per line: gnuplot takes no multi-line text
    nl = numel (caption);
    for k = 1:nl
      text (0.01, (nl - k + 0.5) / nl, caption{k}, "units", "normalized", "fontsize", lay.font,
            "interpreter", "none", "verticalalignment", "middle");
    endfor
  endif
  figure_png ("save", fig, opts.file, px, nargout > 0);
  if (nargout > 0)
    h = fig;
  endif
endfunction

## Pixels of one panel: the matrix cells, the margins for the labels,
## which labels are drawn (every k-th when the cells are smaller than a
## line of text), and whether the column labels stand upright.
function lay = panel_layout (p, size_given, decimals)
  [n, m] = size (p.M);
  lay.font = merge (max (n, m) > 20, 8, 10);
  lay.line = round (1.6 * lay.font);             # pixels per line of text at 100 dpi
  charw = 0.7 * lay.font;                        # a lower-case character, at 100 dpi
  colw = max (text_width (p.cols));
  lay.left = round (max (60, charw * max (text_width (p.rows)) + 3.2 * lay.line));
  top = 2.2 * lay.line;
  right = 100;                                   # colour bar and its ticks
  ## a cell wide enough for its value when values are written
  valuew = 0.7 * 9 * (decimals + 4);
  cellpx = round (merge (m <= 12 && n <= 16, valuew, 1.1 * lay.line));
  if (isempty (size_given))
    ## cells big enough for a label each, the panel at least 560×420
    lay.px(1) = round (max (560, lay.left + m * cellpx + right));
  else
    figure_png ("check", size_given, "attn_heatmap");
    lay.px = size_given(:)';
  endif
  cw = (lay.px(1) - lay.left - right) / m;
  ## column labels upright when they do not fit side by side
  lay.upright = charw * colw > cw - 4;
  lay.bottom = round (merge (lay.upright, charw * colw + 0.8 * lay.line, 1.6 * lay.line)
                      + 1.6 * lay.line);
  if (isempty (size_given))
    lay.px(2) = round (max (420, lay.bottom + n * cellpx + top));
  endif
  lay.cells = max (lay.px - [lay.left + right, lay.bottom + top], [20 20]);
  lay.step = max (1, ceil (lay.line ./ (lay.cells ./ [m n])));   # [columns rows]
  ## values in the cells when there are few and they fit
  lay.values = m <= 12 && n <= 16 && all (lay.cells ./ [m n] >= [valuew, lay.line]);
endfunction

## Width of each label in lower-case characters: a capital letter is
## about 1.35 of them ("ORGANIZATION" is as wide as 16 lower-case letters).
function w = text_width (labels)
  w = utf8_width (labels) + 0.35 * cellfun (@(s) sum (s >= "A" & s <= "Z"), labels);
endfunction

## The full token lists, numbered, when some labels had to be left out;
## lines no wider than the figure.
function lines = caption_text (p, lay, width)
  lines = {};
  sides = {"columns", p.cols, lay.step(1); "rows", p.rows, lay.step(2)};
  if (! isempty (p.axes))
    sides(:,1) = p.axes([2 1])';
  endif
  per = max (20, floor (width / (0.75 * lay.font)) - 4);
  for s = 1:2
    if (sides{s,3} > 1 && ! (s == 2 && isequal (p.rows, p.cols) && lay.step(1) > 1))
      words = arrayfun (@(k) sprintf ("%d %s", k, sides{s,2}{k}), 1:numel (sides{s,2}),
                        "UniformOutput", false);
      txt = [sides{s,1}, ": ", strjoin(words, ", ")];
      lines = [lines, strtrim(regexp ([txt " "], sprintf ('.{1,%d}(?:, | $)', per), "match"))];
    endif
  endfor
endfunction

## [lo hi] of the colour scale: -b to b (b the largest magnitude) when a
## value is negative; else the smallest to the largest value when STRETCH,
## or 0 to 1 for values in [0, 1], or 0 to the largest value.
function clim = colour_limits (M, stretch)
  v = M(isfinite (M));
  if (isempty (v))
    clim = [0 1];
  elseif (min (v) < 0)
    clim = [-1 1] * max (abs (v));
  elseif (stretch && min (v) < max (v))
    clim = [min(v), max(v)];
  else
    clim = [0, max([v; 1])];
  endif
endfunction

## The explorer's colours, 64 steps: white to blue, or red through white
## (the middle) to blue when SIGNED.
function map = colour_map (signed)
  blue = [31 111 180] / 255;
  red = [214 39 40] / 255;
  t = linspace (0, 0.9, 32)';
  if (signed)
    neg = 1 - t(end:-1:1) .* (1 - red);
    map = [neg; 1 - t .* (1 - blue)];
  else
    map = 1 - linspace (0, 0.9, 64)' .* (1 - blue);
  endif
endfunction

## Grey hatched squares over the cells of MASK (one patch and one line
## object for all of them): a colour no value has.
function draw_masked (mask)
  [i, j] = find (mask);
  if (isempty (i))
    return;
  endif
  x = [j - 0.5, j + 0.5, j + 0.5, j - 0.5]';
  y = [i - 0.5, i - 0.5, i + 0.5, i + 0.5]';
  patch (x, y, [0.78 0.78 0.78], "edgecolor", "none", "tag", "masked");
  ## two hatch lines per cell, NaN between the segments
  k = numel (i);
  hx = [j - 0.5, j, NaN(k, 1), j, j + 0.5, NaN(k, 1)]';
  hy = [i, i - 0.5, NaN(k, 1), i + 0.5, i, NaN(k, 1)]';
  line (hx(:), hy(:), "color", [0.5 0.5 0.5], "tag", "hatch");
endfunction

function draw_page (p, decimals, several, lay, clim)
  M = p.M;
  [n, m] = size (M);
  if (isempty (clim))
    clim = colour_limits (M, true);
  endif
  signed = clim(1) < 0;
  masked = M == -Inf;
  shown = M;
  shown(masked) = clim(1);
  imagesc (shown, clim);
  colormap (colour_map (signed));
  colorbar ();
  axis ("ij");
  draw_masked (masked);
  xt = 1:lay.step(1):m;
  yt = 1:lay.step(2):n;
  set (gca (), "xtick", xt, "ytick", yt, "yticklabel", numbered (p.rows, yt, lay.step(2)),
       "fontsize", lay.font, "ticklength", [0 0]);
  xlab = numbered (p.cols, xt, lay.step(1));
  if (lay.upright)
    ## upright column labels, drawn as text (gnuplot ignores a tick label angle)
    set (gca (), "xticklabel", {});
    text (xt, repmat (n + 0.5 + 0.3 * n / lay.cells(2) * lay.line, size (xt)), xlab,
          "rotation", 90, "horizontalalignment", "right", "verticalalignment", "middle",
          "fontsize", lay.font, "interpreter", "none", "clipping", "off");
  else
    set (gca (), "xticklabel", xlab);
  endif
  ttl = p.title;
  if (several)
    ttl = p.short;
    if (! isempty (p.axes))
      ttl = sprintf ("%s  (%s × %s)", p.short, p.axes{:});
    endif
  endif
  title (ttl, "interpreter", "none");
  if (! isempty (p.axes))
    ylabel (p.axes{1});
    ## the column axis name below the labels, upright or not
    below = lay.bottom - 1.1 * lay.line;
    text ((m + 1) / 2, n + 0.5 + below * n / lay.cells(2), p.axes{2},
          "horizontalalignment", "center", "verticalalignment", "middle",
          "fontsize", lay.font, "clipping", "off");
  endif
  if (lay.values)
    ## white text on the darkest two fifths of the scale
    dark = merge (signed, abs (shown) > 0.6 * clim(2), shown > clim(1) + 0.6 * diff (clim));
    for i = 1:n
      for j = 1:m
        if (M(i,j) == -Inf)
          text (j, i, "masked", "horizontalalignment", "center", "color", [0.5 0.5 0.5],
                "fontsize", 8);
        else
          text (j, i, sprintf ("%.*f", decimals, M(i,j)), "horizontalalignment", "center",
                "color", merge (dark(i,j), "white", "black"), "fontsize", 9);
        endif
      endfor
    endfor
  endif
endfunction

## Labels at the ticks; numbered ("5 cat") when only every k-th is drawn.
function lab = numbered (labels, at, step)
  lab = labels(at);
  if (step > 1)
    lab = arrayfun (@(k) sprintf ("%d %s", k, labels{k}), at, "UniformOutput", false);
  endif
endfunction

%!test
%! f = [tempname() ".png"];
%! unwind_protect
%!   A = [0.08 0.22 0.61 0.08; 0.1 0.7 0.1 0.1; 0.05 0.05 0.85 0.05];
%!   h = attn_heatmap (A, "le chat noir", "the black cat <eos>", "cross.A", "file", f);
%!   info = imfinfo (f);
%!   assert ([info.Width, info.Height], [560 420], 1);   # ghostscript rounds
%!   ax = findobj (h, "type", "axes", "-not", "tag", "colorbar");
%!   assert (numel (ax), 1);
%!   assert (get (ax, "xticklabel")(:)', {"the", "black", "cat", "<eos>"});
%!   assert (get (ax, "yticklabel")(:)', {"le", "chat", "noir"});
%!   assert (get (get (ax, "title"), "string"), "cross.A  (3×4)");
%!   txt = findobj (ax, "type", "text");
%!   vals = sort (str2double (get (txt, "string")));
%!   assert (vals, sort (round (A(:) * 100) / 100));
%!   close (h);
%! unwind_protect_cleanup
%!   delete (f);
%! end_unwind_protect

%!test
%! ## a trace: one panel per head, masked cells labelled
%! T = struct ("kind", "masked", "heads", 2, "scores", cat (3, [1 -Inf; 2 3], [0 -Inf; 1 -1]));
%! f = [tempname() ".png"];
%! h = attn_heatmap (T, "scores", "file", f, "rows", "<bos> la", "cols", "<bos> la");
%! ax = findobj (h, "type", "axes", "-not", "tag", "colorbar");
%! titles = sort (cellfun (@(t) get (t, "string"), get (ax, "title"), "UniformOutput", false));
%! assert (titles, {"masked.scores  head 1  (target × target)";
%!                  "masked.scores  head 2  (target × target)"});
%! ## every panel names its axes; scores share one colour scale
%! assert (get (cell2mat (get (ax, "ylabel")), "string"), {"target"; "target"});
%! ## signed: centred at 0, red through white to blue
%! assert (get (ax, "clim"), {[-3 3]; [-3 3]});
%! map = colormap (ax(1));
%! assert (map([1 end],:), 1 - 0.9 * (1 - [214 39 40; 31 111 180] / 255), 1e-12);
%! assert (min (sum (map, 2)), sum (map(1,:)), 1e-12);          # darkest at the ends
%! assert (map(32:33,:), 1 - [0 0 0; 0 0 0], 1e-12);           # white at 0
%! ## each masked cell grey and hatched, a colour the map does not hold
%! for k = 1:2
%!   p = findobj (ax(k), "tag", "masked");
%!   assert (get (p, "facecolor"), [0.78 0.78 0.78]);
%!   assert ([min(get (p, "xdata")); max(get (p, "xdata")); min(get (p, "ydata")); max(get (p, "ydata"))],
%!           [1.5; 2.5; 0.5; 1.5]);                             # cell (1,2)
%!   assert (! isempty (findobj (ax(k), "tag", "hatch")));
%! endfor
%! assert (! any (all (abs (map - 0.78) < 0.05, 2)));
%! txt = get (findobj (ax(1), "type", "text"), "string");
%! assert (sum (strcmp (txt, "masked")), 1);
%! close (h);
%! delete (f);

%!test
%! ## a model trace: layer and head chosen by path and option, tokens as ticks
%! c.src_vocab = attn_vocab ("the river bank");
%! c.tgt_vocab = attn_vocab ("la rive");
%! c.d = 4;  c.heads = 2;  c.encoder_layers = 2;  c.decoder_layers = 2;
%! m = attn_model (c);
%! tr = attn_forward (m, "the river bank", "<bos> la rive");
%! ## a decoder row is named by the word it writes: the next word of the
%! ## prefix, and at the last row the model's most probable word
%! [~, best] = max (tr.probs(3,:));
%! written = {"la", "rive", m.tgt_vocab.words{best}};
%! f = [tempname() ".png"];
%! cases = {"encoder(2).self.A", tr.encoder(2).self.A, {"the", "river", "bank", "<eos>"}, "source";
%!          "decoder(2).self.A", tr.decoder(2).self.A, written, "word written";
%!          "decoder(1).cross.A", tr.decoder(1).cross.A, written, "word written"};
%! for k = 1:rows (cases)
%!   h = attn_heatmap (tr, cases{k,1}, "head", 2, "file", f);
%!   ax = findobj (h, "type", "axes", "-not", "tag", "colorbar");
%!   assert (numel (ax), 1);
%!   assert (strncmp (get (get (ax, "title"), "string"), cases{k,1}, numel (cases{k,1})));
%!   assert (numel (get (ax, "xticklabel")), columns (cases{k,2}));
%!   assert (get (ax, "yticklabel")(:)', cases{k,3});
%!   assert (get (get (ax, "ylabel"), "string"), cases{k,4});
%!   txt = str2double (get (findobj (ax, "type", "text"), "string"));
%!   txt = txt(! isnan (txt));                   # the axis name is text too
%!   assert (sort (txt), sort (round (100 * reshape (cases{k,2}(:,:,2), [], 1)) / 100));
%!   close (h);
%! endfor
%! delete (f);

%!error id=attention:size attn_heatmap (eye (2), "a b c", [])
%!test
%! ## weights share the scale 0 to 1 (near-uniform heads look pale);
%! ## "scale", "panel" stretches each head to its own range
%! A = cat (3, [0.9 0.1; 0.2 0.8], [0.45 0.55; 0.6 0.4]);
%! T = struct ("kind", "self", "heads", 2, "A", A);
%! h = attn_heatmap (T, "A", "file", [tempname() ".png"]);
%! ax = findobj (h, "type", "axes", "-not", "tag", "colorbar");
%! assert (get (ax, "clim"), {[0 1]; [0 1]});
%! close (h);
%! ## white is 0: a positive matrix is drawn from 0, not from its smallest value
%! h = attn_heatmap ([2 3; 4 5]);
%! assert (get (findobj (h, "type", "axes", "-not", "tag", "colorbar"), "clim"), [0 5]);
%! close (h);
%! h = attn_heatmap (T, "A", "scale", "panel");
%! ax = findobj (h, "type", "axes", "-not", "tag", "colorbar");
%! lims = sortrows (cell2mat (get (ax, "clim")));
%! assert (lims, sortrows ([min(A(:,:,1)(:)), max(A(:,:,1)(:)); min(A(:,:,2)(:)), max(A(:,:,2)(:))]));
%! close (h);

%!test
%! ## 40 tokens: every column label drawn upright, the figure grows to fit
%! w = arrayfun (@(k) sprintf ("w%02d", k), 1:40, "UniformOutput", false);
%! A = ones (40) / 40;
%! f = [tempname() ".png"];
%! h = attn_heatmap (A, w, w, "self.A", "axes", {"source", "source"}, "file", f);
%! ax = findobj (h, "type", "axes", "-not", "tag", "colorbar");
%! t = findobj (ax, "type", "text", "rotation", 90);
%! assert (sort (get (t, "string"))', w);
%! assert (get (ax, "yticklabel")(:)', w);
%! info = imfinfo (f);
%! assert (info.Width > 560 && info.Height > 420);
%! close (h);
%! ## a figure too small for 40 labels: every other one, numbered, and the
%! ## full list in the caption
%! h = attn_heatmap (A, w, w, "self.A", "size", [560 420], "file", f);
%! ax = findobj (h, "type", "axes", "-not", "tag", "colorbar", "-not", "tag", "caption");
%! ticks = get (ax, "yticklabel");
%! assert (numel (ticks) < 40);
%! at = get (ax, "ytick");
%! assert (ticks{2}, sprintf ("%d %s", at(2), w{at(2)}));
%! cap = strjoin (get (findobj (findobj (h, "tag", "caption"), "type", "text"), "string")', " ");
%! for k = 1:40
%!   assert (! isempty (strfind (cap, sprintf ("%d %s", k, w{k}))));
%! endfor
%! close (h);
%! delete (f);

%!test
%! ## a token classifier's probabilities: source words × classes; the long
%! ## capitalised class names stand upright instead of running together
%! v = struct ("words", {{"PERSON", "ORGANIZATION", "PLACE", "OTHER"}}, "pad", 0, "unk", 0,
%!             "bos", 0, "eos", 0);
%! m = attn_family (struct ("family", "encoder-token",
%!                          "src_vocab", attn_vocab ("Raghav goes to school in Delhi"), "tgt_vocab", v, "d", 8, "heads", 2, "decoder_layers", 0));
%! tr = attn_forward (m, "Raghav goes to school in Delhi");
%! h = attn_heatmap (tr, "probs");
%! ax = findobj (h, "type", "axes", "-not", "tag", "colorbar");
%! assert (get (get (ax, "title"), "string"), "probs  (6×4: source × class)");
%! assert (get (ax, "yticklabel")(:)', {"Raghav", "goes", "to", "school", "in", "Delhi"});
%! up = findobj (ax, "type", "text", "rotation", 90);
%! assert (sort (get (up, "string"))', sort (v.words));
%! close (h);

%!error id=attention:option attn_heatmap (eye (2), [], [], "t", "file", 3)
%!error id=attention:option attn_heatmap (eye (2), "scale", "log")
%!error id=attention:option attn_heatmap (eye (2), "filee", "x.png")
%!error <option "size" must be \[width height\]> attn_heatmap (eye (2), "size", [0 10])
