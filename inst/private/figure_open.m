## -*- texinfo -*-
## @deftypefn {} {@var{fig} =} figure_open (@var{file}, @var{px}, @var{caller})
## A new figure of @var{px} = [width height] pixels for @var{caller}'s
## @code{"file"} option: invisible when @var{file} names a PNG to write
## (headless), visible when it is empty.  A @var{file} that is neither empty
## nor a string is an @code{attention:type} error.
## @end deftypefn

function fig = figure_open (file, px, caller)
  saving = ! isempty (file);
  if (saving && ! ischar (file))
    error ("attention:type", "%s: \"file\": expected a file name string, got %s",
           caller, disp_arg (file));
  endif
  fig = figure ("visible", merge (saving, "off", "on"), "position", [100, 100, px]);
endfunction
