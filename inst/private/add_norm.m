## S = add_norm (S, name, N, norm): S.(name) = N when the model has
## LayerNorm (norm is not "none"); S unchanged otherwise.
function S = add_norm (S, name, N, norm)
  if (! strcmp (norm, "none"))
    S.(name) = N;
  endif
endfunction
