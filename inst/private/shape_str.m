## -*- texinfo -*-
## @deftypefn {} {@var{s} =} shape_str (@var{sz})
## The size vector @var{sz} as text for titles and messages, e.g.
## @code{"2×3"}.
## @end deftypefn

function s = shape_str (sz)
  s = strjoin (arrayfun (@num2str, sz, "UniformOutput", false), "×");
endfunction
