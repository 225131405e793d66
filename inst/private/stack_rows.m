## R = stack_rows (X): the pages of X (r×c×B) stacked as one (r·B)×c matrix,
## so that a row-wise product X(:,:,b)*W for every b is one product R*W.

function R = stack_rows (X)
  R = reshape (permute (X, [1 3 2]), [], columns (X));
endfunction
