## Model files of attn_save / attn_load:
## - the round trip is bit-exact for every family and option (every double
##   compared by its 64 bits, the config and vocabularies by isequal);
## - numbers that decimal text would round (thirds, a subnormal, -0) and
##   words with quotes, backslashes, control and non-ASCII characters come
##   back exactly;
## - any single header byte changed gives an attention:file error or a
##   model with the very same arrays (the format has no checksum: a changed
##   letter of a word is another valid word), never another error.
## Hostile files: test_files_hostile.m; atomic saving: test_files_atomic.m.

%!function B = bits (m)
%!  ## every double of the model's arrays, as its 64 bits, in field order
%!  B = leaves (rmfield (m, {"config", "src_vocab", "tgt_vocab"}));
%!endfunction

%!function B = leaves (s)
%!  B = zeros (0, 1, "uint64");
%!  for k = 1:numel (s)
%!    for f = fieldnames (s)'
%!      x = s(k).(f{1});
%!      if (isstruct (x))
%!        B = [B; leaves(x)];
%!      else
%!        B = [B; typecast(x(:), "uint64")];
%!      endif
%!    endfor
%!  endfor
%!endfunction

%!function assert_same (got, m)
%!  assert (isequal (got, m));
%!  assert (bits (got), bits (m));
%!  assert (got.config, m.config);
%!endfunction

%!shared f
%! f = [tempname() ".safetensors"];

%!test
%! ## every family and option: attn_model (post, pre, none; sinusoidal),
%! ## attn_toy, attn_family
%! ms = {attn_toy("river"), attn_toy("blackcat")};
%! for norm = {"post", "pre", "none"}
%!   c = struct ("src_vocab", {{"a b c"}}, "tgt_vocab", {{"x y"}}, "d", 4, "heads", 2,
%!               "d_ff", 3, "norm", norm{1}, "encoder_layers", 2, "decoder_layers", 1);
%!   ms{end+1} = attn_model (c);
%! endfor
%! c.positions = "sinusoidal";  c.d_ff = 0;  c.dk = 3;  c.dv = 1;
%! ms{end+1} = attn_model (c);
%! ms{end+1} = attn_family (struct ("family", "decoder-only", "vocab", "a b c", "d", 8,
%!                                  "heads", 2, "layers", 2, "norm", "pre"));
%! ms{end+1} = attn_model (setfield (c, "activation", "gelu"));
%! ms{end+1} = attn_family (struct ("family", "encoder-token", "vocab", "a b c",
%!                                  "classes", {{"P", "Q"}}, "d", 8, "heads", 2, "layers", 1));
%! for r = {"cls", "mean"}
%!   for h = {"linear", "mlp"}
%!     ms{end+1} = attn_family (struct ("family", "encoder-sentence", "vocab", "a b c",
%!                                      "classes", {{"P", "Q", "R"}}, "d", 8, "heads", 2,
%!                                      "layers", 1, "readout", r{1}, "head", h{1}));
%!   endfor
%! endfor
%! for p = {"pooled-add", "pooled-concat", "pooled-prefix"}
%!   ms{end+1} = attn_family (struct ("family", p{1}, "src_vocab", "a b c",
%!                                    "tgt_vocab", "x y", "d", 8, "heads", 2));
%! endfor
%! for i = 1:numel (ms)
%!   attn_save (ms{i}, f);
%!   assert_same (attn_load (f), ms{i});
%! endfor
%! delete (f);

%!test
%! ## numbers 17 significant digits or JSON would round, and odd words
%! m = attn_toy ("river");
%! m.W_vocab(1:9) = [1/3, pi, 2^-1070, -0, 1 - eps, 1e-300, realmax, -realmin, 4.9e-324];
%! m.src_vocab.words(2:5) = {"l'\"eau\\", "caf\xC3\xA9", "tab\tnew\nline", "\xE2\x82\xAC/"};
%! attn_save (m, f);
%! got = attn_load (f);
%! assert_same (got, m);
%! assert (got.src_vocab.words, m.src_vocab.words);
%! assert (1 / got.W_vocab(4), -Inf);        # -0 kept
%! delete (f);

