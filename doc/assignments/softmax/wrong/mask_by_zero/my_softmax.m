## -*- texinfo -*-
## @deftypefn  {} {@var{A} =} my_softmax (@var{S})
## @deftypefnx {} {@var{A} =} my_softmax (@var{S}, @var{allow})
## A wrong solution, for testing the grader: masked scores set to 0 instead of -Inf.
##
## @var{S}: n×m×h scores; @var{allow}: n×m logical shared by the pages.
## @end deftypefn

function A = my_softmax (S, allow)
  if (nargin < 2)
    allow = true (rows (S), columns (S));
  endif
  S(! (allow & S > -Inf)) = 0;           # wrong: a score of 0 still gets weight
  top = max (S, [], 2);                  # n×1×h
  top(top == -Inf) = 0;                  # a row with no allowed key
  W = exp (S - top);
  total = sum (W, 2);
  total(total == 0) = 1;                 # ... keeps weights 0, not NaN
  A = W ./ total;
endfunction
