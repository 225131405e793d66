## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## attn_demo_real_models end to end on the tiny random checkpoints of
## tests/fixtures/import in the published layouts (Marian with Marian's
## tokenizer files, GPT-2 with its BPE files, a BERT token classifier),
## checked against the plain-Python references of expected.txt where they
## exist and against attn_forward's trace (itself tested against them);
## then, where the real checkpoints are downloaded (the folder of
## ATTENTION_CHECKPOINTS), what the real models say: skipped otherwise.

%!function d = here (name)
%!  d = fullfile (fileparts (which ("run_tests")), "fixtures", "import", name);
%!endfunction

%!function ok = real_checkpoints ()
%!  d = getenv ("ATTENTION_CHECKPOINTS");
%!  ok = ! isempty (d) && all (cellfun (@(s) isfile (fullfile (d, s, "model.safetensors")),
%!                                      {"opus-mt-en-fr", "gpt2", "bert-base-NER"}));
%!endfunction

%!shared r, out, dir
%! dir = tempname ();
%! mkdir (dir);
%! [out, r] = evalc (['attn_demo_real_models (fullfile (dir, "none"), "marian", here ("marian-text"), ', ...
%!                    '"gpt2", here ("gpt2-text"), "prompt", "Hi there", "bert", here ("bert"), ', ...
%!                    '"sentence", "Raghav goes to school in Delhi.", "max_len", 6, "out", dir)']);

%!test
%! ## Marian: the grid shown is the last decoder layer's cross-attention of
%! ## the translation, a row per piece written, a column per source piece,
%! ## the same as greedy decoding's own record (with its cache)
%! assert (isempty (r.missing));
%! [m, tok] = attn_import (here ("marian-text"));
%! [ids, pieces] = attn_tokenize (tok, "the black cat");
%! assert (r.marian.source, [pieces, {"</s>"}]);
%! assert (r.marian.source(1:end-1), tok.pieces(ids));
%! [~, info] = attn_greedy (m, ids, "max_len", 6);
%! assert (r.marian.written, tok.pieces(info.ids));
%! assert (size (r.marian.A), [numel(info.ids), numel(ids) + 1, 2]);
%! assert (r.marian.layer, 1);
%! assert (r.marian.A, info.A(:,:,:,end), 1e-12);
%! assert (r.marian.grid, mean (info.A(:,:,:,end), 3), 1e-12);
%! assert (sum (r.marian.grid, 2), ones (numel (info.ids), 1), 1e-12);
%! assert (r.marian.text, strtrim (attn_detokenize (tok, info.ids(info.ids != m.tgt_vocab.eos))));
%! ## printed: the first row of the grid, and seed 004's grid beside it
%! assert (shown_row (out, "decoder(1).cross.A (mean of the heads)", r.marian.written{1}),
%!         round (100 * r.marian.grid(1,:)) / 100);
%! assert (r.marian.toy_rows, {"le", "chat", "noir", "<eos>"});
%! assert (r.marian.toy_cols, {"the", "black", "cat", "<eos>"});
%! assert (shown_row (out, "cross.A", "chat"), [0.08 0.22 0.61 0.08]);
%! assert (shown_row (out, "cross.A", "noir"), [0.08 0.61 0.22 0.08]);
%! assert (! isempty (strfind (out, "the black cat -> ")));

%!test
%! ## GPT-2: the prompt's pieces and the continuation of the plain-Python
%! ## reference (expected.txt: at most 6 tokens), the model on one screen
%! assert (r.gpt2.prompt, {"H", "i", " t", "h", "e", "r", "e"});
%! greedy = import_expected ("gpt2-text", "greedy"){1} + 1;
%! assert (r.gpt2.ids, greedy);
%! [m, tok] = attn_import (here ("gpt2-text"));
%! assert (r.gpt2.text, attn_detokenize (tok, [attn_tokenize(tok, "Hi there"), r.gpt2.ids]));
%! assert (! isempty (strfind (out, ["Continued (greedy): " r.gpt2.text])));
%! lines = strsplit (r.gpt2.summary, "\n");
%! assert (numel (lines) <= 30);
%! assert (max (cellfun (@(l) numel (regexprep (l, '[\x80-\xBF]', "")), lines)) <= 78);
%! assert (! isempty (strfind (out, r.gpt2.summary)));

