## P = softmax_rows (Z): softmax along dim 2 (each row), stable.
function P = softmax_rows (Z)
  P = exp (Z - max (Z, [], 2));
  P ./= sum (P, 2);
endfunction
