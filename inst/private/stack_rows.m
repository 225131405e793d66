## R = stack_rows (X): the rows of every page of X (n×c×Bt) stacked into
## one (n·Bt)×c matrix, page after page, so one product serves the batch.
function R = stack_rows (X)
  R = reshape (permute (X, [1 3 2]), [], columns (X));
endfunction