%!test
%! ## BERT-NER: the pieces of [CLS] sentence [SEP], the class probabilities
%! ## of the plain-Python reference (expected.txt, case 1), the labels
%! ## named by config.json's id2label
%! assert (r.bert.pieces, {"[CLS]", "Raghav", "goes", "to", "school", "in", "Delhi", ".", "[SEP]"});
%! [m, tok] = attn_import (here ("bert"));
%! assert (r.bert.pieces, tok.pieces(import_expected ("bert", "input"){1} + 1));
%! cfg = jsondecode (fileread (fullfile (here ("bert"), "config.json")));
%! keys = fieldnames (cfg.id2label);
%! [~, order] = sort (cellfun (@(k) str2double (regexprep (k, '\D', "")), keys));
%! classes = struct2cell (cfg.id2label)(order)';
%! assert (r.bert.classes, classes);
%! L = import_expected ("bert", "logits"){1};
%! L = reshape (L(3:end), L(2), L(1))';
%! P = exp (L - max (L, [], 2));
%! P ./= sum (P, 2);
%! assert (r.bert.probs, P, 1e-10);
%! [~, best] = max (L, [], 2);
%! assert (r.bert.labels, classes(best'));
%! assert (shown_row (out, "probs", "Delhi"), round (100 * P(7,:)) / 100);
%! assert (! isempty (strfind (out, ["Delhi/" classes{best(7)}])));

%!test
%! ## the figures and the page, each the file it says
%! unwind_protect
%! files = [r.marian.files, r.gpt2.files, r.bert.files];
%! assert (numel (files), 4);
%! for f = files
%!   assert (isfile (f{1}), f{1});
%!   assert (! isempty (strfind (out, f{1})));
%! endfor
%! for f = files([1 2 4])
%!   fid = fopen (f{1}, "r");
%!   sig = fread (fid, [1 8], "uint8");
%!   fclose (fid);
%!   assert (sig, [137 80 78 71 13 10 26 10]);
%! endfor
%! page = fileread (r.gpt2.files{1});
%! assert (! isempty (strfind (page, "<title>GPT-2: the prompt and its continuation</title>")));
%! assert (! isempty (strfind (page, "id=\"model-grid\"")));
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (dir, "s");
%! end_unwind_protect

%!test
%! ## the layer option, and the figures left out
%! [~, r1] = evalc ('attn_demo_real_models (tempname (), "marian", here ("marian-text"), "layer", 1, "figures", false)');
%! assert (isempty (r1.marian.files));
%! assert (r1.missing, {"gpt2", "bert-base-NER"});
%! try
%!   evalc ('attn_demo_real_models (tempname (), "marian", here ("marian-text"), "layer", 2, "figures", false)');
%!   error ("no error");
%! catch err
%!   assert (err.identifier, "attention:option");
%!   assert (! isempty (strfind (err.message, "the decoder has 1 layers")));
%! end_try_catch

%!testif ; real_checkpoints ()
%! ## the real models: the black cat in French, Raghav a person and Delhi
%! ## a place, GPT-2 writing something
%! dir = tempname ();
%! mkdir (dir);
%! unwind_protect
%!   [out, r] = evalc ("attn_demo_real_models (getenv ('ATTENTION_CHECKPOINTS'), 'out', dir)");
%!   assert (isempty (r.missing));
%!   assert (! isempty (strfind (lower (r.marian.text), "chat")), r.marian.text);
%!   assert (sum (r.marian.grid, 2), ones (numel (r.marian.written), 1), 1e-12);
%!   assert (size (r.marian.A, 3), 8);
%!   assert (numel (r.gpt2.ids) > 0);
%!   said = strjoin (strcat (r.bert.pieces, "/", r.bert.labels), " ");
%!   assert (r.bert.labels{2}, "B-PER", said);                  # Raghav's first piece
%!   assert (r.bert.labels{find (strncmp (r.bert.pieces, "Del", 3), 1)}, "B-LOC", said);
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (dir, "s");
%! end_unwind_protect
