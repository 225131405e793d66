## r = head_rows (B, heads, part, caller): the rows of the block B's W_O
## (and the columns of its message) that the listed heads (numbers 1 to
## B.heads) own: head j owns (j-1)*dv+1 ... j*dv.  Anything else in heads
## is an attention:heads error naming caller and the part.
function r = head_rows (B, heads, part, caller)
  h = B.heads;
  if (! (isnumeric (heads) && isreal (heads) && isvector (heads)
         && all (heads == fix (heads) & heads >= 1 & heads <= h)))
    error ("attention:heads", "%s: HEADS must be head numbers from 1 to %d (%s has %d heads), got %s",
           caller, h, part, h, disp_arg (heads));
  endif
  dv = rows (B.W_O) / h;
  r = reshape ((heads(:)' - 1) * dv + (1:dv)', 1, []);
endfunction
