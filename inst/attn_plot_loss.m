## -*- texinfo -*-
## @deftypefn  {} {} attn_plot_loss (@var{history})
## @deftypefnx {} {} attn_plot_loss (@var{history}, @var{name}, @var{value}, @dots{})
## @deftypefnx {} {@var{h} =} attn_plot_loss (@dots{})
## Plot loss curves, and save them as PNG without a display.
##
## @var{history} is a vector of losses, a matrix whose columns are curves,
## or a struct (e.g. the history of @code{attn_train}): every numeric vector
## field whose name contains @code{loss} is a curve named after its field,
## drawn against the field @code{epoch} or @code{step} when that has the
## same length as the longest curve, else against 1, 2, @dots{}.  A shorter
## curve is spread over the same range, its k-th point at the end of the
## k-th period: @code{epoch_loss} (one mean per epoch) lines up with
## @code{loss} (one value per step).
##
## Options (name, value): @code{"file"} saves the figure as PNG there (the
## figure stays invisible, and is closed unless an output is requested);
## @code{"title"}; @code{"xlabel"}; @code{"labels"} (a cellstr naming the
## curves of a matrix); @code{"log"} (true: logarithmic loss axis);
## @code{"size"} in pixels (default @code{[640 420]}).
##
## @example
## @group
## f = [tempname() ".png"];
## hist = struct ("epoch", 1:20, "loss", exp (-(1:20) / 5));
## attn_plot_loss (hist, "file", f, "title", "river toy");
## exist (f, "file")
## @result{} ans = 2
## delete (f);
## @end group
## @end example
##
## @seealso{attn_heatmap}
## @end deftypefn

function h = attn_plot_loss (history, varargin)
  if (nargin < 1)
    print_usage ();
  endif
  opts = parse_options ("attn_plot_loss",
                        {"file", "", "text"; "title", "loss", "text"; "xlabel", "", "text";
                         "labels", {}, "any"; "log", false, "flag"; "size", [640 420], "any"},
                        varargin);
  figure_png ("check", opts.size, "attn_plot_loss");
  [x, Y, names, xname] = curves (history, opts.labels);
  ## a shorter curve (e.g. one mean per epoch beside one loss per step) is
  ## spread over the same range: point k at the end of its k-th period
  n = rows (Y);
  X = NaN (size (Y));
  for k = 1:columns (Y)
    nk = sum (! isnan (Y(:,k)));
    X(1:nk,k) = x(round ((1:nk) * n / nk));
  endfor
  if (isempty (opts.xlabel))
    opts.xlabel = xname;
  endif
  warning ("off", "Octave:gnuplot-graphics", "local");
  fig = figure_png ("open", opts.file, opts.size, "attn_plot_loss");
  if (opts.log)
    semilogy (X, Y, "linewidth", 2);
  else
    plot (X, Y, "linewidth", 2);
  endif
  grid ("on");
  xlabel (opts.xlabel);
  ylabel ("loss");
  title (opts.title, "interpreter", "none");
  legend (names, "interpreter", "none", "location", "northeast");
  figure_png ("save", fig, opts.file, opts.size, nargout > 0);
  if (nargout > 0)
    h = fig;
  endif
endfunction

## x (column), curves as columns of Y (NaN-padded), their names, x's name.
function [x, Y, names, xname] = curves (history, labels)
  xname = "step";
  if (isnumeric (history))
    if (isempty (history) || ! isreal (history) || ndims (history) > 2)
      error ("attention:type", "attn_plot_loss: HISTORY: expected a real vector or matrix, got a %s %s",
             shape_str (size (history)), class (history));
    endif
    Y = history;
    if (isrow (Y))
      Y = Y(:);
    endif
    if (isempty (labels))
      labels = merge (columns (Y) == 1, {"loss"},
                      arrayfun (@(k) sprintf ("curve %d", k), 1:columns (Y), "UniformOutput", false));
    endif
    if (numel (labels) != columns (Y))
      error ("attention:size", "attn_plot_loss: \"labels\": expected %d names, got %d", columns (Y), numel (labels));
    endif
    names = labels;
    x = (1:rows (Y))';
  elseif (isstruct (history) && isscalar (history))
    f = fieldnames (history);
    keep = ! cellfun (@isempty, regexp (f, "loss")) ...
           & cellfun (@(n) isnumeric (history.(n)) && isvector (history.(n)), f);
    names = f(keep)';
    if (isempty (names))
      error ("attention:field", "attn_plot_loss: HISTORY: no numeric field whose name contains \"loss\"");
    endif
    n = max (cellfun (@(c) numel (history.(c)), names));
    Y = NaN (n, numel (names));
    for k = 1:numel (names)
      v = history.(names{k});
      Y(1:numel (v), k) = v(:);
    endfor
    x = (1:n)';
    for xf = {"epoch", "step"}
      if (isfield (history, xf{1}) && numel (history.(xf{1})) == n)
        x = history.(xf{1})(:);
        xname = xf{1};
        break;
      endif
    endfor
  else
    error ("attention:type", "attn_plot_loss: HISTORY: expected a numeric array or a scalar struct, got %s",
           class (history));
  endif
endfunction

%!test
%! f = [tempname() ".png"];
%! unwind_protect
%!   h = attn_plot_loss (struct ("epoch", 2:2:10, "loss", [2 1 0.5 0.3 0.2],
%!                               "val_loss", [2.1 1.3 0.9], "lr", ones (1, 5)), "file", f);
%!   assert (exist (f, "file"), 2);
%!   info = imfinfo (f);
%!   assert ([info.Width, info.Height], [640 420], 1);   # ghostscript rounds
%!   ax = findobj (h, "type", "axes", "-not", "tag", "legend");
%!   lines = findobj (ax, "type", "line");
%!   assert (numel (lines), 2);
%!   xy = cellfun (@(x, y) [x(:), y(:)], get (lines, "xdata"), get (lines, "ydata"),
%!                 "UniformOutput", false);
%!   ## the 3-point curve spread over the 5 epochs: points at epochs 4, 6, 10
%!   short = xy{cellfun (@(v) isnan (v(end,2)), xy)};
%!   assert (short(1:3,:), [4 2.1; 6 1.3; 10 0.9]);
%!   long = xy{cellfun (@(v) ! isnan (v(end,2)), xy)};
%!   assert (long, [2 2; 4 1; 6 0.5; 8 0.3; 10 0.2]);
%!   close (h);
%! unwind_protect_cleanup
%!   if (exist (f, "file"))
%!     delete (f);
%!   endif
%! end_unwind_protect

%!test
%! ## without an output the saved figure is closed
%! f = [tempname() ".png"];
%! nfig = numel (get (0, "children"));
%! attn_plot_loss ([3 2 1; 4 3 2]', "file", f, "labels", {"a", "b"}, "log", true);
%! assert (exist (f, "file"), 2);
%! assert (numel (get (0, "children")), nfig);
%! delete (f);

%!error id=attention:field attn_plot_loss (struct ("acc", [1 2]))
%!error id=attention:type attn_plot_loss ({1, 2})
%!error id=attention:size attn_plot_loss ([1 2; 3 4], "labels", {"a"})
%!error id=attention:option attn_plot_loss ([1 2], "colour")
%!error id=attention:option attn_plot_loss ([1 2], "colour", "red")
%!error id=attention:option attn_plot_loss ([1 2], "size", [640 -1])
%!error id=attention:option attn_plot_loss ([1 2], "file", 1)
%!error id=attention:option attn_plot_loss ([1 2], "log", "yes")
