## -*- texinfo -*-
## @deftypefn {} {@var{w} =} utf8_width (@var{c})
## Display width of each string of cell @var{c}: its number of UTF-8 code
## points (continuation bytes 0x80-0xBF do not count).
## @end deftypefn

function w = utf8_width (c)
  w = cellfun (@(s) sum (uint8 (s) < 128 | uint8 (s) > 191), c);
endfunction
