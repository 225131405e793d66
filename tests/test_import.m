## attn_import on tiny random checkpoints in the layouts Hugging Face
## publishes (tests/fixtures/import: GPT-2, Llama, BERT token and
## sentence classifiers and masked language model, Marian), against expected.txt: the logits and greedy continuations
## of a plain-Python forward pass of each architecture written from its
## published formulas (make_fixtures.py, run once; the tests read only the
## files).

%!function d = here (name)
%!  d = fullfile (fileparts (which ("run_tests")), "fixtures", "import", name);
%!endfunction

## the imported model's logits equal the reference's (1e-10 relative) on
## every case, or with tol > 0 within tol times the largest logit (a single
## model); inputs there count ids from 0 and hold <bos> where the model
## reads it
%!function check_logits (m, fixture, tol = -1e-10)
%!  inputs = import_expected (fixture, "input");
%!  logits = import_expected (fixture, "logits");
%!  assert (numel (inputs) >= 3);
%!  for k = 1:numel (inputs)
%!    ids = inputs{k} + 1;
%!    if (m.tgt_vocab.bos > 0)
%!      assert (ids(1), m.tgt_vocab.bos);
%!      ids = ids(2:end);
%!    endif
%!    tr = attn_forward (m, ids);
%!    n = logits{k}(1:2);
%!    want = reshape (logits{k}(3:end), n(2), n(1))';
%!    assert (size (tr.logits), n);
%!    if (tol > 0)
%!      assert (class (tr.logits), "single");
%!      assert (double (tr.logits), want, tol * max (abs (want(:))));
%!    else
%!      assert (tr.logits, want, tol);
%!    endif
%!  endfor
%!endfunction

## cached greedy continuation gives the reference's ids
%!function check_greedy (m, fixture)
%!  inputs = import_expected (fixture, "input");
%!  greedy = import_expected (fixture, "greedy");
%!  for k = 1:numel (inputs)
%!    [~, info] = attn_continue (m, inputs{k}(2:end) + 1, "max_len", 6);
%!    assert (info.ids, greedy{k} + 1);
%!  endfor
%!endfunction

## saved and loaded, the model is the same
%!function check_save (m)
%!  f = [tempname() ".safetensors"];
%!  unwind_protect
%!    attn_save (m, f);
%!    assert (isequal (attn_load (f), m));
%!  unwind_protect_cleanup
%!    if (exist (f, "file"))
%!      delete (f);
%!    endif
%!  end_unwind_protect
%!endfunction

## the message and identifier of an error
%!function check_error (code, id, pattern)
%!  try
%!    code ();
%!    error ("no error");
%!  catch err
%!    assert (err.identifier, id);
%!    assert (! isempty (regexp (err.message, pattern, "once")), err.message);
%!  end_try_catch
%!endfunction

%!test
%! ## GPT-2: decoder-only, pre-norm, tied head, c_attn split into Q, K, V
%! [m, tok] = attn_import (here ("gpt2"));
%! assert (isempty (tok));
%! assert (m.config.family, "decoder-only");
%! assert ({m.config.activation, m.config.norm, m.config.positions}, {"gelu_tanh", "pre", "learned"});
%! assert ([m.config.tie_embeddings, m.config.attn_bias, m.config.max_len], [true, true, 12]);
%! assert ([m.tgt_vocab.bos, m.tgt_vocab.eos, m.tgt_vocab.pad], [40 40 0]);
%! assert (! isfield (m, "W_vocab"));
%! assert (! isfield (m, "b_vocab"));
%! assert (m.config.head_bias, false);
%! check_logits (m, "gpt2");
%! check_greedy (m, "gpt2");
%! check_save (m);

%!test
%! ## the buffers h.N.attn.bias and masked_bias are there and not read; the
%! ## uncached continuation is the cached one
%! ck = attn_checkpoint (here ("gpt2"));
%! assert (any (strcmp (ck.names, "h.0.attn.bias")));
%! m = attn_import (here ("gpt2"));
%! [~, a] = attn_continue (m, [6 18 4], "max_len", 6);
%! [~, b] = attn_continue (m, [6 18 4], "max_len", 6, "cache", false);
%! assert (a.ids, b.ids);
%! assert (a.probs, b.probs, 1e-12);

