## -*- texinfo -*-
## @deftypefn {} {@var{s} =} format_table (@var{M}, @var{rows}, @var{cols}, @var{decimals}, @var{width})
## Text of the 2-D matrix @var{M} as a table: row labels on the left, column
## labels above, numbers in fixed @var{decimals}, right-aligned; column
## groups wrapped so no line is wider than @var{width} characters.
## @end deftypefn

function s = format_table (M, rows, cols, decimals, width)
  [n, m] = size (M);
  if (n == 0 || m == 0)
    s = "  (empty)\n";
    return;
  endif
  cells = reshape (strtrim (cellstr (num2str (M(:), sprintf ("%%.%df", decimals)))), n, m);
  ## "-0.000" reads as a sign that is not there
  cells = regexprep (cells, '^-(0\.?0*)$', '$1');
  ## one width for every column: a grid reads better than ragged columns
  colw = max ([utf8_width(cells(:)); utf8_width(cols(:))]) + 2;
  roww = max ([utf8_width(rows), 0]);
  ## column groups: as many columns as fit the line, at least one
  per = max (1, floor ((width - roww) / colw));
  s = "";
  for first = 1:per:m
    last = min (first + per - 1, m);
    if (first > 1 || last < m)
      if (first == last)
        s = [s, sprintf("  column %d of %d\n", first, m)];
      else
        s = [s, sprintf("  columns %d to %d of %d\n", first, last, m)];
      endif
    endif
    s = [s, blanks(roww), pad_right(cols(first:last), colw){:}, "\n"];
    for i = 1:n
      s = [s, pad_left(rows{i}, roww), pad_right(cells(i,first:last), colw){:}, "\n"];
    endfor
  endfor
endfunction

## string x left-aligned in width w (row labels)
function x = pad_left (x, w)
  x = [x, blanks(w - utf8_width ({x}))];
endfunction

## strings of cell c right-aligned in width w (numbers and column labels)
function c = pad_right (c, w)
  c = cellfun (@(x) [blanks(w - utf8_width ({x})), x], c, "UniformOutput", false);
endfunction
