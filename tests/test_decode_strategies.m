## The decoders (attn_greedy, attn_beam, attn_sample, attn_continue) on every
## generating model: encoder-decoder (three norm placements and the two
## toys), the three pooled-context designs and decoder-only.

%!function models = generating ()
%!  ## {name, model, source}: small untrained models, fixed seeds
%!  c = struct ("src_vocab", {{"the river bank", "the financial bank"}},
%!              "tgt_vocab", {{"la rive", "la banque"}}, "d", 6, "heads", 2,
%!              "d_ff", 5, "max_len", 6, "seed", 3);
%!  models = {};
%!  for norm = {"none", "post", "pre"}
%!    c.norm = norm{1};
%!    models(end+1,:) = {["encoder-decoder " norm{1}], attn_model(c), "the river bank"};
%!  endfor
%!  models(end+1,:) = {"toy river", attn_toy("river"), "the financial bank"};
%!  models(end+1,:) = {"toy blackcat", attn_toy("blackcat"), "the white dog"};
%!  for f = {"pooled-add", "pooled-concat", "pooled-prefix"}
%!    p = struct ("family", f{1}, "d", 8, "heads", 2, "d_ff", 6, "max_len", 6, "seed", 3,
%!                "norm", "pre", "src_vocab", {{"raghav goes to delhi", "meera goes"}},
%!                "tgt_vocab", {{"raghav va a delhi", "meera va"}});
%!    models(end+1,:) = {f{1}, attn_family(p), "meera goes to delhi"};
%!  endfor
%!  p = struct ("family", "decoder-only", "d", 8, "heads", 2, "layers", 2, "d_ff", 6,
%!              "max_len", 7, "norm", "post", "seed", 5,
%!              "vocab", {{"raghav goes to school in delhi", "meera lives in paris"}});
%!  models(end+1,:) = {"decoder-only", attn_family(p), "meera lives"};
%!endfunction

%!function L = limit (m, source)
%!  ## target tokens the position table leaves for generation
%!  L = rows (m.tgt_pos);
%!  if (strcmp (m.config.family, "pooled-prefix"))
%!    L -= 1;                                   # the source row
%!  elseif (strcmp (m.config.family, "decoder-only"))
%!    L -= numel (strsplit (source, " "));      # the prompt's rows (<bos> is fed)
%!  endif
%!endfunction

%!function ids = reference_greedy (m, source)
%!  ## written apart from the package's loop: a whole forward pass over
%!  ## <bos> and every token so far at each step, the argmax appended, until
%!  ## <eos> or the position table is full
%!  v = m.tgt_vocab;
%!  ids = zeros (1, 0);
%!  while (numel (ids) < limit (m, source) && (isempty (ids) || ids(end) != v.eos))
%!    if (strcmp (m.config.family, "decoder-only"))
%!      tr = attn_forward (m, [v.bos, attn_encode(v, source), ids]);
%!    else
%!      tr = attn_forward (m, source, [v.bos, ids]);
%!    endif
%!    [~, ids(end+1)] = max (tr.probs(end,:));
%!  endwhile
%!endfunction

%!function m = eos_bias (m, b)
%!  m.b_vocab(m.tgt_vocab.eos) = b;     # +50: <eos> first; -50: never
%!endfunction

## greedy agrees with the reference decoder, cached equals uncached, and
## beam width 1 equals greedy, on every model, to the length limit
%!test
%! models = generating ();
%! for i = 1:rows (models)
%!   [name, m, s] = models{i,:};
%!   m = eos_bias (m, -50);
%!   [t, g] = attn_greedy (m, s);
%!   assert (isequal (g.ids, reference_greedy (m, s)), "%s: greedy != reference", name);
%!   assert (g.stopped, "length");
%!   assert (numel (g.ids), limit (m, s));
%!   [t2, u] = attn_greedy (m, s, "cache", false);
%!   assert (t2, t);
%!   assert (u.probs, g.probs, 1e-12);
%!   assert (u.A, g.A, 1e-12);
%!   [b, bi] = attn_beam (m, s, 1);
%!   assert (b, t);
%!   assert (bi.ids, g.ids);
%!   assert (bi.probs, g.probs, 1e-15);
%!   assert (bi.A, g.A, 1e-15);
%!   assert (bi.decoder_steps, g.decoder_steps);
%! endfor

## wider beams and sampling: cached equals uncached on every model
%!test
%! models = generating ();
%! for i = 1:rows (models)
%!   [name, m, s] = models{i,:};
%!   [~, a] = attn_beam (m, s, 3, "max_len", 4);
%!   [~, b] = attn_beam (m, s, 3, "max_len", 4, "cache", false);
%!   assert (isequal (b.ids, a.ids), "%s: beam cache", name);
%!   assert ([b.beams.score], [a.beams.score], 1e-10);
%!   assert (a.encoder_passes, double (! strcmp (m.config.family, "decoder-only")));
%!   [~, a] = attn_sample (m, s, "seed", 4, "temperature", 2);
%!   [~, b] = attn_sample (m, s, "seed", 4, "temperature", 2, "cache", false);
%!   assert (isequal (b.ids, a.ids), "%s: sample cache", name);
%!   assert (b.probs, a.probs, 1e-12);
%! endfor

