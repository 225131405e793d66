## -*- texinfo -*-
## @deftypefn {} {} save_png (@var{fig}, @var{file}, @var{px})
## Save figure @var{fig} as a PNG of @var{px} = [width height] pixels.  The
## paper is sized at 100 dpi so that text keeps its point size whatever the
## number of panels (gnuplot's @code{-S} scales the fonts with the image).
## Ghostscript may round a side down by one pixel.
## @end deftypefn

function save_png (fig, file, px)
  set (fig, "paperunits", "inches", "paperposition", [0, 0, px / 100]);
  print (fig, "-dpng", "-r100", file);
endfunction
