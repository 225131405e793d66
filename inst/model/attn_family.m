## -*- texinfo -*-
## @deftypefn  {} {@var{m} =} attn_family (@var{config})
## A model of one of seed 003's other attention families.  It is
## initialised from a seed.
##
## Seed 003 varies two things: which positions may attend, and which output
## embeddings the task reads.  Every family here is assembled from the same
## kernels and layer functions as the encoder-decoder of @code{attn_model}:
##
## @table @asis
## @item @qcode{"decoder-only"}
## one sequence through causal self-attention + FFN blocks (the decoder
## without cross-attention), the vocabulary head on every row; trained on the
## next token at every position, generation reads the last row.  Fields:
## @code{tgt_vocab} (= @code{src_vocab}), @code{tgt_embed}, @code{tgt_pos},
## @code{decoder}, @code{W_vocab}, @code{b_vocab}.
## @item @qcode{"encoder-token"}
## full self-attention encoder, one shared classifier on every position:
## @code{scores = E*W_class + b_class} (n×C, seed 003's 6×4 for NER).
## With @code{d_hidden} > 0 every row first goes through a layer
## @code{H = act (E*W_hidden + b_hidden)} (@code{head_activation}), with
## @code{head_norm} then through a LayerNorm (@code{m.head_norm}, the
## config's @code{norm_kind} and @code{norm_eps}); with
## @code{tie_embeddings}, allowed when the classes are the vocabulary's
## words in its order (@code{classes} @code{= v.words} of the vocabulary
## @code{v}) and the head's rows are d wide, the scores are
## @code{H*src_embed' + b_class}: a masked language model (BERT's
## masked-LM head), with no @code{W_class}; training moves the one table.
## @item @qcode{"encoder-sentence"}
## the same encoder, one readout row per sentence: the updated @code{<cls>}
## row (a learned row of the embedding table, prepended to every sentence) or
## the mean of the states over the real tokens; then a linear head, or an MLP
## @code{h = relu (e*W_hidden + b_hidden)}, @code{logits = h*W_class + b_class}.
## @item @qcode{"pooled-add"}, @qcode{"pooled-concat"}, @qcode{"pooled-prefix"}
## encoder-decoders whose decoder sees one pooled source vector
## @code{c} (the mean of the encoder's final rows) instead of
## cross-attention: @code{u = c*W_u} added to every target input;
## @code{[e_t, c]*W_F} back to width d; or @code{c*W_P} prepended as a
## continuous prefix at position 1 (targets at positions 2, 3, @dots{}).
## Same fields as an encoder-decoder except that decoder layers have no
## @code{cross} block, so @code{attn_loss}, @code{attn_train} and
## @code{attn_greedy} treat them like the cross-attention model.
## @end table
##
## @var{config} takes the fields of @code{attn_model} (@code{d},
## @code{heads}, @code{dk}, @code{dv}, @code{d_ff}, @code{activation}, @code{ffn_gated}, @code{ffn_bias},
## @code{norm}, @code{norm_kind},
## @code{norm_eps}, @code{final_norm}, @code{kv_heads}, @code{attn_bias},
## @code{rope_base}, @code{embed_scale}, @code{embed_norm},
## @code{tie_embeddings},
## @code{positions}, @code{max_len}, @code{seed}, @code{src_vocab},
## @code{tgt_vocab}, @code{encoder_layers}, @code{decoder_layers}) and
## @code{family} (required), @code{vocab} (vocabulary or sentences, decoder-only
## and encoder families), @code{classes} (cellstr, encoder families),
## @code{layers} (stack depth of the one-stack families, 2),
## @code{readout} (@qcode{"cls"}, @qcode{"mean"}, or @qcode{"first"}: the
## first row of the sentence as given, no @code{<cls>} added, as for an
## imported BERT reading @code{[CLS] @dots{} [SEP]}), @code{head}
## (@qcode{"linear"} or @qcode{"mlp"}), @code{d_hidden} (MLP width, d; a
## token classifier's hidden width, 0 for none, the default),
## @code{head_activation} (the MLP layer's activation, @qcode{"relu"} or
## any of @code{attn_model}'s, and @qcode{"tanh"}) and @code{head_norm} (a
## token classifier's LayerNorm after its hidden layer, false).
## The stack a family lacks has 0 layers in @code{m.config}
## (@code{encoder_layers} of a decoder-only model, @code{decoder_layers} of
## an encoder family); a sentence classifier's config keeps @code{readout},
## @code{head}, @code{d_hidden} (0 for the linear head) and
## @code{head_activation}, a token classifier's @code{d_hidden},
## @code{head_activation} and @code{head_norm}.  The stacks are
## drawn from the seed as those of @code{attn_model}'s encoder-decoder of
## the same widths, so they hold the same numbers; the family's own
## matrices are normal with variance 1/fan-in, drawn from seed + 1.
##
## For the encoder families, @code{attn_train} and @code{attn_loss} take
## pairs (sentence, labels) where the labels are class names: one per word
## (@qcode{"PERSON OTHER OTHER PLACE"}) or one per sentence; their sources
## get no @code{<eos>} (the rows are the words, after @code{<cls>} for the
## cls readout).  For the decoder-only model, pairs (prompt, continuation)
## are joined into one sequence @code{<bos> prompt continuation <eos>},
## every position predicting the next.  Empty sentences are allowed: the
## mean of zero tokens is the zero vector, so an empty sentence's label is
## scored on the head's bias alone; an empty token-classified sentence has
## no labels.
##
## A family's model holds 0 layers in the stack it lacks
## (@code{m.config.encoder_layers} of a decoder-only model,
## @code{decoder_layers} of the classifiers).  A decoder-only model struct
## made by an older version of the package, whose config says
## @code{encoder_layers = 1}, is refused by every function with an
## @code{attention:model} error that says to set it to 0; once set, it is
## the model it was.  Sizes are checked as @code{attn_model} checks them
## (@code{attention:config}, @code{attention:toolarge}).
##
## @example
## @group
## c = struct ("family", "encoder-token", "vocab", "raghav goes to school in delhi",
##             "classes", @{@{"PERSON", "ORGANIZATION", "PLACE", "OTHER"@}@},
##             "d", 8, "heads", 2, "layers", 1);
## m = attn_family (c);
## tr = attn_forward (m, "raghav goes to school in delhi");
## size (tr.logits)
##   @result{} 6   4
## @end group
## @end example
## @seealso{attn_model, attn_forward, attn_loss, attn_train, attn_greedy}
## @end deftypefn

