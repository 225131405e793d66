## -*- texinfo -*-
## @deftypefn {} {@var{dS} =} my_softmax_backward (@var{dA}, @var{A})
## Reference solution: the gradient through the row softmax.
## @end deftypefn

function dS = my_softmax_backward (dA, A)
  dS = A .* (dA - sum (dA .* A, 2));
endfunction
