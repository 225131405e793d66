## -*- texinfo -*-
## @deftypefn {} {} figure_save (@var{fig}, @var{file}, @var{px}, @var{keep})
## When @var{file} is given, save figure @var{fig} there as a PNG of
## @var{px} pixels and close it unless @var{keep} (the caller returns the
## handle).  Without a file the figure stays open.
## @end deftypefn

function figure_save (fig, file, px, keep)
  if (! isempty (file))
    save_png (fig, file, px);
    if (! keep)
      close (fig);
    endif
  endif
endfunction
