## -*- texinfo -*-
## @deftypefn  {} {@var{A} =} my_softmax (@var{S})
## @deftypefnx {} {@var{A} =} my_softmax (@var{S}, @var{allow})
## A wrong solution, for testing the grader: the mask is applied to the first head only.
##
## @var{S}: n×m×h scores; @var{allow}: n×m logical shared by the pages.
## @end deftypefn

function A = my_softmax (S, allow)
  if (nargin < 2)
    allow = true (rows (S), columns (S));
  endif
  S1 = S(:,:,1);
  S1(! allow) = -Inf;                    # wrong: the other heads are not masked
  S(:,:,1) = S1;
  top = max (S, [], 2);                  # n×1×h
  top(top == -Inf) = 0;                  # a row with no allowed key
  W = exp (S - top);
  total = sum (W, 2);
  total(total == 0) = 1;                 # ... keeps weights 0, not NaN
  A = W ./ total;
endfunction
