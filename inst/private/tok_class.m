## cls = tok_class (cp): the general-category class of each code point (1
## letter, 2 number, 3 punctuation, 4 non-spacing mark, 5 control, 0 other;
## see tok_unicode), ASCII by a table and the rest by a search of the
## ranges.
function cls = tok_class (cp)
  u = tok_unicode ();
  [start, class] = deal (double (u.class_start), double (u.class));
  ascii = cp < 128;
  cls = zeros (size (cp));
  cls(ascii) = class(lookup (start, 0:127))(cp(ascii) + 1);
  cls(! ascii) = class(lookup (start, cp(! ascii)));
endfunction

%!assert (tok_class ([65 97 48 33 32 0 233 768 8364 19968 1633]), [1 1 2 3 0 5 1 4 0 1 2])
