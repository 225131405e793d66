## [dtable, dpos] = embed_backward (drows, ids, table, pos): gradients of
## embed_forward.  drows n×d×Bt; each table row collects the gradient of every
## place its token was looked up; position i sums over the batch.
function [dtable, dpos] = embed_backward (drows, ids, table, pos)
  n = rows (ids);
  D = stack_rows (drows);                               # (n·Bt)×d
  lookup = sparse (ids(:), 1:numel (ids), 1, rows (table), numel (ids));
  dtable = full (lookup * D);
  dpos = zeros (size (pos));
  dpos(1:n,:) = sum (drows, 3);
endfunction
