## -*- texinfo -*-
## @deftypefn  {} {} attn_heatmap (@var{A}, @var{row_labels}, @var{col_labels})
## @deftypefnx {} {} attn_heatmap (@var{A}, @var{row_labels}, @var{col_labels}, @var{title})
## @deftypefnx {} {} attn_heatmap (@var{T}, @var{field})
## @deftypefnx {} {} attn_heatmap (@dots{}, @var{name}, @var{value})
## @deftypefnx {} {@var{h} =} attn_heatmap (@dots{})
## Draw attention weights (or any matrix) as a heatmap with token tick labels.
##
## The arguments are those of @code{attn_show}: a matrix with row and
## column labels, or a trace (kernel or model) and a field path such as
## @code{"encoder(1).self.A"}, @code{"decoder(2).self.A"} or
## @code{"decoder(1).cross.A"}; a per-head array gives one panel per head.
## Rows are queries (top to bottom), columns keys; each cell shows its value
## when the matrix is small enough to read (at most 12 columns).  Masked
## scores (@code{-Inf}) are drawn in the lowest colour and labelled
## @code{masked}.
##
## Options (name, value): @code{"file"} saves the figure as PNG to that
## path (headless: the figure is never shown when a file is given, and is
## closed after saving unless an output is requested); @code{"decimals"}
## (default 2) for the cell values; @code{"size"} the image size in pixels
## (default @code{[560 420]} per panel); @code{"rows"}, @code{"cols"},
## @code{"title"}, @code{"axes"}, @code{"head"}, @code{"batch"} as in
## @code{attn_show}.  @var{h} is the figure handle.
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
                                struct ("decimals", 2, "file", "", "size", [560 420]));
  check_size (opts.size, "attn_heatmap");
  warning ("off", "Octave:gnuplot-graphics", "local");
  np = numel (pages);
  ncol = ceil (sqrt (np));
  nrow = ceil (np / ncol);
  px = [opts.size(1) * ncol, opts.size(2) * nrow];
  fig = figure_open (opts.file, px, "attn_heatmap");
  for k = 1:np
    ## panels placed by hand: gnuplot's subplot clips the titles
    r = ceil (k / ncol);
    c = k - (r - 1) * ncol;
    axes ("position", [(c - 1 + 0.16) / ncol, (nrow - r + 0.12) / nrow, 0.62 / ncol, 0.74 / nrow]);
    draw_page (pages(k), opts.decimals, np > 1);
  endfor
  figure_save (fig, opts.file, px, nargout > 0);
  if (nargout > 0)
    h = fig;
  endif
endfunction

function draw_page (p, decimals, several)
  M = p.M;
  lo = min (M(isfinite (M)));
  if (isempty (lo))
    lo = 0;
  endif
  shown = M;
  shown(! isfinite (M) & M < 0) = lo;
  imagesc (shown);
  colormap (flipud (gray (64)) * 0.85 + 0.15 * [1 1 0.8]);
  colorbar ();
  axis ("ij");
  set (gca (), "xtick", 1:columns (M), "xticklabel", p.cols,
       "ytick", 1:rows (M), "yticklabel", p.rows, "fontsize", 10, "ticklength", [0 0]);
  title (merge (several, p.short, p.title), "interpreter", "none");
  if (columns (M) <= 12 && rows (M) <= 16)
    hi = max ([shown(:); lo]);
    mid = (lo + hi) / 2;
    for i = 1:rows (M)
      for j = 1:columns (M)
        if (M(i,j) == -Inf)
          text (j, i, "masked", "horizontalalignment", "center", "color", [0.5 0.5 0.5],
                "fontsize", 8);
        else
          text (j, i, sprintf ("%.*f", decimals, M(i,j)), "horizontalalignment", "center",
                "color", merge (shown(i,j) > mid, "white", "black"), "fontsize", 9);
        endif
      endfor
    endfor
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
%! assert (titles, {"masked.scores  head 1"; "masked.scores  head 2"});
%! txt = get (findobj (ax(1), "type", "text"), "string");
%! assert (sum (strcmp (txt, "masked")), 1);
%! close (h);
%! delete (f);

%!test
%! ## a model trace: layer and head chosen by path and option, tokens as ticks
%! c.src_vocab = attn_vocab ("the river bank");
%! c.tgt_vocab = attn_vocab ("la rive");
%! c.d = 4;  c.heads = 2;  c.encoder_layers = 2;  c.decoder_layers = 2;
%! tr = attn_forward (attn_model (c), "the river bank", "<bos> la rive");
%! f = [tempname() ".png"];
%! cases = {"encoder(2).self.A", tr.encoder(2).self.A, "<eos>";
%!          "decoder(2).self.A", tr.decoder(2).self.A, "rive";
%!          "decoder(1).cross.A", tr.decoder(1).cross.A, "rive"};
%! for k = 1:rows (cases)
%!   h = attn_heatmap (tr, cases{k,1}, "head", 2, "file", f);
%!   ax = findobj (h, "type", "axes", "-not", "tag", "colorbar");
%!   assert (numel (ax), 1);
%!   assert (strncmp (get (get (ax, "title"), "string"), cases{k,1}, numel (cases{k,1})));
%!   assert (numel (get (ax, "xticklabel")), columns (cases{k,2}));
%!   assert (get (ax, "yticklabel")(end), cases(k,3));
%!   txt = str2double (get (findobj (ax, "type", "text"), "string"));
%!   assert (sort (txt), sort (round (100 * reshape (cases{k,2}(:,:,2), [], 1)) / 100));
%!   close (h);
%! endfor
%! delete (f);

%!error id=attention:size attn_heatmap (eye (2), "a b c", [])
%!error id=attention:type attn_heatmap (eye (2), [], [], "t", "file", 3)
%!error <"size": expected \[width height\]> attn_heatmap (eye (2), "size", [0 10])
