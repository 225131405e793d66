## m = tree_add (m, G, v): add the column v, laid out like tree_flat (G), to
## the arrays of m at G's places (G has a subset of m's fields: a gradient).
## m = tree_add (m, G, v, "set"): put v's parts there instead of adding.
function m = tree_add (m, G, v, how = "add")
  m = put (m, G, v, 0, strcmp (how, "set"));
endfunction

function [m, at] = put (m, G, v, at, replace)
  names = fieldnames (G);
  for k = 1:numel (G)
    for i = 1:numel (names)
      n = names{i};
      g = G(k).(n);
      if (isstruct (g))
        [m(k).(n), at] = put (m(k).(n), g, v, at, replace);
      else
        part = reshape (v(at + (1:numel (g))), size (g));
        if (replace)
          m(k).(n) = part;
        else
          m(k).(n) += part;
        endif
        at += numel (g);
      endif
    endfor
  endfor
endfunction
