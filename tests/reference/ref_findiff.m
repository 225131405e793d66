## -*- texinfo -*-
## @deftypefn  {} {@var{g} =} ref_findiff (@var{f}, @var{x})
## @deftypefnx {} {@var{g} =} ref_findiff (@var{f}, @var{x}, @var{h})
## Central finite-difference gradient of a scalar function.
##
## @var{g}(i) = (f(x + h e_i) - f(x - h e_i)) / (2h) for every element of
## @var{x}; @var{g} has the shape of @var{x}.  Default step @var{h} = 1e-6
## (truncation error O(h^2), rounding error O(eps/h)).
##
## @example
## @group
## ref_findiff (@@(x) sum (x.^3), [1 2])
##   @result{} [3 12] (to about 1e-9)
## @end group
## @end example
## @end deftypefn

function g = ref_findiff (f, x, h = 1e-6)
  g = zeros (size (x));
  for i = 1:numel (x)
    up = x;  up(i) += h;
    down = x;  down(i) -= h;
    g(i) = (f (up) - f (down)) / (2 * h);
  endfor
endfunction

%!assert (ref_findiff (@(x) sum (x.^3), [1 2]), [3 12], 1e-8)
%!assert (ref_findiff (@(x) x(1)*x(2), [2; 5]), [5; 2], 1e-9)
