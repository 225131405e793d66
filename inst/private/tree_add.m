## m = tree_add (m, G, v): add the column v, laid out like tree_flat (G), to
## the arrays of m at G's places (G has a subset of m's fields: a gradient).
## m = tree_add (m, G, v, "set"): put v's parts there instead of adding.
function m = tree_add (m, G, v, how = "add")
  m = put (m, G, v, 0, strcmp (how, "set"));
endfunction

## m, G scalar structs; struct-array fields are walked element by element.
function [m, at] = put (m, G, v, at, replace)
  names = fieldnames (G);
  for i = 1:numel (names)
    n = names{i};
    g = G.(n);
    if (isstruct (g))
      sub = m.(n);
      for k = 1:numel (g)
        [s, at] = put (sub(k), g(k), v, at, replace);
        sub(k) = s;
      endfor
      m.(n) = sub;
    else
      c = numel (g);
      part = reshape (v(at+1:at+c), size (g));
      if (replace)
        m.(n) = part;
      else
        m.(n) += part;
      endif
      at += c;
    endif
  endfor
endfunction
