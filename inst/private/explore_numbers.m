## -*- texinfo -*-
## @deftypefn {} {@var{s} =} explore_numbers (@var{X}, @var{digits})
## A JavaScript array literal of the matrix @var{X} (n×w), one inner array
## per row (also for one row), every number printed with
## @code{%.@var{digits}g}; @code{-Inf}, @code{Inf} and @code{NaN} become
## @code{null} (a masked score).
## @end deftypefn

function s = explore_numbers (X, digits)
  X = double (X);
  fmt = sprintf ("%%.%dg", digits);
  if (isempty (X))
    s = ["[" repmat("[],", 1, rows (X))(1:end-1) "]"];
  else
    row = ["[" strjoin(repmat ({fmt}, 1, columns (X)), ",") "]"];
    s = ["[" strrep(sprintf (row, X.'), "][", "],[") "]"];
  endif
  s = regexprep (s, '-?Inf|NaN', 'null');
endfunction

%!assert (explore_numbers ([1 2.5; -Inf 1e-16], 4), "[[1,2.5],[null,1e-16]]")
%!assert (explore_numbers ([0.123456 7], 3), "[[0.123,7]]")
%!assert (explore_numbers (zeros (2, 0), 4), "[[],[]]")
%!assert (explore_numbers ([], 4), "[]")
%!test
%! ## the printed numbers read back within the printed precision
%! X = randn (5, 7) .* 10 .^ randi ([-20 20], 5, 7);
%! s = explore_numbers (X, 6);
%! Y = reshape (str2double (regexp (s, '[-+0-9.e]+', "match")), 7, 5)';
%! assert (Y, X, -5e-6);
