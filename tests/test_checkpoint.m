## attn_checkpoint on checkpoints in the layout Hugging Face publishes:
## tests/fixtures/checkpoint holds tiny safetensors files of every dtype
## (a single file and a two-shard set with its index) and expected.txt, the
## doubles each tensor must read as, computed by Python's struct unpacking
## (make_fixtures.py, run once; the tests read only the files).  Hostile
## files are crafted here byte by byte: each is an attention:file error.

%!function d = here (name)
%!  d = fullfile (fileparts (which ("run_tests")), "fixtures", "checkpoint", name);
%!endfunction

## expected.txt: a struct array (folder, name, dtype, dims, values)
%!function e = expected ()
%!  lines = strsplit (fileread (here ("expected.txt")), "\n");
%!  lines = lines(! strncmp (lines, "#", 1) & ! cellfun ("isempty", lines));
%!  e = struct ("folder", {}, "name", {}, "dtype", {}, "dims", {}, "values", {});
%!  for k = 1:numel (lines)
%!    f = strsplit (lines{k}, "\t", "CollapseDelimiters", false);
%!    dims = str2double (strsplit (f{4}, ","));
%!    values = str2double (strsplit (f{5}, " "));
%!    e(k) = struct ("folder", f{1}, "name", f{2}, "dtype", f{3},
%!                   "dims", {reshape(dims(! isnan (dims)), 1, [])}, "values", {values(! cellfun ("isempty", strsplit (f{5}, " ")))});
%!  endfor
%!endfunction

## the row-major values v of a tensor of shape dims as Octave holds it:
## element (i1, ..., ik) is v(((i1-1)*d2 + i2-1)*d3 + ... + 1)
%!function X = octave_layout (v, dims)
%!  shape = [ones(1, 2 - min (numel (dims), 2)), dims];
%!  X = zeros (shape);
%!  n = numel (X);
%!  s = cell (1, numel (shape));
%!  [s{:}] = ind2sub (shape, 1:n);
%!  at = zeros (1, n);
%!  for j = 1:numel (shape)
%!    at = at * shape(j) + s{j} - 1;
%!  endfor
%!  X(1:n) = v(at + 1);
%!endfunction

## a safetensors file: entries rows {name, dtype, shape, [begin end]},
## data bytes, the length field N (that of the header unless given)
%!function write_st (f, entries, data, N)
%!  parts = {"\"__metadata__\":{\"format\":\"pt\"}"};
%!  list = @(x) strjoin (arrayfun (@(v) sprintf ("%d", v), x, "UniformOutput", false), ",");
%!  for i = 1:rows (entries)
%!    parts{end+1} = sprintf ("\"%s\":{\"dtype\":\"%s\",\"shape\":[%s],\"data_offsets\":[%s]}",
%!                            entries{i,1}, entries{i,2}, list (entries{i,3}), list (entries{i,4}));
%!  endfor
%!  h = ["{" strjoin(parts, ",") "}"];
%!  if (nargin < 4)
%!    N = numel (h);
%!  endif
%!  fid = fopen (f, "w");
%!  fwrite (fid, N, "uint64", 0, "ieee-le");
%!  fwrite (fid, h, "uchar");
%!  fwrite (fid, data, "uint8");
%!  fclose (fid);
%!endfunction

## a text file
%!function put (f, text)
%!  fid = fopen (f, "w");
%!  fwrite (fid, text, "uchar");
%!  fclose (fid);
%!endfunction

## attn_checkpoint (varargin{:}) must fail with identifier id and a message
## matching pattern
%!function refused (id, pattern, varargin)
%!  try
%!    attn_checkpoint (varargin{:});
%!    error ("test:accepted", "attn_checkpoint accepted what should be refused (%s)", pattern);
%!  catch err
%!    assert (err.identifier, id, err.message);
%!    assert (! isempty (regexp (err.message, pattern, "once")),
%!            sprintf ("message \"%s\" does not match \"%s\"", err.message, pattern));
%!  end_try_catch
%!endfunction

