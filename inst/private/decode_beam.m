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
## logp), ties in the order of the sentence's rows×V totals read column by
## column; a row that does not choose (gen false, as every row of its
## sentence) passes on alone (token 0).  All sentences at once: each one's
## totals fill a row of S in that order, -Inf after them; the best left
## in every row, the first of equals, is taken `width` times (a stable
## sort's first ones: the padding after all the totals, -Inf ones too).
function [from, token, logp] = candidates (P, lp, sent, gen, width)
  R = numel (sent);
  starts = [true; diff(sent) != 0];
  first = find (starts);
  b = cumsum (starts);                          # each row's sentence, 1..B
  nr = diff ([first; R + 1]);                   # rows of each sentence
  picked = find (gen(first));                   # the sentences that choose
  [from, token, logp, key] = deal (zeros (0, 1));
  if (! isempty (picked))
    V = columns (P);
    total = lp(gen) + log (P(gen,:));
    S = -inf (numel (first), max (nr) * V, class (total));
    place = (1:R)' - first(b);                  # each row's in its sentence, from 0
    S(b(gen) + (place(gen) + (0:V-1) .* nr(b(gen))) * rows (S)) = total;
    S = S(picked,:);
    k = min (width, columns (S));
    top = zeros (k, rows (S), class (S));       # k×(sentences picked)
    at = zeros (k, rows (S));
    for j = 1:k
      [top(j,:), at(j,:)] = max (S, [], 2);
      S((at(j,:) - 1) * rows (S) + (1:rows (S))) = NaN;   # taken (max skips NaN)
    endfor
    at -= 1;                                    # from 0
    n = nr(picked)';
    ok = at < n .* V;                           # not the padding
    from = (first(picked)' + mod (at, n))(ok);
    token = (floor (at ./ n) + 1)(ok);
    logp = top(ok)(:);
    key = repmat (picked', k, 1)(ok);
  endif
  ## the rows passed on join in their sentence's place
  q = find (! gen);
  [~, o] = sort ([key(:); b(q)]);
  from = [from(:); q](o);
  token = [token(:); zeros(size (q))](o);
  logp = [logp; lp(q)](o);
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

%!test
%! ## a batch of sentences (prompts of different lengths: some rows still
%! ## read while others choose) gives each sentence the hypotheses it has
%! ## alone, in the same order
%! src = {"the river bank", "the financial bank", "the river"};
%! prompts = {"la rive", "", "la"};
%! o = struct ("max_len", 3, "cache", true, "want", false, "method", "beam", "width", 3);
%! D = decode_beam (m, decode_start (m, src, prompts, o, "t", "P"), 3);
%! for i = 1:3
%!   Di = decode_beam (m, decode_start (m, src(i), prompts(i), o, "t", "P"), 3);
%!   assert (D.ids(D.sent == i), Di.ids);
%!   assert (D.logp(D.sent == i), Di.logp, 1e-12);
%! endfor
