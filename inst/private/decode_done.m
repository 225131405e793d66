## D = decode_done (D, st, r, token, logp): the finished hypotheses D with
## the rows r of the decoder state st (decode_start) added, each with its
## next token (token, or [] for none: a row stopped at its length limit)
## and log-probability logp (numel (r)×1).  D: sent (its sentence), ids
## (cell: every id it read and wrote, <bos> and the prompt first), logp,
## and with st.want the history of its row: P (steps×V) and A
## (steps×M×h×L, st.want_A), one entry per step it went through.  D = decode_done ()
## is the empty set.
function D = decode_done (D, st, r, token, logp)
  if (nargin == 0)
    D = struct ("sent", zeros (0, 1), "ids", {cell(0, 1)}, "logp", zeros (0, 1),
                "P", {cell(0, 1)}, "A", {cell(0, 1)});
    return;
  endif
  r = r(:);
  D.sent = [D.sent; st.sent(r)];
  D.ids = [D.ids; num2cell([st.ids(:,r); token(:)'], 1)'];
  D.logp = [D.logp; logp(:)];
  if (st.want)
    D.P = [D.P; arrayfun(@(k) st.P(:,:,k), r, "UniformOutput", false)];
    if (st.want_A)
      D.A = [D.A; arrayfun(@(k) st.A(:,:,:,:,k), r, "UniformOutput", false)];
    endif
  endif
endfunction
