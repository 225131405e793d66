## -*- texinfo -*-
## @deftypefn  {} {@var{A} =} my_softmax (@var{S})
## @deftypefnx {} {@var{A} =} my_softmax (@var{S}, @var{allow})
## A wrong solution, for testing the grader: no row maximum subtracted (scores of 1e3 overflow).
##
## @var{S}: n×m×h scores; @var{allow}: n×m logical shared by the pages.
## @end deftypefn

function A = my_softmax (S, allow)
  if (nargin < 2)
    allow = true (rows (S), columns (S));
  endif
  S(! (allow & S > -Inf)) = -Inf;        # the mask, on every page
  W = exp (S);                           # wrong: exp (1000) is Inf
  total = sum (W, 2);
  total(total == 0) = 1;                 # ... keeps weights 0, not NaN
  A = W ./ total;
endfunction