## every decoder stops at <eos> on every model
%!test
%! models = generating ();
%! for i = 1:rows (models)
%!   [name, m, s] = models{i,:};
%!   m = eos_bias (m, 50);
%!   eos = m.tgt_vocab.eos;
%!   [t, g] = attn_greedy (m, s);
%!   assert (isequal ({t, g.ids, g.stopped}, {"", eos, "eos"}), "%s: greedy <eos>", name);
%!   [t, b] = attn_beam (m, s, 2);
%!   assert ({t, b.ids}, {"", eos});
%!   [t, r] = attn_sample (m, s, "seed", 1);
%!   assert ({t, r.ids, r.stopped}, {"", eos, "eos"});
%! endfor

## beam search to the length limit on every model (the pooled-prefix
## model's source row counts against the position table)
%!test
%! models = generating ();
%! for i = 1:rows (models)
%!   [name, m, s] = models{i,:};
%!   m = eos_bias (m, -50);
%!   [~, b] = attn_beam (m, s, 3);
%!   assert (numel (b.ids) == limit (m, s), "%s: beam length", name);
%!   [~, r] = attn_sample (m, s, "seed", 2);
%!   assert ({numel(r.ids), r.stopped}, {limit(m, s), "length"});
%! endfor

## a decoder-only model's source is its prompt: attn_greedy, attn_beam and
## attn_sample continue it as attn_continue does
%!test
%! models = generating ();
%! [~, m, s] = models{end,:};
%! [t, c] = attn_continue (m, s, "max_len", Inf);
%! [g, gi] = attn_greedy (m, s);
%! assert (g, t);
%! assert (gi.probs, c.probs);
%! assert (gi.source_labels, cell (1, 0));
%! assert (attn_beam (m, s, 1), t);
%! [a, ai] = attn_sample (m, s, "seed", 3, "top_k", 2);
%! [b, bi] = attn_continue (m, s, "method", "sample", "seed", 3, "top_k", 2, "max_len", Inf);
%! assert ({a, ai.ids}, {b, bi.ids});
%! ## an empty prompt
%! assert (attn_greedy (m, ""), attn_continue (m, "", "max_len", Inf));

## attn_continue on an encoder-decoder model: the prompt starts the target
%!test
%! m = attn_toy ("blackcat");
%! [t, info] = attn_continue (m, "le chat", "source", "the black cat");
%! [~, g] = attn_greedy (m, "the black cat");
%! assert (g.ids(1:2), attn_encode (m.tgt_vocab, "le chat"));
%! assert (info.ids, g.ids(3:end));
%! assert (info.probs, g.probs(3:end,:), 1e-12);
%! assert (info.A, g.A(3:end,:,:,:), 1e-12);
%! [~, b] = attn_continue (m, "le", "source", "the white dog", "method", "beam", "width", 3);
%! assert (isfield (b, "score"));

## a temperature near 0 is greedy decoding (the most probable tokens, not
## the first of a vocabulary whose weights all underflowed)
%!test
%! models = generating ();
%! for i = [1 4 6 9]
%!   [name, m, s] = models{i,:};
%!   [g, gi] = attn_greedy (m, s);
%!   [t, si] = attn_sample (m, s, "temperature", 1e-5, "seed", 1);
%!   assert (isequal (si.ids, gi.ids), "%s: temperature 1e-5", name);
%!   assert (attn_sample (m, s, "temperature", 1e-300), g);
%! endfor

## top-p: every first token lies in the nucleus computed by hand from the
## model's distribution, in proportion to its renormalised probability
%!test
%! m = attn_toy ("river");
%! [~, g] = attn_greedy (m, "the river bank");
%! p = g.probs(1,:);
%! [sorted, order] = sort (p, "descend");
%! before = [0, cumsum(sorted(1:end-1))];
%! P = (before(2) + before(3)) / 2;            # the two most probable tokens
%! nucleus = order(before < P);
%! assert (numel (nucleus), 2);
%! first = zeros (1, 300);
%! for s = 1:300
%!   [~, i] = attn_sample (m, "the river bank", "top_p", P, "seed", s, "max_len", 1);
%!   first(s) = i.ids;
%! endfor
%! assert (all (ismember (first, nucleus)));
%! q = p(nucleus) / sum (p(nucleus));
%! assert (mean (first == nucleus(1)), q(1), 0.1);
%! ## top_p 1 draws from every token: the same as no cut
%! [~, a] = attn_sample (m, "the river bank", "seed", 9, "top_p", 1);
%! [~, b] = attn_sample (m, "the river bank", "seed", 9);
%! assert (a.ids, b.ids);
