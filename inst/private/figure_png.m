## -*- texinfo -*-
## @deftypefn  {} {} figure_png ("check", @var{px}, @var{caller})
## @deftypefnx {} {@var{fig} =} figure_png ("open", @var{file}, @var{px}, @var{caller})
## @deftypefnx {} {} figure_png ("save", @var{fig}, @var{file}, @var{px}, @var{keep})
## The figure of a plotting function with the options @code{"file"} (a PNG
## to write) and @code{"size"} (pixels), from its check to its file.
##
## @table @code
## @item "check"
## reject a @code{"size"} @var{px} that is not [width height] in whole
## positive pixels (@code{attention:option}).
## @item "open"
## a new figure of @var{px} pixels: invisible when @var{file} names a PNG
## to write (headless), visible when it is empty.  A @var{file} that is
## neither empty nor a string is an @code{attention:type} error.
## @item "save"
## when @var{file} is given, save @var{fig} there as a PNG of @var{px}
## pixels and close it unless @var{keep} (the caller returns the handle).
## The paper is sized at 100 dpi so that text keeps its point size whatever
## the number of panels (gnuplot's @code{-S} scales the fonts with the
## image); Ghostscript may round a side down by one pixel.  Without a file
## the figure stays open.
## @end table
## @end deftypefn

function fig = figure_png (action, varargin)
  switch (action)
    case "check"
      [px, caller] = varargin{:};
      if (! (isnumeric (px) && isreal (px) && numel (px) == 2 && all (px >= 1)
             && all (px == fix (px))))
        error ("attention:option", "%s: option \"size\" must be [width height] in whole pixels, got %s",
               caller, disp_arg (px));
      endif
    case "open"
      [file, px, caller] = varargin{:};
      saving = ! isempty (file);
      if (saving && ! ischar (file))
        error ("attention:type", "%s: \"file\": expected a file name string, got %s",
               caller, disp_arg (file));
      endif
      fig = figure ("visible", merge (saving, "off", "on"), "position", [100, 100, px]);
    case "save"
      [fig, file, px, keep] = varargin{:};
      if (! isempty (file))
        set (fig, "paperunits", "inches", "paperposition", [0, 0, px / 100]);
        print (fig, "-dpng", "-r100", file);
        if (! keep)
          close (fig);
        endif
      endif
  endswitch
endfunction

%!error <option "size" must be \[width height\] in whole pixels, got \[640 0.5\]> figure_png ("check", [640 0.5], "f")
%!error id=attention:option figure_png ("check", [1 2 3], "f")
%!error id=attention:option figure_png ("check", "ab", "f")
%!test
%! figure_png ("check", [1 1], "f");         # no error
%!error <f: "file": expected a file name string, got 3> figure_png ("open", 3, [10 10], "f")
