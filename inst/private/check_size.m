## -*- texinfo -*-
## @deftypefn {} {} check_size (@var{px}, @var{caller})
## Reject a figure size that is not [width height] in whole positive pixels
## (@code{attention:option}).
## @end deftypefn

function check_size (px, caller)
  if (! (isnumeric (px) && isreal (px) && numel (px) == 2 && all (px >= 1)
         && all (px == fix (px))))
    error ("attention:option", "%s: option \"size\" must be [width height] in whole pixels, got %s",
           caller, mat2str (px));
  endif
endfunction
