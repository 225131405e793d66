## [dXq, G, dXkv] = block_backward (dY, T, B): attn_backward for any of the
## three blocks, with the query-side input gradient (incl. the residual) in
## dXq, the key/value-side one in dXkv (cross only; [] otherwise) and the
## weight gradients alone in G (W_Q, W_K, W_V, W_O: the model's layout).
function [dXq, G, dXkv] = block_backward (dY, T, B)
  K = attn_backward (dY, T, B);
  G = struct ("W_Q", K.W_Q, "W_K", K.W_K, "W_V", K.W_V, "W_O", K.W_O);
  if (strcmp (T.kind, "cross"))
    dXq = K.dD;
    dXkv = K.dE;
  else
    dXq = K.dX;
    dXkv = [];
  endif
endfunction