%!test
%! ## Llama: rope, RMSNorm, grouped-query attention, SwiGLU, its own head, BF16
%! m = attn_import (here ("llama"));
%! assert ({m.config.positions, m.config.norm_kind, m.config.activation},
%!         {"rope", "rmsnorm", "silu"});
%! assert ([m.config.kv_heads, m.config.heads, m.config.rope_base, m.config.ffn_gated],
%!         [2 4 500 true]);
%! assert ([m.config.attn_bias, m.config.ffn_bias, m.config.tie_embeddings], [false false false]);
%! assert ([m.tgt_vocab.bos, m.tgt_vocab.eos], [2 3]);
%! assert (size (m.W_vocab), [16 48]);
%! check_logits (m, "llama");
%! check_greedy (m, "llama");
%! check_save (m);

%!test
%! ## BERT token classifier: class names, embedding LayerNorm, post-norm
%! [m, tok] = attn_import (here ("bert"));
%! assert (m.config.family, "encoder-token");
%! assert (m.tgt_vocab.words, {"O", "B-PER", "I-PER", "B-LOC", "I-LOC"});
%! assert ([m.config.embed_norm, m.config.final_norm, m.config.norm_eps], [true false 1e-12]);
%! assert (m.config.activation, "gelu");
%! assert (m.src_vocab.words, tok.pieces);
%! assert ([m.src_vocab.pad, m.src_vocab.unk, m.src_vocab.bos, m.src_vocab.eos], [1 2 0 0]);
%! check_logits (m, "bert");
%! check_save (m);

%!test
%! ## text through the tokenizer: the ids of the reference's fourth case
%! [m, tok] = attn_import (here ("bert"));
%! ids = attn_tokenize (tok, "Raghav goes to school in Delhi.");
%! inputs = import_expected ("bert", "input");
%! assert (ids, inputs{4} + 1);
%! tr = attn_forward (m, ids);
%! [~, best] = max (tr.logits, [], 2);
%! assert (size (best), [7 1]);
%! assert (attn_detokenize (tok, ids), "Raghav goes to school in Delhi.");

%!test
%! ## without its tokenizer the words are the ids
%! [m, tok] = attn_import (here ("bert"), "tokenizer", false);
%! assert (isempty (tok));
%! assert (m.src_vocab.words(1:3), {"<1>", "<2>", "<3>"});

%!test
%! ## what the package cannot express is refused, naming key or tensor
%! check_error (@() attn_import (here ("gpt2-unknown")), "attention:import",
%!              'model_type "gpt3" is not one the package imports');
%! check_error (@() attn_import (here ("gpt2-missing")), "attention:import",
%!              'has no tensor "h\.1\.ln_2\.bias"');
%! check_error (@() attn_import (here ("gpt2-extra")), "attention:import",
%!              'holds the tensor "h\.0\.attn\.c_attn\.extra", which a gpt2 model');
%! check_error (@() attn_import (here ("gpt2-relu6")), "attention:import",
%!              'activation_function is "relu6"');
%! check_error (@() attn_import (here ("llama-scaled")), "attention:import",
%!              "rope_scaling is");

%!test
%! ## a BERT sentence classifier: the [CLS] row as given ("first"), its
%! ## pooler as a tanh layer, the classifier; one row of class scores
%! [m, tok] = attn_import (here ("bert-sentence"));
%! assert (m.config.family, "encoder-sentence");
%! assert ({m.config.readout, m.config.head, m.config.head_activation}, {"first", "mlp", "tanh"});
%! assert (m.tgt_vocab.words, {"EDUCATION", "TRAVEL", "OTHER"});
%! check_logits (m, "bert-sentence");
%! check_save (m);

