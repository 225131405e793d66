## Options, edges and messages of the decoders (attn_greedy, attn_beam,
## attn_sample, attn_continue, attn_score).

%!shared m, lm, ed
%! m = attn_toy ("blackcat");
%! lm = attn_family (struct ("family", "decoder-only", "d", 8, "heads", 2, "layers", 1,
%!                           "max_len", 6, "seed", 1,
%!                           "vocab", {{"raghav goes to school in delhi"}}));
%! ed = attn_model (struct ("src_vocab", {{"the river bank"}}, "tgt_vocab", {{"la rive"}},
%!                          "d", 4, "heads", 2, "max_len", 5, "seed", 2));

## every bad value is an attention:option error naming the option and range
%!error <attn_greedy: option "max_len" must be an integer in \[0, Inf\], got -1> attn_greedy (m, "the cat", "max_len", -1)
%!error <option "max_len" must be an integer> attn_greedy (m, "the cat", "max_len", NaN)
%!error <option "max_len" must be an integer> attn_greedy (m, "the cat", "max_len", 1.5)
%!error <option "cache" must be true or false> attn_greedy (m, "the cat", "cache", NaN)
%!error <attn_beam: option "width" must be an integer in \[1, Inf\), got 0> attn_beam (m, "the cat", 0)
%!error <option "width" must be an integer> attn_beam (m, "the cat", 2+1i)
%!error <option "width" must be an integer> attn_beam (m, "the cat", Inf)
%!error <attn_beam: option "width" must be at most 7, the size of the target vocabulary, got 1e\+09> attn_beam (m, "the cat", 1e9)
%!error <option "width" must be at most 7> attn_beam (m, "the cat", 8)
%!error <option "alpha" must be a real number in \(-Inf, Inf\), got NaN> attn_beam (m, "the cat", 2, "alpha", NaN)
%!error <option "alpha" must be a real number> attn_beam (m, "the cat", 2, "alpha", Inf)
%!error <option "temperature" must be a real number in \(0, Inf\), got 0> attn_sample (m, "the cat", "temperature", 0)
%!error <option "temperature" must be a real number> attn_sample (m, "the cat", "temperature", Inf)
%!error <option "top_k" must be an integer in \[0, Inf\), got 1.5> attn_sample (m, "the cat", "top_k", 1.5)
%!error <option "top_k" must be an integer> attn_sample (m, "the cat", "top_k", -1)
%!error <option "top_p" must be a real number in \(0, 1\], got 0> attn_sample (m, "the cat", "top_p", 0)
%!error <option "top_p" must be a real number> attn_sample (m, "the cat", "top_p", 1.5)
%!error <option "seed" must be an integer in \[0, Inf\), got -1> attn_sample (m, "the cat", "seed", -1)
%!error <option "seed" must be an integer> attn_sample (m, "the cat", "seed", NaN)
%!error <attn_continue: option "method" must be one of "greedy", "sample", "beam"> attn_continue (lm, "raghav", "method", "top")
%!error <attn_continue: option "top_p" must be> attn_continue (lm, "raghav", "top_p", NaN)
%!error <attn_score: option "batch_size" must be an integer in \[1, Inf\), got 0> attn_score (m, {"the cat", "le chat"}, "batch_size", 0)
%!error <attn_sample: unknown option "width"> attn_sample (m, "the cat", "width", 2)

%!test
%! ## every one of them is attention:option
%! calls = {@() attn_greedy(m, "the cat", "max_len", -1), @() attn_beam(m, "the cat", 1e9), ...
%!          @() attn_beam(m, "the cat", 2+1i), @() attn_sample(m, "the cat", "top_p", 2), ...
%!          @() attn_continue(lm, "raghav", "width", 0), @() attn_score(m, {"a", "b"}, "max_len", -1)};
%! for i = 1:numel (calls)
%!   try
%!     calls{i} ();
%!     error ("no error");
%!   catch err
%!     assert (err.identifier, "attention:option");
%!   end_try_catch
%! endfor

## the widest beam the vocabulary allows runs
%!test
%! [~, info] = attn_beam (m, "the cat", 7, "max_len", 3);
%! assert (numel (info.beams) >= 1);

## a length limit of 0 writes nothing
%!test
%! [t, info] = attn_greedy (m, "the black cat", "max_len", 0);
%! assert ({t, info.ids, info.stopped, info.decoder_steps}, {"", zeros(1, 0), "length", 0});
%! assert (attn_sample (m, "the black cat", "max_len", 0), "");
%! ## several sentences at once, and beam search: no step, an empty history each
%! src = {"the black cat", "the white dog", "the cat"};
%! V = numel (m.tgt_vocab.words);
%! [h, L] = deal (m.decoder(1).cross.heads, numel (m.decoder));
%! for way = {@(s) attn_greedy (m, s, "max_len", 0), @(s) attn_beam (m, s, 2, "max_len", 0)}
%!   [t, I] = way{1} (src);
%!   assert (t, {"", "", ""});
%!   for s = 1:3
%!     assert ({I(s).ids, I(s).decoder_steps}, {zeros(1, 0), 0});
%!     assert (size (I(s).probs), [0, V]);
%!     assert (size (I(s).A, 1:4), [0, numel(I(s).source_labels), h, L]);
%!   endfor
%! endfor
%! ## in the model's class, single too
%! [~, I] = attn_greedy (attn_cast (m, "single"), src, "max_len", 0);
%! assert ({class(I(2).probs), class(I(2).A)}, {"single", "single"});

