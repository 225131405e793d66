## X = unstack_rows (R, n): inverse of stack_rows; R (n·Bt)×c -> X n×c×Bt.
function X = unstack_rows (R, n)
  X = permute (reshape (R, n, [], columns (R)), [1 3 2]);
endfunction
