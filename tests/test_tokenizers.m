## The tokenizers against their reference implementations, on the 300
## strings of tests/fixtures/tokenizers/strings.json (prose, code, numbers,
## contractions, accents, other scripts, emoji, CJK, white-space runs,
## compatibility forms).  The expected ids, spans and texts were made once
## by the generators in that folder (Hugging Face tokenizers and
## gpt-3-encoder for BPE, Hugging Face tokenizers for WordPiece and for
## the tokenizer.json files of Llama's and SmolLM's layouts,
## python3-sentencepiece for unigram and SentencePiece BPE); the tests read
## only the files.
## Reference spans are 0-based [start, end): here start+1 and end.
## Malformed files: attention:file errors naming the file.

%!function d = here ()
%!  d = fullfile (fileparts (which ("run_tests")), "fixtures", "tokenizers");
%!endfunction

%!function x = json (name)
%!  x = jsondecode (fileread (fullfile (here (), name)));
%!endfunction

%!function v = row (x)
%!  ## a JSON list of numbers (jsondecode gives [] or a column; a cell when mixed)
%!  if (iscell (x))
%!    x = cell2mat (x);
%!  endif
%!  v = reshape (double (x), 1, []);
%!endfunction

%!function s = spans_of (x)
%!  s = reshape (row (x), 2, [])';
%!  s(:, 1) += 1;
%!  s = reshape (s, [], 2);
%!endfunction

## every string: ids (and spans, decoded text where the fixture has them)
## equal to the reference's; returns the counts that agree
%!function [nid, nspan, ntext] = agree (tok, strings, ids, spans, texts)
%!  nid = nspan = ntext = 0;
%!  for k = 1:numel (strings)
%!    [got, ~, sp] = attn_tokenize (tok, strings{k});
%!    want = row (ids{k}) + 1;
%!    assert (isequal (got, want), sprintf ("ids of string %d: \"%s\"", k, strings{k}));
%!    nid += 1;
%!    if (k <= numel (spans))
%!      assert (isequal (sp, spans_of (spans{k})), sprintf ("spans of string %d: \"%s\"", k, strings{k}));
%!      nspan += 1;
%!    endif
%!    if (k <= numel (texts))
%!      assert (strcmp (attn_detokenize (tok, want), texts{k}), sprintf ("text of string %d", k));
%!      ntext += 1;
%!    endif
%!  endfor
%!endfunction

%!shared strings
%! strings = json ("strings.json");
%! assert (numel (strings), 300);

## byte-level BPE: vocab.json + merges.txt and tokenizer.json
%!test
%! ex = json ("expected_bpe.json");
%! for src = {fullfile(here (), "gpt2-small"), ...
%!            {fullfile(here (), "gpt2-small", "merges.txt"), fullfile(here (), "gpt2-small", "vocab.json")}}
%!   tok = attn_tokenizer (src{1});
%!   assert (tok.kind, "bpe");
%!   assert (agree (tok, strings, ex.ids, {}, {}), 300);
%! endfor

## BPE pieces tile the text: spans follow one another, each piece's bytes
## are its span's, and the ids decode to the text byte for byte
%!test
%! tok = attn_tokenizer (fullfile (here (), "gpt2-small"));
%! for k = 1:numel (strings)
%!   s = strings{k};
%!   [ids, pieces, spans] = attn_tokenize (tok, s);
%!   assert (attn_detokenize (tok, ids), s);
%!   if (! isempty (s))
%!     assert (spans(:, 1)', [1, spans(1:end-1, 2)' + 1]);
%!     assert (spans(end, 2), numel (s));
%!   endif
%!   whole = find (cellfun (@(p) isempty (strfind (p, "<0x")), pieces));
%!   source = arrayfun (@(j) s(spans(j, 1):spans(j, 2)), whole, "uniformoutput", false);
%!   assert (isequal (pieces(whole), source), sprintf ("pieces of string %d", k));
%! endfor

## readable pieces: "Ġ" is a space, part of a character is <0xNN>
%!test
%! tok = attn_tokenizer (fullfile (here (), "gpt2-small"));
%! [~, pieces] = attn_tokenize (tok, " the \xF0\x9F\x98\x80");
%! assert (pieces, {" the", " ", "<0xF0>", "<0x9F>", "<0x98>", "<0x80>"});

## WordPiece: vocab.txt and tokenizer.json, with spans and decoding
%!test
%! ex = json ("expected_wordpiece.json");
%! for src = {fullfile(here (), "bert-small"), fullfile(here (), "bert-small", "vocab.txt")}
%!   tok = attn_tokenizer (src{1});
%!   assert (tok.kind, "wordpiece");
%!   [nid, nspan, ntext] = agree (tok, strings, ex.ids, ex.spans, ex.text);
%!   assert ([nid, nspan, ntext], [300 300 300]);
%! endfor

## a cased vocab.txt keeps case and accents
%!test
%! tok = attn_tokenizer (fullfile (here (), "bert-small", "vocab.txt"), "lowercase", false);
%! [ids, pieces] = attn_tokenize (tok, "the The");
%! assert (pieces, {"the", "[UNK]"});

