## -*- texinfo -*-
## @deftypefn {} {@var{c} =} as_labels (@var{labels}, @var{n}, @var{argname})
## Token labels as a 1×@var{n} cellstr.  @var{labels} is a cellstr, a string
## of space-separated words, a numeric vector (printed as numbers) or empty
## (positions 1…@var{n}).  A count other than @var{n} is an
## @code{attention:size} error naming @var{argname}.
## @end deftypefn

function c = as_labels (labels, n, argname)
  if (isempty (labels))
    c = arrayfun (@num2str, 1:n, "UniformOutput", false);
    return;
  elseif (ischar (labels))
    c = strsplit (strtrim (labels));
  elseif (iscellstr (labels))
    c = labels(:).';
  elseif (isnumeric (labels) && isvector (labels))
    c = arrayfun (@num2str, labels(:).', "UniformOutput", false);
  else
    error ("attention:type",
           "%s: expected a cell array of strings, a string of words or a vector, got %s",
           argname, class (labels));
  endif
  if (numel (c) != n)
    error ("attention:size", "%s: expected %d labels, got %d", argname, n, numel (c));
  endif
endfunction
