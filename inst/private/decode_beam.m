## [D, st] = decode_beam (m, st, width): beam search of every sentence of
## the state st (decode_start) at once, `width` hypotheses (rows) per
## sentence.  Each step runs every live row (decode_step) and keeps, per
## sentence, the `width` best (row, token) pairs by total log-probability;
## a row still reading its prompt passes on alone with the prompt's next
## id.  A pair ending in <eos> is a finished hypothesis.  A sentence ends
## when `width` of its hypotheses are finished, none is live, or at its
## length limit (its live rows then count as finished).  D: every finished
## hypothesis (decode_done), in the order found; st the state at the end.
function [D, st] = decode_beam (m, st, width)
  D = decode_done ();
  ndone = zeros (size (st.n0));
  for s = rows (st.ids):max (st.n0 + st.limit)   # from the shared prompt on
    ended = s - st.n0 >= st.limit | ndone >= width;   # per sentence
    [D, st] = decode_done (D, st, [], st.logp, ended(st.sent));
    if (isempty (st.sent))
      break;
    endif
    gen = s >= st.n0(st.sent);
    [st, P] = decode_step (m, st, gen);
    [from, token, logp] = candidates (P, st.logp, st.sent, gen, width);
    read = ! gen(from);                       # pass on with the prompt's next id
    token(read) = cellfun (@(f) f(s+1), st.fed(st.sent(from(read))));
    ends = ! read & token == m.tgt_vocab.eos;
    ndone += accumarray (st.sent(from(ends)), 1, size (ndone));
    [D, st] = decode_done (D, st, token, logp, ends, from);
  endfor
endfunction

## the candidates: per sentence (its rows consecutive) the `width` best
## totals logp + log P over its rows and tokens, as (row from, token, their
## logp); a row that does not choose (gen false) passes on alone (token 0)
function [from, token, logp] = candidates (P, lp, sent, gen, width)
  [from, token, logp] = deal (zeros (0, 1));
  first = find ([true; diff(sent) != 0]);
  last = [first(2:end) - 1; numel(sent)];
  for b = 1:numel (first)
    r = (first(b):last(b))';
    if (! gen(r(1)))
      [from(end+1,1), token(end+1,1), logp(end+1,1)] = deal (r, 0, lp(r));
      continue;
    endif
    total = lp(r) + log (P(r,:));
    [~, at] = sort (total(:), "descend");
    at = at(1:min (width, numel (at)));
    [f, t] = ind2sub (size (total), at);
    from = [from; r(f)];
    token = [token; t];
    logp = [logp; total(at)(:)];
  endfor
endfunction

%!shared m
%! m = attn_toy ("river");

%!test
%! ## width V over two tokens: the best of every sequence of at most 2
%! ## tokens, each scored by a teacher-forced forward pass
%! V = numel (m.tgt_vocab.words);  eos = m.tgt_vocab.eos;  bos = m.tgt_vocab.bos;
%! st = decode_start (m, {"the river bank"}, {}, struct ("max_len", 2, "cache", true,
%!                    "want", false, "method", "beam", "width", V), "t", "S");
%! D = decode_beam (m, st, V);
%! [seqs, lps] = deal ({}, []);
%! for code = 0:V^2 + V - 1
%!   ids = mod (floor (code ./ V .^ (0:1 + (code >= V))), V)(1:1 + (code >= V)) + 1;
%!   if (any (ids(1:end-1) == eos) || (numel (ids) < 2 && ids(end) != eos))
%!     continue;
%!   endif
%!   tr = attn_forward (m, "the river bank", [bos, ids(1:end-1)]);
%!   seqs{end+1} = ids;
%!   lps(end+1) = sum (log (tr.probs(sub2ind (size (tr.probs), 1:numel (ids), ids))));
%! endfor
%! [best, k] = max (lps);
%! [got, j] = max (D.logp);
%! assert (got, best, 1e-12);
%! assert (D.ids{j}(2:end)', seqs{k});
%! assert (numel (D.logp) <= 2 * V);