function m = attn_family (config)
  if (nargin != 1)
    print_usage ();
  endif
  if (isstruct (config) && ! isfield (config, "family"))
    error ("attention:config", "attn_family: CONFIG.family is required (%s)",
           family_names ("attn_family"));
  endif
  c = check_config (config, "attn_family");
  if (! strcmp (model_family (c.family).builder, "attn_family"))
    error ("attention:config",
           "attn_family: CONFIG.family must be one of %s (attn_model builds the encoder-decoder)",
           family_names ("attn_family"));
  endif
  m = model_new (c, "attn_family");
endfunction

%!shared ner, words
%! words = "raghav goes to school in delhi";
%! ner = struct ("family", "encoder-token", "vocab", words, "d", 8, "heads", 2,
%!               "layers", 1, "classes", {{"PERSON", "ORGANIZATION", "PLACE", "OTHER"}});

## seed 003: six words, four classes, one shared classifier: 6×4 scores
%!test
%! m = attn_family (ner);
%! assert (size (m.W_class), [8 4]);
%! assert (size (m.b_class), [1 4]);
%! assert (isfield (m, "decoder"), false);
%! tr = attn_forward (m, words);
%! assert (size (tr.logits), [6 4]);
%! assert (tr.logits, tr.encoded * m.W_class + m.b_class, 1e-12);
%! assert (tr.vocab_labels, {"PERSON", "ORGANIZATION", "PLACE", "OTHER"});

