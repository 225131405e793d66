## Y = linear_rows (X, W): X*W on every row of every page (X n×a×Bt,
## W a×b -> Y n×b×Bt), the projections of the pooled source vector.
function Y = linear_rows (X, W)
  Y = unstack_rows (stack_rows (X) * W, rows (X));
endfunction
