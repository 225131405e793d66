## Defined behaviour of the model layer at its edges, each with its rule:
##
## - an empty sentence is allowed in every family: the encoder-decoder's
##   source is <eos> alone; a decoder-only pair is <bos> <eos>; an
##   encoder-token sentence has no labels; a mean readout over zero tokens
##   is the zero vector, so the sentence's label is scored on the head's
##   bias alone (it is never dropped); a batch of only empty sentences is
##   one row of padding.
## - length errors give the true limits of the model (pooled-prefix: the
##   target table less the row of the pooled source; no source limit for a
##   decoder-only model).
## - errors name the public function the user called.
## - one-stack families report 0 layers for the stack they lack.

%!shared w, mean_cls, tok, dec, encdec, prefix
%! w = "raghav goes to school in delhi";
%! mean_cls = attn_family (struct ("family", "encoder-sentence", "vocab", w, "classes", {{"A", "B"}},
%!                                 "readout", "mean", "d", 4, "heads", 2, "layers", 1));
%! mean_cls.b_class = [0.3 -0.2];
%! tok = attn_family (struct ("family", "encoder-token", "vocab", w, "classes", {{"A", "B"}},
%!                            "d", 4, "heads", 2, "layers", 1));
%! dec = attn_family (struct ("family", "decoder-only", "vocab", w, "d", 4, "heads", 2, "layers", 1));
%! encdec = attn_model (struct ("src_vocab", w, "tgt_vocab", w, "d", 4, "heads", 2, "max_len", 4,
%!                              "encoder_layers", 1, "decoder_layers", 1));
%! prefix = attn_family (struct ("family", "pooled-prefix", "src_vocab", w, "tgt_vocab", w,
%!                               "d", 4, "heads", 2, "max_len", 3));

## mean over zero tokens: readout 0, logits = b_class, the label counts
%!test
%! nll = @(z, k) log (sum (exp (z))) - z(k);
%! for batch = {{""}, {"", ""}}
%!   s = batch{1};
%!   [loss, G, info] = attn_loss (mean_cls, s, repmat ({"B"}, size (s)));
%!   assert (info.tokens, numel (s));
%!   assert (info.trace.readout, zeros (1, 4, numel (s)));
%!   assert (loss, nll (mean_cls.b_class, 2), 1e-14);
%!   assert (G.src_embed, zeros (size (mean_cls.src_embed)));
%! endfor
%! ## beside a real sentence, the empty one's loss is its own
%! [loss, ~, info] = attn_loss (mean_cls, {"raghav goes", ""}, {"A", "B"});
%! assert (info.row_loss(2), nll (mean_cls.b_class, 2), 1e-14);
%! tr = attn_forward (mean_cls, "");
%! assert (size (tr.encoded), [1 4]);
%! assert (tr.src_allow, false);

%!test
%! ## an empty token-classified sentence has no labels; beside another it adds none
%! [~, ~, info] = attn_loss (tok, {"", "raghav goes"}, {"", "A B"});
%! assert (info.tokens, 2);
%! [loss, ~, info] = attn_loss (tok, {""}, {""});
%! assert ([loss, info.tokens], [0 0]);

%!test
%! ## decoder-only: an empty pair is <bos> -> <eos>; encoder-decoder: empty source is <eos>
%! b = attn_batch (dec, {""}, {""});
%! v = dec.tgt_vocab;
%! assert ([b.tgt_in, b.labels], [v.bos, v.eos]);
%! b = attn_batch (encdec, {"", "raghav"}, {"", "raghav"});
%! assert (b.src(:,1)', [encdec.src_vocab.eos, encdec.src_vocab.pad]);
%! assert (b.src_allow(:,1)', [true false]);
%! assert (b.labels(1,1), encdec.tgt_vocab.eos);
%! [loss, ~, info] = attn_loss (encdec, {"", "raghav"}, {"", "raghav"});
%! assert (info.tokens, 3);
%! assert (isfinite (loss));

%!test
%! ## one-stack families: the stack they lack has 0 layers
%! assert ([dec.config.encoder_layers, dec.config.decoder_layers], [0 1]);
%! assert ([tok.config.encoder_layers, tok.config.decoder_layers], [1 0]);
%! assert (mean_cls.config.d_hidden, 0);

## true limits in the length messages
%!error <attn_loss: sequences must fit the position tables \(source <= 3 tokens, got 2; decoder input <= 2 tokens, position 1 holding the pooled source, got 3\)>
%! attn_loss (prefix, {"raghav"}, {"raghav goes"});
%!test
%! attn_loss (prefix, {"raghav"}, {"raghav"});     # <bos> raghav: 2 rows after the prefix
%!error <attn_forward: sequences must fit the position tables \(decoder input <= 64 tokens, got 65\)>
%! attn_forward (dec, repmat ("raghav ", 1, 64));
%!error <attn_forward: sequences must fit the position tables \(source <= 4 tokens, got 6; decoder input <= 4 tokens, got 1\)>
%! attn_forward (encdec, "raghav goes to school in");

## errors name the function the user called
%!error <^attn_decode: SENTENCE ids must be integers> attn_decode (encdec.src_vocab, 99)
%!error <^attn_loss: unknown word "x"> attn_loss (attn_toy ("river"), "the x bank", "la")
%!error <^attn_forward: unknown word "x"> attn_forward (attn_toy ("river"), "the x bank")
%!error <^attn_train: unknown word "x"> attn_train (attn_toy ("river"), {"the x bank", "la"}, "verbose", false)

## an unknown word names the vocabulary (source or target), the sentence of
## a batch, that words are case sensitive, and is raised from the public
## function: its stack starts there, no private helper in it
%!test
%! m = attn_toy ("blackcat");
%! calls = {@() attn_loss (m, {"the black cat", "the Black cat"}, {"le chat noir", "le chat noir"}), ...
%!          "attn_loss: unknown word \"Black\" (position 2 of source sentence 2) is not in the source vocabulary (M.src_vocab) of 6 words (words are case sensitive: \"black\" is in it)", "attn_loss";
%!          @() attn_batch (m, {"the black cat", "the white dog"}, {"le chat noir", "le Chien blanc"}), ...
%!          "attn_batch: unknown word \"Chien\" (position 2 of target sentence 2) is not in the target vocabulary (M.tgt_vocab) of 7 words (words are case sensitive: \"chien\" is in it)", "attn_batch";
%!          @() attn_forward (m, "the black cat", "<bos> la"), ...
%!          "attn_forward: unknown word \"la\" (position 2) is not in the target vocabulary (M.tgt_vocab) of 7 words (words are case sensitive)", "attn_forward";
%!          @() attn_greedy (m, "the Black cat"), ...
%!          "attn_greedy: unknown word \"Black\" (position 2) is not in the source vocabulary (M.src_vocab) of 6 words (words are case sensitive: \"black\" is in it)", "attn_greedy"};
%! for k = 1:rows (calls)
%!   err = [];
%!   try
%!     calls{k,1} ();
%!   catch err
%!   end_try_catch
%!   assert (err.identifier, "attention:vocab");
%!   assert (err.message, calls{k,2});
%!   assert (err.stack(1).name, calls{k,3});
%!   assert (isempty (strfind ([err.stack.file], [filesep() "private" filesep()])));
%! endfor
%!error <^attn_loss: TARGETS must hold 2 sentences> attn_loss (encdec, {"a", "b"}, {"c"})
%!error <^attn_loss: pair 1 has 2 words but 1 labels> attn_loss (tok, {"raghav goes"}, {"A"})
