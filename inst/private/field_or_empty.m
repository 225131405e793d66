## v = field_or_empty (s, name): s.(name), or [] when s has no such field
## (an optional sublayer or LayerNorm).
function v = field_or_empty (s, name)
  if (isfield (s, name))
    v = s.(name);
  else
    v = [];
  endif
endfunction
