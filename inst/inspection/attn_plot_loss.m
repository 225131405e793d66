## -*- texinfo -*-
## @deftypefn  {} {} attn_plot_loss (@var{history})
## @deftypefnx {} {} attn_plot_loss (@var{history}, @var{name}, @var{value}, @dots{})
## @deftypefnx {} {@var{h} =} attn_plot_loss (@dots{})
## Plot the loss curves of training an attention model. Plot loss curves,
## and save them as PNG without a display.
##
## @var{history} is a vector of losses, a matrix whose columns are curves,
## or a struct (e.g. the history of @code{attn_train}): every numeric vector
## field whose name contains @code{loss} is a curve named after its field.
## The x axis is the field @code{step} or @code{epoch} when that has the
## same length as the longest curve, else 1, 2, @dots{}.  Every curve is
## drawn on its own true steps, never stretched: a shorter curve (a
## NaN-padded column, a shorter field) ends where its data ends, its k-th
## point at the k-th x; a field @code{epoch_@dots{}} or @code{val_@dots{}}
## beside a history's @code{epoch_step} (the step each epoch ended at, as
## @code{attn_train} records it) has its k-th point at step
## @code{epoch_step(k)}: the training loss of every step, its mean per
## epoch and the validation loss (@code{val_loss}) share one axis of true
## steps, the legend naming each.  A curve
## equal to one drawn before it (e.g. @code{epoch_loss} when every epoch
## is one step) is not drawn again: the legend names both, as
## @code{loss = epoch_loss}.
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
  [X, Y, names, xname] = curves (history, opts.labels);
  [X, Y, names] = distinct_curves (X, Y, names);
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

