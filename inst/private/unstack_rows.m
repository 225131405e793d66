## X = unstack_rows (R, r): inverse of stack_rows; R is (r·B)×c, X is r×c×B.
## One item (B = 1) is R as it is: permute would copy it (a 129×50,257
## logits table of a GPT-2-sized model is 52 MB).

function X = unstack_rows (R, r)
  if (rows (R) == r)
    X = R;
  elseif (r == 1)                             # one row a page: a transpose
    X = reshape (R.', 1, columns (R), []);
  else
    X = permute (reshape (R, r, [], columns (R)), [1 3 2]);
  endif
endfunction

%!test
%! R = reshape (1:24, 6, 4);
%! assert (unstack_rows (R, 6), R);
%! X = unstack_rows (R, 2);
%! assert (size (X), [2 4 3]);
%! assert (X(:,:,2), R(3:4,:));
%! assert (stack_rows (X), R);
%! ## one row a page (a decoding step's), the transpose's way
%! X1 = unstack_rows (R, 1);
%! assert (size (X1), [1 4 6]);
%! assert (squeeze (X1(1,:,:))', R);
%! assert (stack_rows (X1), R);
