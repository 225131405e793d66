## R = stack_rows (X): the pages of X (r×c×B) stacked as one (r·B)×c matrix,
## so that a row-wise product X(:,:,b)*W for every b is one product R*W.
## A matrix (one page, or rows already stacked) is returned as it is.

function R = stack_rows (X)
  if (ismatrix (X))
    R = X;
  elseif (rows (X) == 1)                      # a decoding step's: the pages are the
    R = reshape (X, columns (X), []).';       # columns of a c×B matrix (permute
  else                                        # copies one entry at a time then)
    R = reshape (permute (X, [1 3 2]), [], columns (X));
  endif
endfunction