%!test
%! ## every control character but NUL is text JSON escapes: a word holding
%! ## one (1..31, 127) is saved and comes back exactly
%! m = attn_toy ("river");
%! m.src_vocab.words(2:5) = {["a" char(1:8) "b"], ["c" char(11:20) "d"], ...
%!                            ["e" char(21:31) "f"], ["g" char(127) "\r\f\v"]};
%! attn_save (m, f);
%! got = attn_load (f);
%! assert (double (got.src_vocab.words{2}), [97, 1:8, 98]);
%! assert (double (got.src_vocab.words{5}), [103, 127, 13, 12, 11]);
%! assert_same (got, m);
%! delete (f);

%!test
%! ## a word holding a NUL byte: refused at save time (a file cannot hold
%! ## it; it used to be saved cut short, and the file never loaded again);
%! ## the file saved before is untouched
%! m = attn_toy ("river");
%! attn_save (m, f);
%! before = fileread (f);
%! bad = m;
%! bad.tgt_vocab.words{3} = "ri\0ve";
%! try
%!   attn_save (bad, f);
%!   error ("test:saved", "a word with a NUL byte was saved");
%! catch err
%!   assert (err.identifier, "attention:vocab");
%!   assert (regexp (err.message, '^attn_save: .*tgt_vocab.words\{3\} holds a NUL byte', "once"), 1, err.message);
%! end_try_catch
%! assert (strcmp (fileread (f), before));
%! assert_same (attn_load (f), m);
%! delete (f);

%!test
%! ## real sizes: a decoder-only model of 130,000 words (GPT-2 has 50,257,
%! ## Llama 3 128,256) saves and loads exactly; its one vocabulary is stored
%! ## once (tgt_vocab), and the header is beyond the old 1 MiB limit
%! words = ["caf\xC3\xA9 \xE2\x82\xAC na\xC3\xAFve " sprintf("w%d ", 4:130000)];
%! m = attn_family (struct ("family", "decoder-only", "vocab", words, "d", 2, "heads", 1,
%!                          "layers", 1, "d_ff", 0, "max_len", 4));
%! assert (numel (m.tgt_vocab.words), 130004);
%! attn_save (m, f);
%! assert_same (attn_load (f), m);
%! fid = fopen (f, "r");
%! N = fread (fid, 1, "uint64", 0, "ieee-le");
%! header = fread (fid, N, "uint8=>char")';
%! fclose (fid);
%! delete (f);
%! assert (N > 2^20);
%! assert (numel (strfind (header, "w129999")), 1);
%! md = jsondecode (header, "makeValidName", false).("__metadata__");
%! assert (sort (fieldnames (md)), {"config"; "format"; "id_base"; "tgt_vocab"});

%!test
%! ## a decoder-only model whose source vocabulary differs (a model struct
%! ## allows it) keeps both
%! m = attn_family (struct ("family", "decoder-only", "vocab", "a b c", "d", 4, "heads", 2,
%!                          "layers", 1));
%! m.src_vocab = attn_vocab ("x y");
%! attn_save (m, f);
%! got = attn_load (f);
%! delete (f);
%! assert_same (got, m);
%! assert (got.src_vocab.words(end), {"y"});

%!test
%! ## the loaded model works: the toy translates as before
%! m = attn_toy ("river");
%! attn_save (m, f);
%! assert (attn_greedy (attn_load (f), "the river bank"), attn_greedy (m, "the river bank"));
%! delete (f);

%!test
%! ## one header byte changed, anywhere: refused (attention:file) or the
%! ## same arrays
%! rand ("twister", 11);
%! m = attn_toy ("blackcat");
%! attn_save (m, f);
%! fid = fopen (f, "r");  bytes = fread (fid, Inf, "uint8=>uint8");  fclose (fid);
%! N = double (typecast (bytes(1:8), "uint64"));
%! g = [f ".bad"];
%! for at = [1:8, 8 + randperm(N, 120)]
%!   b = bytes;
%!   b(at) = uint8 (mod (double (b(at)) + randi (255), 256));
%!   fid = fopen (g, "w");  fwrite (fid, b);  fclose (fid);
%!   try
%!     got = attn_load (g);
%!     assert (bits (got), bits (m), sprintf ("byte %d changed gives other arrays", at));
%!   catch err
%!     assert (err.identifier, "attention:file", sprintf ("byte %d: %s", at, err.message));
%!   end_try_catch
%! endfor
%! delete (g);
%! delete (f);
