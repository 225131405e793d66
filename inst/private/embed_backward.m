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

%!test
%! ## repeated ids collect every lookup; positions sum over the batch
%! randn ("state", 4);
%! table = randn (5, 3);  pos = randn (6, 3);  ids = [2 2; 4 2; 1 5];  R = randn (3, 3, 2);
%! f = @(t, p) sum (embed_forward (t, p, ids)(:) .* R(:));
%! Y = embed_forward (table, pos, ids);
%! assert (Y(:,:,2), table(ids(:,2),:) + pos(1:3,:));
%! [dt, dp] = embed_backward (R, ids, table, pos);
%! assert (dt, ref_findiff (@(t) f (t, pos), table), 1e-8);
%! assert (dp, ref_findiff (@(p) f (table, p), pos), 1e-8);
