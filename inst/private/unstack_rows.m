## X = unstack_rows (R, r): inverse of stack_rows; R is (r·B)×c, X is r×c×B.

function X = unstack_rows (R, r)
  X = permute (reshape (R, r, [], columns (R)), [1 3 2]);
endfunction
