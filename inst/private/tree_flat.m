## v = tree_flat (G): every numeric array of the struct G (fields, struct
## arrays, nested structs; depth first in field order) as one column.
function v = tree_flat (G)
  v = vertcat (leaves (G, {}){:});
endfunction

function parts = leaves (G, parts)
  names = fieldnames (G);
  for k = 1:numel (G)
    for i = 1:numel (names)
      x = G(k).(names{i});
      if (isstruct (x))
        parts = leaves (x, parts);
      else
        parts{end+1} = x(:);
      endif
    endfor
  endfor
endfunction
