## logits = head_forward (X, W, b): vocabulary head on every row.
## X n×d×Bt, W d×V, b 1×V -> logits n×V×Bt = X*W + b.
function logits = head_forward (X, W, b)
  logits = unstack_rows (stack_rows (X) * W + b, rows (X));
endfunction