## the true length limits in messages, naming the function the user called
%!error <attn_greedy: SOURCE must fit the position table: at most 5 tokens with .eos., got 6> attn_greedy (ed, "the river bank the river")
%!error <attn_beam: SOURCE must fit the position table> attn_beam (ed, "the river bank the river", 2)
%!error <attn_continue: PROMPT must fit the position table: at most 6 tokens with .bos., got 7> attn_continue (lm, "raghav goes to school in delhi")
%!error <attn_greedy: SOURCE must fit the position table: at most 6 tokens with .bos., got 7> attn_greedy (lm, "raghav goes to school in delhi")
%!test
%! pp = attn_family (struct ("family", "pooled-prefix", "d", 4, "heads", 2, "max_len", 4,
%!                           "src_vocab", {{"a b"}}, "tgt_vocab", {{"x y"}}));
%! try
%!   attn_continue (pp, "x y x y", "source", "a b");
%!   error ("no error");
%! catch err
%!   assert (err.identifier, "attention:size");
%!   ## position 1 holds the source row: 3 target rows are left
%!   assert (err.message, "attn_continue: PROMPT must fit the position table: at most 3 tokens with <bos>, got 5");
%! end_try_catch
%! [~, info] = attn_greedy (pp, "a b");           # to the limit: 3 tokens
%! assert (numel (info.ids) <= 3);

## unknown words: read as <unk> with a warning that names them, on every decoder
%!test
%! warning ("on", "attention:unknown-word");
%! calls = {@() attn_greedy(ed, "the heavy bank."), @() attn_beam(ed, "the heavy bank.", 2), ...
%!          @() attn_sample(ed, "the heavy bank."), ...
%!          @() attn_continue(ed, "la", "source", "the heavy bank."), ...
%!          @() attn_continue(lm, "raghav flies"), @() attn_greedy(lm, "raghav flies")};
%! words = {"heavy, bank.", "heavy, bank.", "heavy, bank.", "heavy, bank.", "flies", "flies"};
%! names = {"attn_greedy", "attn_beam", "attn_sample", "attn_continue", "attn_continue", "attn_greedy"};
%! for i = 1:numel (calls)
%!   lastwarn ("");
%!   calls{i} ();
%!   [msg, id] = lastwarn ();
%!   assert (id, "attention:unknown-word");
%!   assert (strncmp (msg, [names{i} ":"], numel (names{i}) + 1));
%!   assert (! isempty (strfind (msg, words{i})), msg);
%! endfor
%! ## known words: no warning; and the warning can be silenced
%! lastwarn ("");
%! attn_greedy (ed, "the river bank");
%! assert (lastwarn (), "");
%! old = warning ("off", "attention:unknown-word");
%! attn_greedy (ed, "the heavy bank");
%! warning (old);
%! assert (lastwarn (), "");
%! ## the text decodes as with <unk> given by hand
%! assert (attn_greedy (ed, "the heavy bank"), attn_greedy (ed, "the <unk> bank"));

## attn_score warns once for the whole set
%!test
%! warning ("on", "attention:unknown-word");
%! lastwarn ("");
%! S = attn_score (ed, {"the heavy bank", "la rive"; "the light bank", "la rive"});
%! [msg, id] = lastwarn ();
%! assert (id, "attention:unknown-word");
%! assert (msg, "attn_score: source words not in the vocabulary, read as <unk>: heavy, light");

## models that do not generate, and NaN weights
%!error <attn_greedy: M is an encoder-token classifier> attn_greedy (attn_family (struct ("family", "encoder-token", "vocab", "a b", "classes", {{"X", "Y"}}, "d", 4, "heads", 2)), "a")
%!error <option "source" \(the sentence the encoder reads\) is required> attn_continue (m, "le")
%!error <option "source" is not read by a decoder-only model> attn_continue (lm, "raghav", "source", "x")
%!test
%! bad = m;
%! bad.W_vocab(1) = NaN;
%! try
%!   attn_greedy (bad, "the black cat");
%!   error ("no error");
%! catch err
%!   assert (err.identifier, "attention:nonfinite");
%!   assert (strncmp (err.message, "attn_greedy: M.W_vocab must be finite, got NaN at (1,1)", 55));
%! end_try_catch
