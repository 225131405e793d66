## g = order_like (g, p): g's fields in the order they have in p (the
## gradient of a layer laid out like the layer's parameters).
function g = order_like (g, p)
  names = fieldnames (p);
  g = orderfields (g, names(isfield (g, names)));
endfunction
