## [slot, place] = tok_repeat (count): slot repeats k count(k) times, for
## k = 1, 2, ... (repelem (1:numel (count), count), without repelem's cost:
## its index checks took a third of a tokenizer's time), and place counts
## 0, 1, ... within each k's repeats.
function [slot, place] = tok_repeat (count)
  total = sum (count);
  keep = find (count > 0);
  c = count(keep);
  mark = zeros (1, total);
  mark(cumsum (c) - c + 1) = 1;
  slot = keep(cumsum (mark));
  place = (0:total - 1) - (cumsum (count) - count)(slot);
endfunction

%!test
%! [slot, place] = tok_repeat ([2 0 3 1]);
%! assert (slot, [1 1 3 3 3 4]);
%! assert (place, [0 1 0 1 2 0]);
%!test
%! [slot, place] = tok_repeat ([0 0]);
%! assert (size (slot), [1 0]);
%! assert (size (place), [1 0]);
%! assert (size (tok_repeat (zeros (1, 0))), [1 0]);
