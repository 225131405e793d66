## -*- texinfo -*-
## @deftypefn {} {@var{row} =} shown_row (@var{out}, @var{title}, @var{label})
## The numbers of the row labelled @var{label} in the table titled
## @var{title} of printed text @var{out} (as @code{attn_show} prints
## tables): for the tests of the demos and walkthroughs, which read their
## printed output back.  An error when there is no such table or row.
## @end deftypefn

function row = shown_row (out, title, label)
  k = strfind (out, [title, "  ("]);
  assert (numel (k) >= 1, "no table %s", title);
  lines = strsplit (out(k(1):end), "\n");
  for i = 3:numel (lines)
    if (strncmp (lines{i}, [label, " "], numel (label) + 1))
      row = str2double (strsplit (strtrim (lines{i}(numel (label)+1:end))));
      return;
    endif
  endfor
  error ("no row %s in %s", label, title);
endfunction