## CLS readout: five review words plus <cls> give six states, the head reads one
%!test
%! c = struct ("family", "encoder-sentence", "vocab", "the film was really good",
%!             "classes", {{"NEG", "POS"}}, "d", 8, "heads", 2, "layers", 1,
%!             "head", "mlp", "d_hidden", 6);
%! m = attn_family (c);
%! tr = attn_forward (m, "the film was really good");
%! assert (tr.source_labels', {"<cls>", "the", "film", "was", "really", "good"});
%! assert (tr.readout, tr.encoded(1,:));
%! assert (size (m.W_hidden), [8 6]);
%! assert (tr.logits, max (tr.readout * m.W_hidden + m.b_hidden, 0) * m.W_class + m.b_class, 1e-12);

%!test
%! ## the first-row readout adds no <cls>; a tanh layer before the classes
%! c = struct ("family", "encoder-sentence", "vocab", "good bad film", "classes", {{"pos", "neg"}},
%!             "d", 6, "heads", 2, "layers", 1, "readout", "first", "head", "mlp",
%!             "head_activation", "tanh");
%! m = attn_family (c);
%! tr = attn_forward (m, "good film");
%! assert (tr.source_labels', {"good", "film"});
%! assert (tr.readout, tr.encoded(1,:));
%! assert (tr.logits, tanh (tr.readout * m.W_hidden + m.b_hidden) * m.W_class + m.b_class, 1e-12);
%! c.readout = "mean";
%! tr = attn_forward (attn_family (c), "the film was really good");
%! assert (rows (tr.encoded), 5);
%! assert (tr.readout, mean (tr.encoded, 1), 1e-12);

## decoder-only: appending a word leaves earlier rows' final embeddings alone
%!test
%! c = struct ("family", "decoder-only", "vocab", words, "d", 8, "heads", 2, "layers", 2);
%! m = attn_family (c);
%! assert (isfield (m.decoder, "cross"), false);
%! a = attn_forward (m, "raghav goes to");
%! b = attn_forward (m, "raghav goes to school");
%! assert (b.decoder_out(1:4,:), a.decoder_out, 1e-12);
%! assert (! isequal (attn_family (setfield (c, "seed", 1)).tgt_embed, m.tgt_embed));
%! assert (attn_family (c), m);

## pooled-context designs: their own matrices, no cross block
%!test
%! c = struct ("d", 6, "heads", 2, "src_vocab", words, "tgt_vocab", "raghav va a l ecole a delhi");
%! f = {"pooled-add", "pooled-concat", "pooled-prefix"};
%! sz = {[6 6], [12 6], [6 6]};
%! name = {"W_u", "W_F", "W_P"};
%! for i = 1:3
%!   m = attn_family (setfield (c, "family", f{i}));
%!   assert (size (m.(name{i})), sz{i});
%!   assert (fieldnames (m.decoder)', {"self", "ffn", "norm_self", "norm_ffn"});
%!   tr = attn_forward (m, words, "<bos> raghav va");
%!   assert (size (tr.logits), [3 numel(m.tgt_vocab.words)]);
%! endfor
%! ## prefix: the source slot takes position 1, the target rows 2..n+1
%! assert (tr.target_rows(2,:), m.tgt_embed(m.tgt_vocab.bos,:) + m.tgt_pos(2,:), 1e-15);
%! assert (tr.target_rows(1,:), tr.c * m.W_P + m.tgt_pos(1,:), 1e-15);

%!error <CONFIG must be a scalar struct> attn_family (1)
%!error <CONFIG.family must be one of> attn_family (struct ("family", "encoder"))
%!error <CONFIG.family is required> attn_family (struct ("vocab", "a b"))
%!error <CONFIG.family must be one of> attn_family (struct ("family", "encoder-decoder", "src_vocab", "a", "tgt_vocab", "b"))
%!error <CONFIG.layers must be an integer> attn_family (struct ("family", "decoder-only", "vocab", "a b", "layers", 1.5))
%!test
%! m = attn_family (struct ("family", "decoder-only", "vocab", "a b", "layers", 3));
%! assert ([m.config.encoder_layers, m.config.decoder_layers], [0 3]);
%!error <CONFIG.vocab is required> attn_family (struct ("family", "decoder-only"))
%!error <CONFIG.classes must be> attn_family (struct ("family", "encoder-token", "vocab", "a b"))
%!error <CONFIG.readout must be> attn_family (struct ("family", "encoder-sentence", "vocab", "a b", "classes", {{"x", "y"}}, "readout", "max"))
%!error <belongs to the encoder-decoder> attn_family (struct ("family", "decoder-only", "vocab", "a b", "src_vocab", "a"))
%!error <CONFIG.vocab must hold> attn_family (struct ("family", "encoder-sentence", "vocab", attn_vocab ("a b"), "classes", {{"x", "y"}}))
%!error <unknown CONFIG field> attn_family (struct ("family", "decoder-only", "vocab", "a b", "width", 3))
%!error <pair 1 has 2 words but 1 labels> attn_loss (attn_family (struct ("family", "encoder-token", "vocab", "a b", "classes", {{"X", "Y"}}, "d", 4, "heads", 2)), {"a b"}, {"X"})

%!demo
%! ## Seed 003, decoder-only: "raghav goes to" -> next token; causal attention
%! c = struct ("family", "decoder-only", "d", 8, "heads", 2, "layers", 2, "seed", 1,
%!             "vocab", {{"raghav goes to school in delhi"}});
%! m = attn_family (c);
%! m = attn_train (m, {"", "raghav goes to school in delhi"}, "epochs", 60,
%!                 "batch_size", 1, "lr", 0.02, "verbose", false);
%! tr = attn_forward (m, "raghav goes to");
%! disp ("last layer, head 1: who may read whom (rows: queries)");
%! disp (tr.decoder(2).self.A(:,:,1));
%! [p, k] = sort (tr.probs(end,:), "descend");
%! printf ("after 'raghav goes to': %s %.2f, %s %.2f\n", m.tgt_vocab.words{k(1)}, p(1),
%!         m.tgt_vocab.words{k(2)}, p(2));
%! tr2 = attn_forward (m, "raghav goes to school");
%! printf ("appending 'school' changes earlier final rows by %g\n",
%!         max (max (abs (tr2.decoder_out(1:4,:) - tr.decoder_out))));
%! [text, info] = attn_continue (m, "raghav goes to");
%! printf ("greedy continuation: %s (%d rows computed with the cache)\n", text,
%!         info.rows_computed);

%!demo
%! ## Seed 003, encoder-only token classifier: six words, six rows of 4 scores
%! classes = {"PERSON", "ORGANIZATION", "PLACE", "OTHER"};
%! data = {"raghav goes to school in delhi", "PERSON OTHER OTHER OTHER OTHER PLACE";
%!         "meera works at unesco in paris", "PERSON OTHER OTHER ORGANIZATION OTHER PLACE"};
%! m = attn_family (struct ("family", "encoder-token", "vocab", {data(:,1)}, "classes", {classes},
%!                          "d", 8, "heads", 2, "layers", 1, "seed", 1));
%! m = attn_train (m, data, "epochs", 80, "batch_size", 2, "lr", 0.02, "verbose", false);
%! tr = attn_forward (m, "raghav goes to school in delhi");
%! printf ("scores = E*W_class + b_class: %dx%d, W_class %dx%d\n", size (tr.logits), size (m.W_class));
%! [~, best] = max (tr.probs, [], 2);
%! disp ([tr.source_labels, m.tgt_vocab.words(best)']);

%!demo
%! ## Seed 003, sentence classifier: the updated <cls> row through an MLP head
%! ## h = relu (e_CLS*W_hidden + b_hidden) (8 -> 6), logits = h*W_class + b_class (6 -> 3)
%! c = struct ("family", "encoder-sentence", "readout", "cls", "head", "mlp", "d_hidden", 6,
%!             "classes", {{"EDUCATION", "TRAVEL", "OTHER"}}, "d", 8, "heads", 2, "layers", 1,
%!             "vocab", {{"raghav goes to school in delhi"}});
%! m = attn_family (c);
%! tr = attn_forward (m, "raghav goes to school in delhi");
%! printf ("rows into the encoder: %s\n", strjoin (tr.source_labels', " "));
%! printf ("readout = encoded(1,:) (%dx%d); W_hidden %dx%d; W_class %dx%d\n",
%!         size (tr.readout), size (m.W_hidden), size (m.W_class));
%! printf ("probabilities: %s\n", mat2str (tr.probs, 3));

%!demo
%! ## Seed 003, one pooled source vector c instead of cross-attention:
%! ## three ways to give it to the decoder
%! c = struct ("d", 4, "heads", 2, "seed", 1, "src_vocab", "raghav goes to delhi",
%!             "tgt_vocab", "raghav dilli jata hai");
%! for f = {"pooled-add", "pooled-concat", "pooled-prefix"}
%!   m = attn_family (setfield (c, "family", f{1}));
%!   tr = attn_forward (m, "raghav goes to delhi", "<bos> raghav dilli");
%!   printf ("%s: c = %s; decoder input rows %dx%d (target positions %s)\n", f{1},
%!           mat2str (tr.c, 2), size (tr.target_rows),
%!           mat2str ((1:3) + strcmp (f{1}, "pooled-prefix")));
%! endfor
