## [D, st] = decode_greedy (m, st, pick): greedy decoding and sampling, one
## hypothesis per sentence, of every sentence of the state st (decode_start)
## at once.  At each step every row reads its last id (decode_step) and
## then takes the next id of its prompt, if it is still reading one, or the
## token pick (P) chooses from its next-token distribution (P: G×V for the
## G rows that choose; pick returns G×1 ids: the most probable token, or a
## draw).  A row ends at <eos> or at its sentence's length limit and
## leaves the batch.  D: the finished hypotheses (decode_done), st the
## state at the end (its counts).
function [D, st] = decode_greedy (m, st, pick)
  D = decode_done ();
  eos = m.tgt_vocab.eos;
  for s = rows (st.ids):max (st.n0 + st.limit)   # from the shared prompt on
    full = s - st.n0(st.sent) >= st.limit(st.sent);   # written all they may
    if (any (full))
      [D, st] = decode_done (D, st, [], st.logp, full);
    endif
    if (isempty (st.sent))
      break;
    endif
    gen = s >= st.n0(st.sent);                 # the others still read their prompt
    [st, P] = decode_step (m, st, gen);
    if (all (gen))                             # (no prompt left to read: no copies)
      token = pick (P);
      logp = st.logp + log (P((token - 1) * rows (P) + (1:rows (P))'));
    else
      token = zeros (size (st.sent));
      token(gen) = pick (P(gen,:));
      token(! gen) = cellfun (@(f) f(s+1), st.fed(st.sent(! gen)));
      logp = st.logp;
      logp(gen) += log (P(sub2ind (size (P), find (gen), token(gen))));
    endif
    [D, st] = decode_done (D, st, token, logp, gen & token == eos);
  endfor
endfunction

%!shared m
%! m = attn_toy ("blackcat");

%!test
%! ## each token is the most probable one of a whole forward pass on the
%! ## prefix, and a sentence stops at <eos>
%! st = decode_start (m, {"the white dog", "the black cat"}, {}, struct ("max_len", 10,
%!                    "cache", true, "want", false, "method", "greedy"), "t", "S");
%! [D, st] = decode_greedy (m, st, @(P) nthargout (2, @max, P, [], 2));
%! assert (D.sent', [1 2]);
%! src = {"the white dog", "the black cat"};
%! for i = 1:2
%!   ids = D.ids{i}';
%!   assert (ids(end), m.tgt_vocab.eos);
%!   for n = 2:numel (ids)
%!     tr = attn_forward (m, src{i}, ids(1:n-1));
%!     [~, best] = max (tr.probs(end,:));
%!     assert (ids(n), best);
%!   endfor
%! endfor
%! assert (st.steps', cellfun ("numel", D.ids') - 1);

%!test
%! ## the prompt is read first; the length limit ends a sentence
%! o = struct ("max_len", 2, "cache", true, "want", true, "method", "greedy");
%! st = decode_start (m, {"the black cat"}, {"le"}, o, "t", "P");
%! [le, chat] = deal (attn_encode (m.tgt_vocab, "le"), attn_encode (m.tgt_vocab, "chat"));
%! D = decode_greedy (m, st, @(P) repmat (chat, rows (P), 1));
%! assert (D.ids{1}', [m.tgt_vocab.bos, le, chat, chat]);
%! assert (size (D.P{1}), [3, numel(m.tgt_vocab.words)]);

%!test
%! ## prompts of different lengths: the prompt rows both share are read in
%! ## one pass at the first step, the rest one by one; the same tokens,
%! ## probabilities and cross-attention as the whole forward pass at every
%! ## step (uncached), and one row of history per id read
%! src = {"the white dog", "the black cat", "the cat"};
%! prompts = {"le", "le chat noir", "le chien"};
%! for cached = [true, false]
%!   o = struct ("max_len", 3, "cache", cached, "want", true, "method", "greedy");
%!   st = decode_start (m, src, prompts, o, "t", "P");
%!   assert (rows (st.ids), 2);                        # <bos> le, shared
%!   [D{1+cached}, S{1+cached}] = decode_greedy (m, st, @(P) nthargout (2, @max, P, [], 2));
%! endfor
%! assert (D{1}.ids, D{2}.ids);
%! ## cached, every id but the last goes through the stack once
%! assert (S{2}.rows_run(D{2}.sent), cellfun ("numel", D{2}.ids) - 1);
%! for i = 1:3
%!   n0 = st.n0(D{2}.sent(i));
%!   assert (rows (D{2}.P{i}), numel (D{2}.ids{i}) - 1);
%!   assert (D{2}.P{i}(n0:end,:), D{1}.P{i}(n0:end,:), 1e-13);
%!   assert (D{2}.A{i}(n0:end,:,:,:), D{1}.A{i}(n0:end,:,:,:), 1e-13);
%! endfor
