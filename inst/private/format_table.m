## -*- texinfo -*-
## @deftypefn {} {@var{s} =} format_table (@var{M}, @var{rows}, @var{cols}, @var{decimals}, @var{width})
## Text of the 2-D matrix @var{M} as a table: row labels on the left, column
## labels above, numbers in fixed @var{decimals}, right-aligned; column
## groups wrapped so no line is wider than @var{width} characters.
## @end deftypefn

function s = format_table (M, rows, cols, decimals, width)
  [n, m] = size (M);
  cells = reshape (strtrim (cellstr (num2str (M(:), sprintf ("%%.%df", decimals)))), n, m);
  ## "-0.000" reads as a sign that is not there
  cells = regexprep (cells, '^-(0\.?0*)$', '$1');
  if (n == 0 || m == 0)
    s = "  (empty)\n";
    return;
  endif
  ## one width for every column: a grid reads better than ragged columns
  colw = repmat (max ([utf8_width(cells(:)); utf8_width(cols(:))]) + 2, 1, m);
  roww = max ([utf8_width(rows), 0]);
  ## column groups: greedy packing into the line width
  first = 1;
  s = "";
  while (first <= m)
    last = first;
    while (last < m && roww + sum (colw(first:last+1)) <= width)
      last++;
    endwhile
    if (first > 1 || last < m)
      if (first == last)
        s = [s, sprintf("  column %d of %d\n", first, m)];
      else
        s = [s, sprintf("  columns %d to %d of %d\n", first, last, m)];
      endif
    endif
    s = [s, pad_left({""}, roww), sprintf("%s", pad_right(cols(first:last), colw(first:last)){:}), "\n"];
    for i = 1:n
      s = [s, pad_left(rows(i), roww), ...
           sprintf("%s", pad_right(cells(i,first:last), colw(first:last)){:}), "\n"];
    endfor
    first = last + 1;
  endwhile
endfunction

## left-aligned in width w (row labels)
function c = pad_left (c, w)
  c = cellfun (@(x, k) [x, blanks(k)], c, num2cell (w - utf8_width (c)), "UniformOutput", false);
  c = [c{:}];
endfunction

## right-aligned in widths w (numbers and column labels)
function c = pad_right (c, w)
  c = cellfun (@(x, k) [blanks(k), x], c, num2cell (w - utf8_width (c)), "UniformOutput", false);
endfunction
