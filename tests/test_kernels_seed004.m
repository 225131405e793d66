## Seed 004's numbers ("the black cat" -> "le chat noir"): the decoder's query
## q = [0 1 2 0] ("a noun, and a bit of the adjective") against the keys of
## the source words, which are their roles det, adj, noun, end, as 2*I.

%!shared q, keys, french, values_cat, values_dog, weights
%! q = [0 1 2 0];
%! keys = 2 * eye (4);                 # rows: the/det, black/adj, cat/noun, end
%! french = {"le", "chat", "noir", "chien", "blanc", "<end>"};
%! word = @(w) double (strcmp (french, w));         # one-hot, 1×6
%! values_cat = [word("le"); word("noir"); word("chat"); word("<end>")];
%! values_dog = [word("le"); word("blanc"); word("chien"); word("<end>")];
%! weights = exp ([0 1 2 0]) / sum (exp ([0 1 2 0]));

%!test
%! ## scores q*k' = [0 2 4 0], scaled by sqrt(dk) = 2 to [0 1 2 0]
%! [~, ~, S] = attn_sdpa (q, keys, values_cat);
%! assert (S * sqrt (4), [0 2 4 0], 1e-15);
%! assert (S, [0 1 2 0], 1e-15);

%!test
%! ## softmax: [0.08 0.22 0.61 0.08] to two decimals, exactly exp(s)/sum exp(s)
%! [~, A] = attn_sdpa (q, keys, values_cat);
%! assert (round (100 * A) / 100, [0.08 0.22 0.61 0.08]);
%! assert (A, weights, 1e-15);

%!test
%! ## the context puts 0.61 on "chat": greedy decoding writes chat; the same
%! ## query on "the white dog" writes chien
%! M = attn_sdpa (q, keys, values_cat);
%! assert (M, weights * values_cat, 1e-15);
%! [top, k] = max (M);
%! assert (french{k}, "chat");
%! assert (round (100 * top) / 100, 0.61);
%! [~, k] = max (attn_sdpa (q, keys, values_dog));
%! assert (french{k}, "chien");

%!test
%! ## the same step as a cross-attention block: identity projections, the
%! ## encoded source E = keys, W_V turning roles into the French one-hots
%! B = struct ("W_Q", eye (4), "W_K", eye (4), "W_V", values_cat / 2,
%!             "W_O", zeros (6, 4), "heads", 1);
%! [Y, T] = attn_cross (q, keys, B);
%! assert (T.Q, q);
%! assert (T.K, keys);
%! assert (T.V, values_cat, 1e-15);
%! assert (T.scores, [0 1 2 0], 1e-15);
%! assert (T.A, weights, 1e-15);
%! assert (T.message, weights * values_cat, 1e-15);
%! assert (Y, q);