## Curves as columns of Y and their x values as columns of X (both padded
## with NaN: a curve ends where its data ends), their names, x's name.
function [X, Y, names, xname] = curves (history, labels)
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
    X = repmat ((1:rows (Y))', 1, columns (Y));
    X(isnan (Y)) = NaN;
  elseif (isstruct (history) && isscalar (history))
    f = fieldnames (history);
    keep = ! cellfun (@isempty, regexp (f, "loss")) ...
           & cellfun (@(n) isnumeric (history.(n)) && isvector (history.(n)), f);
    names = f(keep)';
    if (isempty (names))
      error ("attention:field", "attn_plot_loss: HISTORY: no numeric field whose name contains \"loss\"");
    endif
    n = max (cellfun (@(c) numel (history.(c)), names));
    x = (1:n)';
    for xf = {"epoch", "step"}
      if (isfield (history, xf{1}) && numel (history.(xf{1})) == n)
        x = history.(xf{1})(:);
        xname = xf{1};
        break;
      endif
    endfor
    [X, Y] = deal (NaN (n, numel (names)));
    for k = 1:numel (names)
      v = history.(names{k});
      at = 1:numel (v);
      if (! isempty (regexp (names{k}, "^(epoch|val)_", "once")) && isfield (history, "epoch_step")
          && numel (history.epoch_step) == numel (v) && all (history.epoch_step <= n))
        at = history.epoch_step;
      endif
      Y(1:numel (v), k) = v(:);
      X(1:numel (v), k) = x(at);
    endfor
  else
    error ("attention:type", "attn_plot_loss: HISTORY: expected a numeric array or a scalar struct, got %s",
           class (history));
  endif
endfunction

## A curve equal to an earlier one (same points to 1e-12 relative) is left
## out, its name joined to the earlier one's: "loss = epoch_loss".
function [X, Y, names] = distinct_curves (X, Y, names)
  keep = true (1, columns (Y));
  for k = 2:columns (Y)
    for j = find (keep(1:k-1))
      if (isequal (isnan (Y(:,j)), isnan (Y(:,k))) && isequaln (X(:,j), X(:,k))
          && all (abs (Y(:,j) - Y(:,k)) <= 1e-12 * abs (Y(:,j)) | isnan (Y(:,j))))
        keep(k) = false;
        names{j} = [names{j}, " = ", names{k}];
        break;
      endif
    endfor
  endfor
  X = X(:,keep);
  Y = Y(:,keep);
  names = names(keep);
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
%!   ## the 3-point curve on its own epochs 2, 4, 6, not spread to 10
%!   short = xy{cellfun (@(v) isnan (v(end,2)), xy)};
%!   assert (short(1:3,:), [2 2.1; 4 1.3; 6 0.9]);
%!   assert (all (isnan (short(4:end,:))(:)));
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

%!test
%! ## a NaN-padded column (a run that stopped at step 3 of 6) ends at step 3
%! h = attn_plot_loss ([6 5 4 3 2 1; 9 8 7 NaN NaN NaN]', "labels", {"long", "short"});
%! lines = findobj (findobj (h, "type", "axes", "-not", "tag", "legend"), "type", "line");
%! name = get (lines, "displayname");
%! x = get (lines(strcmp (name, "short")), "xdata");
%! y = get (lines(strcmp (name, "short")), "ydata");
%! assert (x(! isnan (y)), [1 2 3]);
%! assert (max (x), 3);
%! close (h);

%!test
%! ## attn_train's history: epoch means at the steps their epochs ended
%! hist = struct ("loss", [4 3 2 1.5 1.2 1], "epoch_loss", [3 1.2], "epoch_step", [3 6],
%!                "tokens_per_s", [10 10], "seconds", 1, "diverged", 0);
%! h = attn_plot_loss (hist);
%! lines = findobj (findobj (h, "type", "axes", "-not", "tag", "legend"), "type", "line");
%! ep = lines(strcmp (get (lines, "displayname"), "epoch_loss"));
%! assert (get (ep, "xdata")(1:2), [3 6]);
%! close (h);
%! ## one step per epoch: one curve named for both, not two on top of each other
%! hist = struct ("loss", [4 3 2], "epoch_loss", [4 3 2] * (1 + eps), "epoch_step", 1:3);
%! h = attn_plot_loss (hist);
%! lines = findobj (findobj (h, "type", "axes", "-not", "tag", "legend"), "type", "line");
%! assert (numel (lines), 1);
%! assert (get (lines, "displayname"), "loss = epoch_loss");
%! close (h);

%!test
%! ## attn_train with a validation corpus: the step losses, the epoch means
%! ## and the validation loss on one axis of true steps, a legend naming each
%! m = attn_toy ("blackcat");
%! corpus = {"the black cat", "le chat noir"; "the white dog", "le chien blanc";
%!           "the black dog", "le chien noir"};
%! [~, hist] = attn_train (m, corpus, "epochs", 3, "batch_size", 2, "lr", 0.01, "verbose", false,
%!                         "validation", {"the white cat", "le chat blanc"});
%! h = attn_plot_loss (hist);
%! ax = findobj (h, "type", "axes", "-not", "tag", "legend");
%! lines = findobj (ax, "type", "line");
%! name = get (lines, "displayname");
%! assert (sort (name), {"epoch_loss"; "loss"; "val_loss"});
%! x = @(n) get (lines(strcmp (name, n)), "xdata")(:)';
%! y = @(n) get (lines(strcmp (name, n)), "ydata")(:)';
%! assert (x ("loss"), 1:6);
%! assert (x ("val_loss")(1:3), [2 4 6]);
%! assert (y ("val_loss")(1:3), hist.val_loss);
%! assert (all (isnan (x ("val_loss")(4:end))));
%! assert (x ("epoch_loss")(1:3), hist.epoch_step);
%! legend_box = findobj (h, "type", "axes", "tag", "legend");
%! assert (! isempty (legend_box));
%! assert (get (ax, "xlabel") != 0 && strcmp (get (get (ax, "xlabel"), "string"), "step"));
%! close (h);

%!error id=attention:field attn_plot_loss (struct ("acc", [1 2]))
%!error id=attention:type attn_plot_loss ({1, 2})
%!error id=attention:size attn_plot_loss ([1 2; 3 4], "labels", {"a"})
%!error id=attention:option attn_plot_loss ([1 2], "colour")
%!error id=attention:option attn_plot_loss ([1 2], "colour", "red")
%!error id=attention:option attn_plot_loss ([1 2], "size", [640 -1])
%!error id=attention:option attn_plot_loss ([1 2], "file", 1)
%!error id=attention:option attn_plot_loss ([1 2], "log", "yes")