## a folder with vocab.txt only: tokenizer_config.json's do_lower_case
## decides (a cased NER tagger's folder), the option overrides it
%!test
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   copyfile (fullfile (here (), "bert-small", "vocab.txt"), d);
%!   tok = attn_tokenizer (d);
%!   assert (tok.lowercase, true);
%!   fid = fopen (fullfile (d, "tokenizer_config.json"), "w");
%!   fputs (fid, "{\"do_lower_case\": false, \"model_max_length\": 512, \"name_or_path\": null}");
%!   fclose (fid);
%!   tok = attn_tokenizer (d);
%!   [~, pieces] = attn_tokenize (tok, "the The");
%!   assert (pieces, {"the", "[UNK]"});
%!   assert (attn_tokenizer (d, "lowercase", true).lowercase, true);
%!   fid = fopen (fullfile (d, "tokenizer_config.json"), "w");
%!   fputs (fid, "{\"do_lower_case\": \"no\"}");
%!   fclose (fid);
%!   try
%!     attn_tokenizer (d);
%!     error ("test:accepted", "a do_lower_case of text was accepted");
%!   catch err
%!     assert (err.identifier, "attention:file");
%!     assert (! isempty (strfind (err.message, "do_lower_case must be true or false")), err.message);
%!   end_try_catch
%!   assert (attn_tokenizer (d, "lowercase", false).lowercase, false);
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (d, "s");
%! end_unwind_protect

## SentencePiece unigram: the model's ids, Marian's vocab.json ids, spans
## and decoded text; target.spm has compiled normalisation rules and byte
## fallback
%!test
%! ex = json ("expected_unigram.json");
%! for side = {"source", "target"}
%!   e = ex.(side{1});
%!   tok = attn_tokenizer (fullfile (here (), "marian-small", [side{1} ".spm"]));
%!   assert (tok.kind, "unigram");
%!   [nid, nspan, ntext] = agree (tok, strings, e.ids, e.spans, e.text);
%!   assert ([nid, nspan, ntext], [300 120 300]);
%! endfor
%! marian = attn_tokenizer (fullfile (here (), "marian-small"));
%! assert (agree (marian, strings(1:120), ex.source.marian, {}, {}), 120);
%! assert (marian.pieces{1}, "</s>");

## Marian's ids decode as the model's
%!test
%! marian = attn_tokenizer (fullfile (here (), "marian-small"), "side", "target");
%! model = attn_tokenizer (fullfile (here (), "marian-small", "target.spm"));
%! [ids, pieces] = attn_tokenize (marian, "the black cat");
%! [mids, mpieces] = attn_tokenize (model, "the black cat");
%! assert (pieces, mpieces);
%! assert (attn_detokenize (marian, ids), attn_detokenize (model, mids));

## a folder of the files given as name, text, ...
%!function d = scratch (files)
%!  d = tempname ();
%!  mkdir (d);
%!  for k = 1:2:numel (files)
%!    fid = fopen (fullfile (d, files{k}), "w");
%!    fwrite (fid, files{k+1});
%!    fclose (fid);
%!  endfor
%!endfunction

## SentencePiece BPE (Llama's tokenizer.model): ids, spans and decoded
## text of python3-sentencepiece
%!test
%! ex = json ("expected_spbpe.json");
%! tok = attn_tokenizer (fullfile (here (), "llama-small", "tokenizer.model"));
%! assert (tok.kind, "spbpe");
%! [nid, nspan, ntext] = agree (tok, strings, ex.ids, ex.spans, ex.text);
%! assert ([nid, nspan, ntext], [300 300 300]);

## the same tokenizer in tokenizer.json: TinyLlama's layout (Prepend and
## Replace, decoder Replace, ByteFallback, Fuse, Strip), a Metaspace
## pre-tokenizer that does not split, and the older one that splits at
## every "▁"; Hugging Face tokenizers' ids, spans and text
%!test
%! ex = json ("expected_spbpe_hf.json");
%! files = {"tokenizer", "tokenizer.json"; "metaspace", "metaspace.json";
%!          "metaspace_split", "metaspace-split.json"};
%! for k = 1:rows (files)
%!   e = ex.(files{k, 1});
%!   tok = attn_tokenizer (fullfile (here (), "llama-small", files{k, 2}));
%!   assert (tok.kind, "spbpe");
%!   [nid, nspan, ntext] = agree (tok, strings, e.ids, e.spans, e.text);
%!   assert ([nid, nspan, ntext], [300 300 300]);
%! endfor

