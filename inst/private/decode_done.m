## [D, st] = decode_done (D, st, token, logp, ends, from): one step's
## bookkeeping.  The pairs k = (row from(k) of the state st, its next
## token(k)) with log-probability logp(k) either finish, where ends(k) (they
## join the finished hypotheses D), or live on as the rows of the new state
## (decode_keep), token(k) appended to their ids.  from: default every row
## once, in order; token [] (a row stopped at its length limit): no token.
## D: sent (its sentence), ids (cell: every id it read and wrote, <bos> and
## the prompt first), logp, and with st.want the history of its row: P
## (steps×V) and A (steps×M×h×L, st.want_A), one entry per step it went
## through.  D = decode_done () is the empty set.
function [D, st] = decode_done (D, st, token, logp, ends, from)
  if (nargin == 0)
    D = struct ("sent", zeros (0, 1), "ids", {cell(0, 1)}, "logp", zeros (0, 1),
                "P", {cell(0, 1)}, "A", {cell(0, 1)});
    return;
  endif
  if (nargin < 6)
    from = (1:numel (st.sent))';
  endif
  if (any (ends))
    D = finished (D, st, token, logp, ends, from);
  endif
  if (any (ends) || nargin > 5)
    st = decode_keep (st, from(! ends));
  endif
  if (! isempty (token))
    st.ids(end+1,:) = token(! ends);
  endif
  st.logp = logp(! ends);
endfunction

## D with the pairs that end
function D = finished (D, st, token, logp, ends, from)
  r = from(ends);
  last = zeros (0, numel (r));
  if (! isempty (token))
    last = token(ends)(:)';
  endif
  D.sent = [D.sent; st.sent(r)];
  D.ids = [D.ids; num2cell([st.ids(:,r); last], 1)'];
  D.logp = [D.logp; logp(ends)(:)];
  if (st.want)
    D.P = [D.P; history(st.P, r, 3)];
    if (st.want_A)
      D.A = [D.A; history(st.A, r, 5)];
    endif
  endif
endfunction

## the rows r of the state in the history H (steps×…×R, the rows along
## dimension dim), one cell each, as a column; empty ones before the first
## step, when H is still []
function c = history (H, r, dim)
  if (isempty (H))
    c = cell (numel (r), 1);
    return;
  endif
  at = repmat ({":"}, 1, dim);
  at{dim} = r;
  c = num2cell (H(at{:}), 1:dim-1)(:);
endfunction
