## -*- texinfo -*-
## @deftypefn {} {@var{dS} =} my_softmax_backward (@var{dA}, @var{A})
## A wrong solution, for testing the grader: the backward pass uses the transposed weights.
## @end deftypefn

function dS = my_softmax_backward (dA, A)
  At = permute (A, [2 1 3]);
  dS = At .* (dA - sum (dA .* At, 2));
endfunction
