## -*- texinfo -*-
## @deftypefn {} {@var{dS} =} my_softmax_backward (@var{dA}, @var{A})
## A wrong solution, for testing the grader: the row sum in the backward pass is not weighted by A.
## @end deftypefn

function dS = my_softmax_backward (dA, A)
  dS = A .* (dA - sum (dA, 2));
endfunction