%!test
%! ## BERT's masked language model (BertForMaskedLM): a token classifier whose
%! ## classes are the words, its head dense, gelu, LayerNorm and the word
%! ## table transposed (tied) plus cls.predictions.bias; the pooler and the
%! ## next-sentence head are not read; the stored decoder weight and bias are
%! ## checked copies of the tied tensors
%! [m, tok] = attn_import (here ("bert-mlm"));
%! assert (m.config.family, "encoder-token");
%! assert ([m.config.tie_embeddings, m.config.head_norm, m.config.d_hidden], [true true 12]);
%! assert ({m.config.activation, m.config.head_activation}, {"gelu", "gelu"});
%! assert (! isfield (m, "W_class"));
%! assert (isequal (m.tgt_vocab, m.src_vocab));
%! assert (m.src_vocab.words, tok.pieces);
%! ck = attn_checkpoint (here ("bert-mlm"));
%! assert (all (ismember ({"bert.pooler.dense.weight", "cls.seq_relationship.bias", ...
%!                        "cls.predictions.transform.LayerNorm.gamma", ...
%!                        "cls.predictions.decoder.weight"}, ck.names)));
%! assert (m.head_norm.gain, attn_checkpoint (ck, "cls.predictions.transform.LayerNorm.gamma"));
%! assert (m.W_hidden, attn_checkpoint (ck, "cls.predictions.transform.dense.weight")');
%! assert (m.b_class, attn_checkpoint (ck, "cls.predictions.bias"));
%! check_logits (m, "bert-mlm");
%! inputs = import_expected ("bert-mlm", "input");
%! logits = import_expected ("bert-mlm", "logits");
%! for k = 1:numel (inputs)                 # and to 1e-12 absolute
%!   tr = attn_forward (m, inputs{k} + 1);
%!   assert (tr.logits, reshape (logits{k}(3:end), logits{k}(2), logits{k}(1))', 1e-12);
%! endfor
%! tr = attn_forward (m, import_expected ("bert-mlm", "input"){1} + 1);
%! assert (tr.logits, tr.head_norm.out * m.src_embed.' + m.b_class, 1e-12);
%! assert (size (tr.hidden), [9 12]);
%! check_save (m);
%! ## in single, within single's rounding
%! ms = attn_import (here ("bert-mlm"), "class", "single");
%! check_logits (ms, "bert-mlm", 1e-5);

%!test
%! ## a masked word predicted: "[CLS] Meera lives in [MASK] . [SEP]" with the
%! ## ids of the tokenizer, the reference's most probable word at [MASK]
%! [m, tok] = attn_import (here ("bert-mlm"));
%! id = @(w) find (strcmp (m.src_vocab.words, w));
%! ids = [id("[CLS]"), attn_tokenize(tok, "Meera lives in"), id("[MASK]"), ...
%!        attn_tokenize(tok, "."), id("[SEP]")];
%! assert (ids, import_expected ("bert-mlm", "input"){2} + 1);
%! tr = attn_forward (m, ids);
%! n = import_expected ("bert-mlm", "logits"){2};
%! want = reshape (n(3:end), n(2), n(1))';
%! [~, best] = max (want(5,:));
%! [~, got] = max (tr.probs(5,:));
%! assert (got, best);
%! word = attn_detokenize (tok, got);
%! assert (word, m.tgt_vocab.words{got});
%! assert (tr.vocab_labels{got}, word);
%! ## attn_show: the model, the head's rows, the likeliest words at [MASK]
%! s = attn_show (m);
%! assert (! isempty (strfind (s, "head_norm.gain")));
%! assert (isempty (strfind (s, "W_class")));
%! s = attn_show (tr, "probs", "top", 3);
%! assert (! isempty (strfind (s, word)));
%! s = attn_show (tr, "head_norm.out");
%! assert (! isempty (strfind (s, "[MASK]")));

%!test
%! ## a training step moves the one tied table: the head's gradient reaches
%! ## rows of src_embed no input reads, and the stepped model's scores are
%! ## still its head rows times src_embed'
%! m = attn_import (here ("bert-mlm"));
%! src = {"[CLS] Meera lives in [MASK] . [SEP]", "[CLS] Raghav goes to school [SEP]"};
%! tgt = {"[CLS] Meera lives in Paris . [SEP]", "[CLS] Raghav goes to school [SEP]"};
%! b = attn_batch (m, src, tgt);
%! [loss, G] = attn_loss (m, b);
%! assert (! isfield (G, "W_class"));
%! unread = setdiff (1:numel (m.src_vocab.words), b.src(:));
%! assert (all (any (G.src_embed(unread,:) != 0, 2)));
%! m2 = attn_sgd (m, G, 0.5);
%! assert (m2.src_embed, m.src_embed - 0.5 * G.src_embed, 1e-15);
%! assert (! isequal (m2.head_norm.gain, m.head_norm.gain));
%! assert (attn_loss (m2, b) < loss);
%! tr = attn_forward (m2, b);
%! assert (tr.logits(:,:,1), tr.head_norm.out(:,:,1) * m2.src_embed.' + m2.b_class, 1e-12);

%!test
%! ## a stored decoder weight that is not the word table is refused by name;
%! ## BertForPreTraining (its next-sentence head) is refused
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   copyfile (fullfile (here ("bert-mlm"), "*"), d);
%!   ck = attn_checkpoint (d);
%!   k = find (strcmp (ck.names, "cls.predictions.decoder.bias"));
%!   fid = fopen (ck.files{ck.shard(k)}, "r+");
%!   fseek (fid, ck.offsets(k,1), SEEK_SET);
%!   fwrite (fid, 0.5, "single", 0, "ieee-le");
%!   fclose (fid);
%!   check_error (@() attn_import (d), "attention:import",
%!                'tensor "cls\.predictions\.decoder\.bias" should be a copy of the model''s b_class');
%!   text = fileread (fullfile (d, "config.json"));
%!   fid = fopen (fullfile (d, "config.json"), "w");
%!   fputs (fid, strrep (text, "BertForMaskedLM", "BertForPreTraining"));
%!   fclose (fid);
%!   check_error (@() attn_import (d), "attention:import", "BertForPreTraining, which has the next-sentence head");
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (d, "s");
%! end_unwind_protect

%!test
%! ## Marian: encoder-decoder, post-norm, scaled embeddings, computed
%! ## sines-then-cosines positions, one shared table, final_logits_bias
%! m = attn_import (here ("marian"));
%! assert (m.config.family, "encoder-decoder");
%! assert ({m.config.positions, m.config.activation, m.config.norm},
%!         {"sinusoidal_concat", "silu", "post"});
%! assert ([m.config.embed_scale, m.config.tie_embeddings, m.config.encoder_layers, ...
%!          m.config.decoder_layers], [true true 2 1]);
%! assert ([m.tgt_vocab.bos, m.tgt_vocab.eos, m.tgt_vocab.pad], [36 1 0]);
%! assert (m.src_embed, m.tgt_embed);
%! ck = attn_checkpoint (here ("marian"));
%! assert (m.src_pos, attn_checkpoint (ck, "model.encoder.embed_positions.weight"), 1e-7);
%! sources = import_expected ("marian", "input");
%! prefixes = import_expected ("marian", "prefix");
%! logits = import_expected ("marian", "logits");
%! greedy = import_expected ("marian", "greedy");
%! for k = 1:numel (sources)
%!   tr = attn_forward (m, sources{k} + 1, prefixes{k} + 1);
%!   n = logits{k}(1:2);
%!   assert (tr.logits, reshape (logits{k}(3:end), n(2), n(1))', -1e-10);
%!   [~, info] = attn_greedy (m, sources{k} + 1, "max_len", 6);
%!   assert (info.ids, greedy{k} + 1);
%! endfor
%! check_save (m);

%!test
%! ## GPT-2 with its tokenizer files: text in, text out; the vocabulary
%! ## is the tokenizer's pieces (byte 0's piece written <0x00>)
%! [m, tok] = attn_import (here ("gpt2-text"));
%! assert (tok.kind, "bpe");
%! assert (numel (m.tgt_vocab.words), 258);
%! assert (m.tgt_vocab.words{m.tgt_vocab.bos}, "<|endoftext|>");
%! assert (m.tgt_vocab.bos, m.tgt_vocab.eos);
%! assert (any (strcmp (m.tgt_vocab.words, "<0x00>")));
%! assert (m.tgt_vocab.words(! strcmp (tok.pieces, "\0")), tok.pieces(! strcmp (tok.pieces, "\0")));
%! ids = attn_tokenize (tok, "Hi there");
%! input = import_expected ("gpt2-text", "input"){1} + 1;
%! assert (ids, input(2:end));
%! tr = attn_forward (m, ids);
%! assert (tr.target_labels', [{"<|endoftext|>"}, {"H", "i", " t", "h", "e", "r", "e"}]);
%! assert (tr.logits(end,:), import_expected ("gpt2-text", "last"){1}, -1e-10);
%! [~, info] = attn_continue (m, ids, "max_len", 6);
%! greedy = import_expected ("gpt2-text", "greedy"){1} + 1;
%! assert (info.ids, greedy);
%! assert (attn_detokenize (tok, [ids, info.ids]), ["Hi there", tok.pieces{greedy}]);

## Llamas with their tokenizer files: TinyLlama's layout (tokenizer.json,
## and tokenizer.model alone) and SmolLM's (byte-level tokenizer.json with
## Digits, tied head): the ids of a test string are the tokenizer
## references', the last row's logits and the greedy continuation the
## plain-Python forward pass's, the text comes back
%!function check_text (fixture, folder, kind)
%!  [m, tok] = attn_import (folder);
%!  assert (tok.kind, kind);
%!  V = numel (tok.pieces);
%!  assert (m.tgt_vocab.words(1:V), strrep (tok.pieces, "\0", "<0x00>"));
%!  strings = jsondecode (fileread (fullfile (here (".."), "tokenizers", "strings.json")));
%!  text = strings{import_expected(fixture, "text"){1}};
%!  input = import_expected (fixture, "input"){1} + 1;
%!  [ids, pieces, spans] = attn_tokenize (tok, text);
%!  assert (ids, input(2:end));
%!  assert (m.tgt_vocab.bos, input(1));
%!  assert (attn_detokenize (tok, ids), text);
%!  assert (spans(end, 2), numel (text));
%!  tr = attn_forward (m, ids);
%!  assert (tr.target_labels(2:end)', m.tgt_vocab.words(ids));
%!  assert (tr.logits(end,:), import_expected (fixture, "last"){1}, -1e-10);
%!  [~, info] = attn_continue (m, ids, "max_len", 6);
%!  greedy = import_expected (fixture, "greedy"){1} + 1;
%!  assert (info.ids, greedy);
%!  assert (strncmp (attn_detokenize (tok, [ids, info.ids]), text, numel (text)));
%!endfunction

%!test
%! check_text ("llama-text", here ("llama-text"), "spbpe");
%! check_text ("smollm-text", here ("smollm-text"), "bpe");
%! [m, tok] = attn_import (here ("smollm-text"));
%! assert (m.config.tie_embeddings, true);
%! assert (m.tgt_vocab.words{m.tgt_vocab.eos}, "<|endoftext|>");
%!test
%! ## tokenizer.model alone (a SentencePiece BPE) gives the same tokenizer's ids
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   for f = {"config.json", "model.safetensors", "tokenizer.model"}
%!     copyfile (fullfile (here ("llama-text"), f{1}), d);
%!   endfor
%!   check_text ("llama-text", d, "spbpe");
%!   [m, tok] = attn_import (d);
%!   assert (m.tgt_vocab.words{m.tgt_vocab.unk}, "<unk>");
%!   assert (m.tgt_vocab.words([m.tgt_vocab.bos, m.tgt_vocab.eos]), {"<s>", "</s>"});
%!   ## a tokenizer.json with a part the package does not read: the error
%!   ## names it; "tokenizer", false imports the model alone
%!   text = fileread (fullfile (here ("llama-text"), "tokenizer.json"));
%!   fid = fopen (fullfile (d, "tokenizer.json"), "w");
%!   fputs (fid, strrep (text, '"Prepend"', '"NFKC"'));
%!   fclose (fid);
%!   check_error (@() attn_import (d), "attention:import", 'tokenizer.json: normalizer: only Prepend');
%!   [m, tok] = attn_import (d, "tokenizer", false);
%!   assert (isempty (tok));
%!   assert (m.tgt_vocab.words{5}, "<5>");
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (d, "s");
%! end_unwind_protect

%!test
%! ## an imported model works with the other public functions: beam search,
%! ## a training step (the head stays tied), the explorer without a prefix
%! [m, tok] = attn_import (here ("gpt2-text"));
%! ids = attn_tokenize (tok, "Hi there");
%! [~, info] = attn_beam (m, ids, 2, "max_len", 3);
%! assert (numel (info.ids) <= 3);
%! [m2, hist] = attn_train (m, {ids(1:2), ids(3:end)}, "epochs", 2, "verbose", false);
%! assert (! isfield (m2, "W_vocab"));
%! assert (hist.loss(end) < hist.loss(1));
%! mm = attn_import (here ("marian"));
%! tr = attn_forward (mm, [6 10 15]);
%! assert (tr.target_ids, mm.tgt_vocab.bos);
%! f = [tempname() ".html"];
%! unwind_protect
%!   attn_explore (mm, [6 10 15], "file", f);
%!   assert (exist (f, "file"), 2);
%! unwind_protect_cleanup
%!   if (exist (f, "file"))
%!     delete (f);
%!   endif
%! end_unwind_protect

%!test
%! ## rope_scaling {"rope_type": "default"} is no scaling: imported
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   copyfile (fullfile (here ("llama"), "*"), d);
%!   text = fileread (fullfile (d, "config.json"));
%!   fid = fopen (fullfile (d, "config.json"), "w");
%!   fputs (fid, strrep (text, '"rope_scaling": null', '"rope_scaling": {"rope_type": "default"}'));
%!   fclose (fid);
%!   assert (isequal (attn_import (d), attn_import (here ("llama"))));
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (d, "s");
%! end_unwind_protect

%!test
%! ## tokenizer files that cannot be read: an attention:import error that
%! ## says how to import without them
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   copyfile (fullfile (here ("bert"), "*"), d);
%!   fid = fopen (fullfile (d, "vocab.txt"), "w");
%!   fputs (fid, "[PAD]\n[UNK]\nRaghav\xFF\n");
%!   fclose (fid);
%!   check_error (@() attn_import (d), "attention:import",
%!                'tokenizer files cannot be read .* "tokenizer", false');
%!   [m, tok] = attn_import (d, "tokenizer", false);
%!   assert (isempty (tok));
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (d, "s");
%! end_unwind_protect

%!test
%! ## "class", "single": every architecture's arrays single, each the
%! ## double import's rounded once; the logits of the reference to single
%! ## precision (1e-4 of the largest: sums of up to 48 terms over 2 to 3
%! ## layers, rounded at eps ("single") = 1.2e-7 each) and the same greedy
%! ## continuations
%! for f = {"gpt2", "llama", "bert", "marian"}
%!   ms = attn_import (here (f{1}), "class", "single");
%!   assert (isequal (ms, attn_cast (attn_import (here (f{1})), "single")), f{1});
%! endfor
%! assert (class (ms.src_embed), "single");        # (isequal does not compare classes)
%! for f = {"gpt2", "llama", "bert"}
%!   check_logits (attn_import (here (f{1}), "class", "single"), f{1}, 1e-4);
%! endfor
%! check_greedy (attn_import (here ("gpt2"), "class", "single"), "gpt2");
%! check_greedy (attn_import (here ("llama"), "class", "single"), "llama");
%!error <option "class" must be one of "double", "single"> attn_import (here ("gpt2"), "class", "half")

%!test
%! ## attn_checkpoint (ck, name, "single"): F32 as stored, BF16 rounded
%! ## (exactly: a BF16 is the upper half of an F32)
%! ck = attn_checkpoint (here ("gpt2"));
%! X = attn_checkpoint (ck, "wte.weight", "single");
%! assert (class (X), "single");
%! assert (double (X), attn_checkpoint (ck, "wte.weight"));
%! ck = attn_checkpoint (here ("llama"));
%! name = ck.names{find (strcmp (ck.dtypes, "BF16"), 1)};
%! assert (double (attn_checkpoint (ck, name, "single")), attn_checkpoint (ck, name));
%! fail ("attn_checkpoint (ck, name, 'half')", "may only be \"name\" or \"single\"");