## a folder with tokenizer.model alone reads it; readable pieces: "▁" for
## a space, byte pieces as <0xNN>, each byte piece of a character but the
## last with an empty span
%!test
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   copyfile (fullfile (here (), "llama-small", "tokenizer.model"), d);
%!   tok = attn_tokenizer (d);
%!   [ids, pieces, spans] = attn_tokenize (tok, "the \xF0\x9F\x98\xBA");
%!   assert (pieces, {"\xE2\x96\x81the", "\xE2\x96\x81", "<0xF0>", "<0x9F>", "<0x98>", "<0xBA>"});
%!   assert (spans, [1 3; 4 4; 5 4; 5 4; 5 4; 5 8]);
%!   assert (attn_detokenize (tok, ids), "the \xF0\x9F\x98\xBA");
%!   assert (tok.pieces{tok.unk}, "<unk>");
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (d, "s");
%! end_unwind_protect

## SmolLM's byte-level BPE: Digits (each digit, or each run with
## individual_digits false) before ByteLevel; Hugging Face tokenizers' ids
%!test
%! ex = json ("expected_smollm.json");
%! file = fullfile (here (), "smollm-small", "tokenizer.json");
%! tok = attn_tokenizer (file);
%! assert (tok.kind, "bpe");
%! assert (agree (tok, strings, ex.digits, {}, {}), 300);
%! d = scratch ({"tokenizer.json", strrep(fileread (file), "\"individual_digits\":true", "\"individual_digits\":false")});
%! unwind_protect
%!   assert (agree (attn_tokenizer (d), strings, ex.runs, {}, {}), 300);
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (d, "s");
%! end_unwind_protect

## malformed files: attention:file errors that name the file
%!function refused (files, pattern)
%!  d = scratch (files);
%!  unwind_protect
%!    try
%!      attn_tokenizer (d);
%!      error ("no error for %s", pattern);
%!    catch err
%!      assert (err.identifier, "attention:file");
%!      assert (! isempty (regexp (err.message, pattern, "once")), err.message);
%!    end_try_catch
%!  unwind_protect_cleanup
%!    confirm_recursive_rmdir (false, "local");
%!    rmdir (d, "s");
%!  end_unwind_protect
%!endfunction

%!test
%! bytes = num2cell (char (33:126));
%! vocab = @(extra) ["{" strjoin(cellfun (@(c, k) sprintf ("\"%s\": %d", strrep (strrep (c, "\\", "\\\\"), "\"", "\\\""), k), ...
%!                                      bytes, num2cell (0:93), "uniformoutput", false), ", ") extra "}"];
%! refused ({"vocab.json", "{\"a\": 0", "merges.txt", ""}, "vocab.json.*not valid JSON");
%! refused ({"vocab.json", "{\"a\": 0, \"b\": 0}", "merges.txt", ""}, "ids of the vocabulary");
%! refused ({"vocab.json", vocab(""), "merges.txt", ""}, "lacks the byte-level token of byte 0");
%! refused ({"vocab.json", vocab(""), "merges.txt", "a b\n"}, "merge 1 joins tokens that are not all in");
%! refused ({"vocab.json", "{\"a\": 0}", "merges.txt", "a\n"}, "merges.txt: line \"a\" is not two tokens");
%! refused ({"tokenizer.json", "{\"model\": {\"type\": \"WordLevel\"}}"}, "tokenizer.json: model type \"WordLevel\"");
%! refused ({"tokenizer.json", "[1, 2]"}, "tokenizer.json: no \"model\"");
%! llama = fileread (fullfile (here (), "llama-small", "tokenizer.json"));
%! smol = fileread (fullfile (here (), "smollm-small", "tokenizer.json"));
%! refused ({"tokenizer.json", strrep(llama, "\"Prepend\"", "\"Lowercase\"")}, "tokenizer.json: normalizer: only Prepend");
%! refused ({"tokenizer.json", strrep(llama, "\"Fuse\"", "\"CTC\"")}, "tokenizer.json: decoder: only Metaspace");
%! refused ({"tokenizer.json", strrep(llama, "\"dropout\": null", "\"dropout\": 0.1")}, "tokenizer.json: model.dropout");
%! refused ({"tokenizer.json", strrep(llama, "\"<0x41>\"", "\"<0x41 >\"")}, "tokenizer.json: model.byte_fallback without the 256 byte tokens");
%! refused ({"tokenizer.json", strrep(smol, "\"Digits\"", "\"Punctuation\"")}, "tokenizer.json: pre_tokenizer: Punctuation before ByteLevel");
%! refused ({"tokenizer.json", strrep(smol, "\"ByteLevel\"", "\"Whitespace\"")}, "tokenizer.json: pre_tokenizer: only Metaspace");
%! refused ({"vocab.txt", "[PAD]\nthe\n"}, "no unknown token");
%! refused ({"source.spm", "\x0A\x05<unk>"}, "source.spm: not a SentencePiece model");
%! refused ({"source.spm", "\x12\x02\x18\x03"}, "not a unigram or BPE model");
%! refused ({"x.txt", ""}, "holds none of");

%!error <is not a file> attn_tokenizer ({"no/such/vocab.json", "no/such/merges.txt"})
%!error id=attention:type attn_tokenizer (3)
%!error id=attention:option attn_tokenizer (".", "side", "left")
%!error id=attention:nargin attn_tokenizer ()
