## [c, w] = mean_pool (E, allow): mean of E's rows (m×d×Bt) over the real
## tokens (allow m×Bt true): c 1×d×Bt, w m×1×Bt the weights (c = sum (w.*E)).
function [c, w] = mean_pool (E, allow)
  w = reshape (allow ./ max (sum (allow, 1), 1), rows (allow), 1, []);
  c = sum (E .* w, 1);
endfunction

%!test
%! ## the mean over the allowed rows; over no rows, the zero vector
%! randn ("state", 5);
%! E = randn (3, 4, 3);
%! allow = logical ([1 1 0; 1 0 0; 0 0 0]);
%! [c, w] = mean_pool (E, allow);
%! assert (c(:,:,1), mean (E(1:2,:,1)), 1e-15);
%! assert (c(:,:,2), E(1,:,2), 1e-15);
%! assert (c(:,:,3), zeros (1, 4));
%! ## c = sum (w .* E): its gradient for dc is w .* dc
%! dc = randn (1, 4, 3);
%! g = ref_findiff (@(e) sum (mean_pool (e, allow)(:) .* dc(:)), E);
%! assert (g, w .* dc, 1e-9);
