## -*- texinfo -*-
## @deftypefn {} {@var{dS} =} my_softmax_backward (@var{dA}, @var{A})
## Your backward pass of the row softmax (see handout.md).
##
## @var{dA}: n×m×h, dL/dA.  @var{A}: the n×m×h weights of
## @code{my_softmax}.  Return @var{dS} = dL/dS (n×m×h).
## @end deftypefn

function dS = my_softmax_backward (dA, A)
  ## dS = A .* (dA - (the sum along each row of dA .* A))

  error ("my_softmax_backward: not written yet (see handout.md)");
endfunction
