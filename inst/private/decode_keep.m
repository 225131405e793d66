## st = decode_keep (st, r): the decoder state (decode_start) of the rows r
## only, in that order (a row may be taken twice: two hypotheses that
## share a prefix); every per-row array is indexed in its last dimension.
function st = decode_keep (st, r)
  st.sent = st.sent(r);
  st.ids = st.ids(:,r);
  st.logp = st.logp(r);
  st.src = st.src(:,r);
  st.src_allow = st.src_allow(:,r);
  if (columns (st.E) > 0)                     # the source not read yet (maybe 0 rows)
    st.E = st.E(:,:,r);
  endif
  if (! isempty (st.c))
    st.c = st.c(:,:,r);
  endif
  for l = 1:numel (st.cache)                  # the cache: K and V of each block
    C = st.cache(l);
    C.self.K = C.self.K(:,:,r);
    C.self.V = C.self.V(:,:,r);
    if (isfield (C, "cross"))
      C.cross.K = C.cross.K(:,:,r);
      C.cross.V = C.cross.V(:,:,r);
    endif
    st.cache(l) = C;
  endfor
  if (! isempty (st.P))
    st.P = st.P(:,:,r);
  endif
  if (! isempty (st.A))
    st.A = st.A(:,:,:,:,r);
  endif
endfunction