%!test
%! ## every tensor of both fixtures: names in file order, dtypes, shapes and
%! ## values exactly as Python's struct reads them (NaN, -0 and Inf included)
%! e = expected ();
%! for folder = {"single", "sharded"}
%!   ck = attn_checkpoint (here (folder{1}));
%!   mine = e(strcmp ({e.folder}, folder{1}));
%!   assert (ck.names, {mine.name}');
%!   assert (ck.dtypes, {mine.dtype}');
%!   for k = 1:numel (mine)
%!     assert (isequal (ck.shapes{k}, mine(k).dims), mine(k).name);
%!     X = attn_checkpoint (ck, mine(k).name);
%!     want = octave_layout (mine(k).values, mine(k).dims);
%!     assert (class (X), "double");
%!     assert (isequal (size (X), size (want)), mine(k).name);
%!     assert (isequaln (X, want), mine(k).name);
%!     assert (isequal (signbit (X), signbit (want)), mine(k).name);
%!   endfor
%! endfor
%! assert (numel (e), 28);

%!test
%! ## the special values by hand: half floats and bfloat16
%! ck = attn_checkpoint (here ("single"));
%! h = attn_checkpoint (ck, "halfs");
%! assert (h(1,:), [1 -2 65504 2^-14 2^-24 1023*2^-24 -3*2^-24 0]);
%! assert (h(2,[1:3 5:8]), [0 Inf -Inf 1638*2^-14 -5460*2^-14 1000.5 3.140625]);
%! assert (signbit (h(2,1)) && ! signbit (h(1,8)));
%! assert (isnan (h(2,4)));
%! b = attn_checkpoint (ck, "bf16s");
%! assert (b([1 2 6 8]), [1, -0.099609375, Inf, 12288]);
%! assert (isnan (b(7)));
%! assert (attn_checkpoint (ck, "position_ids"), [0 1 2 3 2^53]);
%! assert (attn_checkpoint (ck, "bool"), [1 0 0; 1 1 0]);
%! assert (squeeze (attn_checkpoint (ck, "transformer.h.0.attn.bias")), [1 0 0; 1 1 0; 1 1 1]);
%! assert (size (attn_checkpoint (ck, "transformer.h.0.attn.bias")), [1 1 3 3]);
%! assert (attn_checkpoint (ck, "scalar"), 2.5);
%! assert (size (attn_checkpoint (ck, "empty")), [0 3]);
%! assert (size (attn_checkpoint (ck, "transformer.h.0.ln_1.weight")), [1 4]);

%!test
%! ## every one of the 65,536 F16 and BF16 patterns against the formats'
%! ## definitions: sign, exponent (5 bits, bias 15 / 8 bits, bias 127),
%! ## fraction (10 / 7 bits); exponent 0 subnormal, all ones Inf or NaN
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   bits = 0:65535;
%!   write_st (fullfile (d, "model.safetensors"), {"h", "F16", [65536], [0 131072]; "b", "BF16", [65536], [131072 262144]},
%!             typecast (uint16 ([bits bits]), "uint8"));
%!   ck = attn_checkpoint (d);
%!   for kind = {"h", 5, 10; "b", 8, 7}'
%!     [name, ebits, fbits] = kind{:};
%!     top = 2^ebits - 1;
%!     bias = 2^(ebits - 1) - 1;
%!     s = floor (bits / 2^15);
%!     e = mod (floor (bits / 2^fbits), 2^ebits);
%!     f = mod (bits, 2^fbits);
%!     want = (1 + f / 2^fbits) .* 2 .^ (e - bias);
%!     want(e == 0) = f(e == 0) / 2^fbits * 2^(1 - bias);
%!     want(e == top & f == 0) = Inf;
%!     want(e == top & f > 0) = NaN;
%!     want(s == 1) = -want(s == 1);
%!     got = attn_checkpoint (ck, name);
%!     assert (isequaln (got, want), name);
%!     assert (isequal (signbit (got(! isnan (want))), s(! isnan (want)) == 1), name);
%!   endfor
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (d, "s");
%! end_unwind_protect

%!test
%! ## config.json and the metadata, as data (null is [], lists of lists kept)
%! ck = attn_checkpoint (here ("single"));
%! assert (ck.config.model_type, "gpt2");
%! assert (ck.config.n_embd, 4);
%! assert (ck.config.layer_norm_epsilon, 1e-5);
%! assert (ck.config.architectures, {"GPT2LMHeadModel"});
%! assert (ck.metadata, struct ("format", "pt"));
%! assert (ck.files, {here(fullfile ("single", "model.safetensors"))});
%! ck = attn_checkpoint (here ("sharded"));
%! assert (ck.config.model_type, "bert");
%! assert (ck.config.id2label.("1"), "B-PER");
%! assert (isempty (ck.config.torch_dtype));
%! assert (ck.config.bad_words_ids, 5);
%! assert (numel (ck.files), 2);
%! assert (ck.shard', [1 1 1 2 2 2 2]);

%!test
%! ## one safetensors file opens by itself, without a config
%! one = attn_checkpoint (here (fullfile ("single", "model.safetensors")));
%! all = attn_checkpoint (here ("single"));
%! assert (one.names, all.names);
%! assert (one.config, struct ());
%! assert (attn_checkpoint (one, "f64"), attn_checkpoint (all, "f64"));

%!test
%! ## names of an upload and of a re-save: prefixes, gamma/beta
%! ck = attn_checkpoint (here ("single"));
%! assert (attn_checkpoint (ck, "wte.weight"), attn_checkpoint (ck, "transformer.wte.weight"));
%! assert (attn_checkpoint (ck, "model.wte.weight", "name"), "transformer.wte.weight");
%! assert (attn_checkpoint (ck, "h.0.ln_1.gamma", "name"), "transformer.h.0.ln_1.weight");
%! assert (attn_checkpoint (ck, "h.0.ln_1.beta", "name"), "transformer.h.0.ln_1.bias");
%! ck = attn_checkpoint (here ("sharded"));
%! assert (attn_checkpoint (ck, "embeddings.LayerNorm.weight"),
%!         attn_checkpoint (ck, "bert.embeddings.LayerNorm.gamma"));
%! assert (attn_checkpoint (ck, "bert.embeddings.LayerNorm.bias", "name"), "bert.embeddings.LayerNorm.beta");
%! assert (attn_checkpoint (ck, "model.cls.predictions.transform.LayerNorm.weight", "name"),
%!         "cls.predictions.transform.LayerNorm.gamma");
%! assert (attn_checkpoint (ck, "encoder.layer.0.attention.self.query.bias", "name"),
%!         "bert.encoder.layer.0.attention.self.query.bias");
%! assert (attn_checkpoint (ck, "pooler.dense.weight", "name"), "");
%! refused ("attention:checkpoint", "sharded\" has no tensor \"pooler.dense.weight\"", ck, "pooler.dense.weight");
%! refused ("attention:option", "may only be \"name\"", ck, "x", "nme");
%! refused ("attention:type", "NAME must be", ck, 3);

%!test
%! ## two other names of one name: refused, naming both
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   write_st (fullfile (d, "model.safetensors"),
%!             {"model.x", "F32", [1], [0 4]; "transformer.x", "F32", [1], [4 8]}, zeros (1, 8));
%!   ck = attn_checkpoint (d);
%!   assert (ck.config, struct ());
%!   refused ("attention:checkpoint", "several .*\"model.x\", \"transformer.x\"", ck, "x");
%!   assert (attn_checkpoint (ck, "model.x"), 0);
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (d, "s");
%! end_unwind_protect

%!test
%! ## lazy: a file of 1 TiB (sparse: made by truncate, which the system has)
%! ## opens from its header; one small tensor is read by its bytes; the
%! ## large one would not fit in memory and is refused before any is read
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   f = fullfile (d, "model.safetensors");
%!   big = 2^40;
%!   write_st (f, {"small", "F32", [2], [0 8]; "big", "F64", [2^20, 2^17], [8, 8 + big]},
%!             typecast (single ([3 -4]), "uint8"));
%!   s = stat (f);
%!   [status, out] = system (sprintf ("truncate -s %d '%s'", s.size + big, f));
%!   if (status == 0)
%!     tic;
%!     ck = attn_checkpoint (d);
%!     assert (attn_checkpoint (ck, "small"), [3 -4]);
%!     assert (ck.shapes{2}, [2^20 2^17]);
%!     refused ("attention:toolarge", "would hold 1.374e\\+11 numbers", ck, "big");
%!     assert (toc < 1);
%!   endif
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (d, "s");
%! end_unwind_protect

%!test
%! ## hostile files: each an attention:file error that says what is wrong,
%! ## and the JSON of config.json is never evaluated
%! d = tempname ();
%! mkdir (d);
%! marker = [tempname() "_ran"];
%! f = fullfile (d, "model.safetensors");
%! ok = {"a", "F32", [2 3], [0 24]; "b", "F16", [4], [24 32]};
%! unwind_protect
%!   write_st (f, ok, zeros (1, 32));
%!   put (fullfile (d, "config.json"), sprintf ("{\"model_type\": \"system('touch %s')\"}", marker));
%!   ck = attn_checkpoint (d);
%!   assert (ck.config.model_type, sprintf ("system('touch %s')", marker));
%!   assert (! exist (marker, "file"));
%!   write_st (f, ok, zeros (1, 32), 1e6);
%!   refused ("attention:file", "declare a header of 1000000 bytes", d);
%!   write_st (f, {"a", "F32", [2 3], [0 24]; "b", "F16", [4], [20 28]}, zeros (1, 28));
%!   refused ("attention:file", "\"a\" and \"b\" overlap", d);
%!   write_st (f, {"a", "F32", [2 3], [0 24]; "b", "F16", [4], [24 32]}, zeros (1, 30));
%!   refused ("attention:file", "cut short: array \"b\" ends at data byte 32", d);
%!   write_st (f, {"a", "F32", [2 4], [0 24]; "b", "F16", [4], [24 32]}, zeros (1, 32));
%!   refused ("attention:file", "array \"a\": its shape \\[2, 4\\] needs 32 bytes, its data_offsets give 24", d);
%!   write_st (f, {"a", "F8_E4M3", [2 3], [0 6]}, zeros (1, 6));
%!   refused ("attention:file", "array \"a\" has the dtype \"F8_E4M3\"; only F64, F32, F16, BF16", d);
%!   write_st (f, {"a", "F32", [2 3], [0 24]; "b", "F16", [4], [28 36]}, zeros (1, 36));
%!   refused ("attention:file", "data bytes 24 to 28 belong to no array", d);
%!   delete (fullfile (d, "config.json"));
%!   symlink ("/dev/zero", fullfile (d, "config.json"));
%!   refused ("attention:file", "config.json\" is not a regular file", d);
%!   delete (fullfile (d, "config.json"));
%!   put (fullfile (d, "config.json"), "[1, 2]");
%!   write_st (f, ok, zeros (1, 32));
%!   refused ("attention:file", "config.json must hold a JSON object", d);
%!   put (fullfile (d, "config.json"), "{\"a\": 1, \"a\": 2}");
%!   refused ("attention:file", "config.json names \"a\" twice", d);
%!   delete (fullfile (d, "config.json"));
%!   delete (f);
%!   put (fullfile (d, "pytorch_model.bin"), "PK");
%!   refused ("attention:file", "pytorch_model.bin is a pickle", d);
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (d, "s");
%! end_unwind_protect

%!test
%! ## hostile shard sets
%! d = tempname ();
%! mkdir (d);
%! index = fullfile (d, "model.safetensors.index.json");
%! map = @(pairs) put (index, ["{\"metadata\": {\"total_size\": 16}, \"weight_map\": {" pairs "}}"]);
%! unwind_protect
%!   write_st (fullfile (d, "s1.safetensors"), {"a", "F32", [2], [0 8]}, zeros (1, 8));
%!   write_st (fullfile (d, "s2.safetensors"), {"b", "F32", [2], [0 8]}, zeros (1, 8));
%!   map ("\"a\": \"s1.safetensors\", \"b\": \"s2.safetensors\"");
%!   ck = attn_checkpoint (d);
%!   assert (ck.names, {"a"; "b"});
%!   assert (ck.offsets(:,2) - ck.offsets(:,1), [8; 8]);
%!   ## a shard may be a symbolic link (the Hugging Face cache links its
%!   ## snapshot's files to blobs elsewhere)
%!   movefile (fullfile (d, "s2.safetensors"), [d "_blob"]);
%!   symlink ([d "_blob"], fullfile (d, "s2.safetensors"));
%!   assert (attn_checkpoint (attn_checkpoint (d), "b"), [0 0]);
%!   ## model.safetensors, when there is one, is read, not the shards
%!   write_st (fullfile (d, "model.safetensors"), {"c", "F32", [1], [0 4]}, zeros (1, 4));
%!   assert (attn_checkpoint (d).names, {"c"});
%!   delete (fullfile (d, "model.safetensors"));
%!   map ("\"a\": \"s1.safetensors\", \"b\": \"s3.safetensors\"");
%!   refused ("attention:file", "names the shard \"s3.safetensors\", which is not in the folder", d);
%!   map ("\"a\": \"s1.safetensors\", \"b\": \"../s2.safetensors\"");
%!   refused ("attention:file", "names the shard \"../s2.safetensors\", which is no file name in the folder", d);
%!   map ("\"a\": \"s1.safetensors\", \"b\": \"/etc/passwd\"");
%!   refused ("attention:file", "no file name in the folder", d);
%!   map ("\"a\": \"s1.safetensors\", \"b\": \"s1.safetensors\"");
%!   refused ("attention:file", "puts the tensor \"b\" in .*s1.safetensors\", which has no such tensor", d);
%!   map ("\"a\": \"s2.safetensors\", \"b\": \"s1.safetensors\"");
%!   refused ("attention:file", "puts the tensor \"a\" in .*s2.safetensors\"; it is in .*s1.safetensors\"", d);
%!   map ("\"a\": \"s1.safetensors\"");
%!   write_st (fullfile (d, "s1.safetensors"), {"a", "F32", [2], [0 8]; "c", "U8", [1], [8 9]}, zeros (1, 9));
%!   refused ("attention:file", "s1.safetensors\" holds the tensor \"c\", which model.safetensors.index.json does not list", d);
%!   write_st (fullfile (d, "s1.safetensors"), {"a", "F32", [2], [0 8]; "b", "F32", [2], [8 16]}, zeros (1, 16));
%!   map ("\"a\": \"s1.safetensors\", \"b\": \"s2.safetensors\"");
%!   refused ("attention:file", "the tensor \"b\" is in both .*s1.safetensors\" and .*s2.safetensors\"", d);
%!   map ("\"a\": 1");
%!   refused ("attention:file", "\"weight_map\" maps tensor names to file names", d);
%!   put (index, "{\"weight_map\": {\"a\": \"s1.safetensors\"}");
%!   refused ("attention:file", "not valid JSON", d);
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (d, "s");
%!   delete ([d "_blob"]);
%! end_unwind_protect

%!test
%! ## a file changed after it was opened: refused when read
%! d = tempname ();
%! mkdir (d);
%! unwind_protect
%!   f = fullfile (d, "model.safetensors");
%!   write_st (f, {"a", "F32", [2], [0 8]}, zeros (1, 8));
%!   ck = attn_checkpoint (f);
%!   write_st (f, {"a", "F32", [1], [0 4]}, zeros (1, 4));
%!   refused ("attention:file", "shorter than when it was opened", ck, "a");
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (d, "s");
%! end_unwind_protect
