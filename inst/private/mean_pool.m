## [c, w] = mean_pool (E, allow): mean of E's rows (m×d×Bt) over the real
## tokens (allow m×Bt true): c 1×d×Bt, w m×1×Bt the weights (c = sum (w.*E)).
function [c, w] = mean_pool (E, allow)
  w = permute (allow ./ max (sum (allow, 1), 1), [1 3 2]);
  c = sum (E .* w, 1);
endfunction
