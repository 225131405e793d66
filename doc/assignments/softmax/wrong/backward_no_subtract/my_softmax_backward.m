## -*- texinfo -*-
## @deftypefn {} {@var{dS} =} my_softmax_backward (@var{dA}, @var{A})
## A wrong solution, for testing the grader: the softmax backward forgets the path through the row sum.
## @end deftypefn

function dS = my_softmax_backward (dA, A)
  dS = A .* dA;
endfunction
