## s = disp_arg (x): a short description of an argument for error messages.
function s = disp_arg (x)
  if (ischar (x) && rows (x) <= 1)
    s = ["\"" x "\""];
  elseif (isnumeric (x) && numel (x) <= 4)
    s = mat2str (x, 4);
  else
    s = sprintf ("a %s %s", shape_str (size (x)), class (x));
  endif
endfunction
