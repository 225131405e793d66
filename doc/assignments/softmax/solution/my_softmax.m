## -*- texinfo -*-
## @deftypefn  {} {@var{A} =} my_softmax (@var{S})
## @deftypefnx {} {@var{A} =} my_softmax (@var{S}, @var{allow})
## Reference solution: the masked row softmax in plain Octave.
##
## @var{S}: n×m×h scores; @var{allow}: n×m logical shared by the pages.
## @end deftypefn

function A = my_softmax (S, allow)
  if (nargin < 2)
    allow = true (rows (S), columns (S));
  endif
  S(! (allow & S > -Inf)) = -Inf;        # the mask, on every page
  top = max (S, [], 2);                  # n×1×h
  top(top == -Inf) = 0;                  # a row with no allowed key
  W = exp (S - top);
  total = sum (W, 2);
  total(total == 0) = 1;                 # ... keeps weights 0, not NaN
  A = W ./ total;
endfunction
