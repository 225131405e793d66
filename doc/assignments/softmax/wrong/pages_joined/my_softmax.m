## -*- texinfo -*-
## @deftypefn  {} {@var{A} =} my_softmax (@var{S})
## @deftypefnx {} {@var{A} =} my_softmax (@var{S}, @var{allow})
## A wrong solution, for testing the grader: the heads (pages) share one softmax per row.
##
## @var{S}: n×m×h scores; @var{allow}: n×m logical shared by the pages.
## @end deftypefn

function A = my_softmax (S, allow)
  if (nargin < 2)
    allow = true (rows (S), columns (S));
  endif
  S(! (allow & S > -Inf)) = -Inf;        # the mask, on every page
  top = max (max (S, [], 2), [], 3);     # wrong: over every head
  top(top == -Inf) = 0;                  # a row with no allowed key
  W = exp (S - top);
  total = sum (sum (W, 2), 3);
  total(total == 0) = 1;                 # ... keeps weights 0, not NaN
  A = W ./ total;
endfunction
