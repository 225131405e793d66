## Y = affine_rows (X, W, b): the affine map X*W + b on every row of every
## page, as one product (stack_rows).  X n×a×Bt, W a×c, b 1×c (or 0) ->
## Y n×c×Bt.  The vocabulary and class heads, the MLP's hidden layer and
## the pooled designs' projections of c.
function Y = affine_rows (X, W, b)
  Y = unstack_rows (stack_rows (X) * W + b, rows (X));
endfunction
