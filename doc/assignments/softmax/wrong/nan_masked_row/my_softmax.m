## -*- texinfo -*-
## @deftypefn  {} {@var{A} =} my_softmax (@var{S})
## @deftypefnx {} {@var{A} =} my_softmax (@var{S}, @var{allow})
## A wrong solution, for testing the grader: a row with no allowed key gives NaN.
##
## @var{S}: n×m×h scores; @var{allow}: n×m logical shared by the pages.
## @end deftypefn

function A = my_softmax (S, allow)
  if (nargin < 2)
    allow = true (rows (S), columns (S));
  endif
  S(! (allow & S > -Inf)) = -Inf;        # the mask, on every page
  top = max (S, [], 2);                  # n×1×h
  W = exp (S - top);
  total = sum (W, 2);
  A = W ./ total;
endfunction
