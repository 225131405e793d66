## Hostile and damaged model files: every one is refused by attn_load with
## an attention:file error that says what is wrong, in under a second, and
## no code in it runs (a marker file that the hidden code would create is
## checked after every load).  Files are crafted here byte by byte from a
## model attn_save wrote: its header parsed with jsondecode, changed and
## printed again.

## the metadata (N×2 cell), entries (name, dtype, shape, offsets) and data
## bytes of a safetensors file
%!function [meta, entries, data] = parse_file (f)
%!  fid = fopen (f, "r");
%!  N = fread (fid, 1, "uint64", 0, "ieee-le");
%!  h = jsondecode (fread (fid, N, "uint8=>char")', "makeValidName", false);
%!  data = fread (fid, Inf, "uint8=>uint8");
%!  fclose (fid);
%!  md = h.("__metadata__");
%!  meta = [fieldnames(md), struct2cell(md)];
%!  names = fieldnames (h);
%!  names(strcmp (names, "__metadata__")) = [];
%!  entries = struct ("name", names, "dtype", "F64", "shape", [], "offsets", []);
%!  for i = 1:numel (names)
%!    entries(i).shape = h.(names{i}).shape';
%!    entries(i).offsets = h.(names{i}).data_offsets';
%!  endfor
%!endfunction

## the header text of meta and entries (numbers printed with %.17g)
%!function h = header_of (meta, entries)
%!  items = cellfun (@(k, v) [jsonencode(k) ":" jsonencode(v)], meta(:,1), meta(:,2),
%!                   "UniformOutput", false);
%!  parts = {["\"__metadata__\":{" strjoin(items', ",") "}"]};
%!  for e = entries(:)'
%!    list = @(x) strjoin (arrayfun (@(v) sprintf ("%.17g", v), x, "UniformOutput", false), ",");
%!    parts{end+1} = sprintf ("%s:{\"dtype\":%s,\"shape\":[%s],\"data_offsets\":[%s]}",
%!                            jsonencode (e.name), jsonencode (e.dtype), list (e.shape), list (e.offsets));
%!  endfor
%!  h = ["{" strjoin(parts, ",") "}"];
%!endfunction

## write a safetensors file: 8-byte length N (given, or that of header)
%!function write_file (f, header, data, N)
%!  if (nargin < 4)
%!    N = numel (header);
%!  endif
%!  fid = fopen (f, "w");
%!  fwrite (fid, N, "uint64", 0, "ieee-le");
%!  fwrite (fid, header, "uchar");
%!  fwrite (fid, data, "uint8");
%!  fclose (fid);
%!endfunction

## attn_load (f) must fail with attention:file matching pattern, in under
## a second, with no code run
%!function refused (f, marker, pattern)
%!  tic;
%!  try
%!    attn_load (f);
%!    error ("test:loaded", "attn_load accepted a file that should be refused (%s)", pattern);
%!  catch err
%!    t = toc;
%!    if (! strcmp (err.identifier, "attention:file"))
%!      error ("%s: %s", err.identifier, err.message);
%!    endif
%!    assert (! isempty (regexp (err.message, pattern, "once")),
%!            sprintf ("message \"%s\" does not match \"%s\"", err.message, pattern));
%!  end_try_catch
%!  assert (t < 1, sprintf ("refused after %.2f s", t));
%!  assert (! exist (marker, "file"), "code in the file ran");
%!endfunction

## the metadata with key set to value
%!function meta = with (meta, key, value)
%!  meta{strcmp (meta(:,1), key), 2} = value;
%!endfunction

## code that, if ever evaluated, leaves the marker
%!function c = code (marker)
%!  c = sprintf ("system ('touch %s')", marker);
%!endfunction

%!shared m, f, marker, meta, entries, data
%! m = attn_toy ("river");
%! f = [tempname() ".safetensors"];
%! marker = [tempname() "_code_ran"];
%! attn_save (m, f);
%! [meta, entries, data] = parse_file (f);

%!test
%! ## the crafting helpers reproduce a file attn_load accepts
%! g = [f ".copy"];
%! write_file (g, header_of (meta, entries), data);
%! assert (isequal (attn_load (g), m));
%! ## a header padded with spaces, metadata last, arrays in another order
%! h = header_of (meta, entries(end:-1:1));
%! k = strfind (h, ",\"src_embed\"");
%! write_file (g, [h repmat(" ", 1, 13)], data);
%! assert (isequal (attn_load (g), m));
%! delete (g);

%!test
%! ## Octave text files (function handles, every spelling of the type line)
%! ## renamed to .safetensors: refused before anything is read as Octave data
%! s.hook = eval (["@() " code(marker)]);
%! s.x = 1;
%! save ("-text", f, "-struct", "s");
%! refused (f, marker, "Octave's text format");
%! txt = fileread (f);
%! for spelling = {"#-type: function handle", "#\vtype: function handle", "%type: function handle"}
%!   t = regexprep (txt, '# type: function handle', spelling{1});
%!   fid = fopen (f, "w");  fwrite (fid, t(20:end));  fclose (fid);   # without the first line
%!   refused (f, marker, "header of .* bytes");
%! endfor
%! save ("-binary", f, "-struct", "s");
%! refused (f, marker, "Octave's binary format");
%! save ("-text", "-zip", f, "-struct", "s");
%! refused (f, marker, "gzip");

%!test
%! ## the earlier model file format: refused, with how to convert it
%! attention_format = "attention-model 1";
%! attention_model = m;
%! attention_model.config.hook = eval (["@() " code(marker)]);
%! save ("-text", f, "attention_format", "attention_model");
%! refused (f, marker, "earlier text format.*convert it once.*Never do this with a file from someone else");

%!test
%! ## metadata that looks like code: refused where it is no allowed value,
%! ## plain text where it is (a word), never run
%! c = jsondecode (meta{strcmp (meta(:,1), "config"), 2});
%! bad = c;  bad.family = code (marker);
%! write_file (f, header_of (with (meta, "config", jsonencode (bad)), entries), data);
%! refused (f, marker, "CONFIG.family must be one of");
%! bad = c;  bad.hook = ["@() " code(marker)];
%! write_file (f, header_of (with (meta, "config", jsonencode (bad)), entries), data);
%! refused (f, marker, "unknown CONFIG field \"hook\"");
%! write_file (f, header_of ([meta; {"__init__", code(marker)}], entries), data);
%! refused (f, marker, "__metadata__ must hold format, config, tgt_vocab and may hold id_base, src_vocab; it holds");
%! write_file (f, header_of (with (meta, "format", code (marker)), entries), data);
%! refused (f, marker, "no format \"attention-model 1\"");
%! v = jsondecode (meta{strcmp (meta(:,1), "src_vocab"), 2});
%! v.words{2} = code (marker);
%! v.words{3} = "#type: function handle";
%! write_file (f, header_of (with (meta, "src_vocab", jsonencode (v)), entries), data);
%! got = attn_load (f);
%! assert (got.src_vocab.words{2}, code (marker));
%! assert (! exist (marker, "file"));

%!test
%! ## declared sizes: a 6 KB file declaring a 25000×25000 array, absurd
%! ## header lengths, offsets beyond the file
%! e = entries;
%! e(1).shape = [25000 25000];
%! e(1).offsets = [0 8 * 25000^2];
%! write_file (f, header_of (meta, e), data);
%! refused (f, marker, "overlap|belong to no array|cut short");
%! e = entries;
%! e(1).shape = [25000 25000];
%! write_file (f, header_of (meta, e), data);
%! refused (f, marker, "shape \\[25000, 25000\\] needs 5000000000 bytes");
%! e = entries;
%! e(end).offsets(2) += 8e9;
%! write_file (f, header_of (meta, e), data);
%! refused (f, marker, "b_vocab");
%! for N = [2^40, 2^63, 1e19]
%!   write_file (f, header_of (meta, entries), data, N);
%!   refused (f, marker, "declare a header of");
%! endfor
%! h = header_of (meta, entries);
%! write_file (f, h, data, numel (h) + numel (data) + 1);
%! refused (f, marker, "declare a header of");
%! ## the limit is the safetensors reference implementation's, 100,000,000
%! ## bytes: a file long enough for a header one byte longer is refused
%! ## before that header is read (the file is sparse)
%! write_file (f, h, data, 100000001);
%! assert (system (sprintf ("truncate -s 100000100 '%s'", f)), 0);
%! refused (f, marker, "declare a header of 100000001 bytes, the file holds 100000092 bytes after them \\(and a header may have at most 100000000\\)");
%! e = entries;
%! e(3).shape = [1e300 1e300];
%! write_file (f, header_of (meta, e), data);
%! refused (f, marker, "shape|data_offsets");

%!test
%! ## offsets that overlap, leave a gap or leave bytes over; a missing array
%! e = entries;
%! q = strcmp ({e.name}, "encoder.1.self.W_Q");
%! e(strcmp ({e.name}, "encoder.1.self.W_K")).offsets = e(q).offsets;
%! write_file (f, header_of (meta, e), data);
%! refused (f, marker, "arrays \"encoder.1.self.W_[QK]\" and \"encoder.1.self.W_[QK]\" overlap");
%! e = entries([1, 3:end]);
%! write_file (f, header_of (meta, e), data);
%! refused (f, marker, "belong to no array");
%! write_file (f, header_of (meta, entries), [data; zeros(8, 1, "uint8")]);
%! refused (f, marker, "8 bytes after the last array");
%! write_file (f, header_of (meta, entries), data(1:end-8));
%! refused (f, marker, "cut short");
%! e = entries(1:end-1);
%! write_file (f, header_of (meta, e), data(1:e(end).offsets(2)));
%! refused (f, marker, "has an array \"b_vocab\"; the file has none");
%! e = entries;
%! e(end).name = "b_extra";
%! write_file (f, header_of (meta, e), data);
%! refused (f, marker, "the file has an array \"b_extra\"|has an array \"b_vocab\"");

%!test
%! ## text that is no JSON, no UTF-8, too deep, with NUL or NaN, keys twice
%! h = header_of (meta, entries);
%! write_file (f, h(1:end-1), data);
%! refused (f, marker, "not valid JSON");
%! write_file (f, strrep (h, "river", "riv\xFF\xFEr"), data);
%! refused (f, marker, "not UTF-8");
%! write_file (f, [repmat("[", 1, 1e5) repmat("]", 1, 1e5)], data);
%! refused (f, marker, "JSON object");
%! write_file (f, ["{\"x\":" repmat("[", 1, 1e5) repmat("]", 1, 1e5) "}"], data);
%! refused (f, marker, "nested more than 8 levels");
%! write_file (f, strrep (h, "\"src_embed\"", "\"src_embed\\u0000x\""), data);
%! refused (f, marker, "NUL");
%! e = entries;
%! write_file (f, strrep (h, sprintf ("\"shape\":[%d,%d]", e(1).shape), "\"shape\":[NaN,3]"), data);
%! refused (f, marker, "array \"src_embed\" has a shape that is no list of at most 8 non-negative integers");
%! write_file (f, header_of (meta, [entries; entries(1)]), data);
%! refused (f, marker, "names \"src_embed\" twice");
%! write_file (f, strrep (h, "{\"format\"", "{\"config\":\"{}\",\"format\""), data);
%! refused (f, marker, "names \"config\" twice");
%! c = meta{strcmp (meta(:,1), "config"), 2};
%! write_file (f, header_of (with (meta, "config", ["{\"d\":3," c(2:end)]), entries), data);
%! refused (f, marker, "the config names \"d\" twice");

%!test
%! ## raw NUL bytes after the header's JSON or inside it: safetensors pads a
%! ## header with spaces only (jsondecode would stop reading at the NUL)
%! h = header_of (meta, entries);
%! write_file (f, [h "\0\0\0\0\0\0\0\0"], data);
%! refused (f, marker, sprintf ("the header holds a NUL byte \\(byte %d\\)", numel (h) + 1));
%! write_file (f, [h "   \0    "], data);
%! refused (f, marker, "holds a NUL byte");
%! write_file (f, strrep (h, "\"src_embed\"", "\"src_embed\0x\""), data);
%! refused (f, marker, "holds a NUL byte");

%!test
%! ## shapes and offsets that are no flat list of integers: nested lists,
%! ## null (jsondecode reads it as [], the shape of a scalar), objects
%! h = header_of (meta, entries);
%! shape = sprintf ("\"shape\":[%d,%d]", entries(1).shape);
%! offsets = sprintf ("\"data_offsets\":[%d,%d]", entries(1).offsets);
%! cases = {shape, sprintf("\"shape\":[[%d],[%d]]", entries(1).shape), "list that holds a list";
%!          shape, sprintf("\"shape\":[[%d,%d]]", entries(1).shape), "list that holds a list";
%!          shape, sprintf("\"shape\":[%d,{\"n\":%d}]", entries(1).shape), "list that holds .* an object";
%!          shape, "\"shape\":[{}]", "list that holds .* an object";
%!          shape, "\"shape\":null", "holds null";
%!          offsets, sprintf("\"data_offsets\":[[%d],[%d]]", entries(1).offsets), "list that holds a list";
%!          offsets, sprintf("\"data_offsets\":[%d,null]", entries(1).offsets(1)), "holds null";
%!          offsets, "\"data_offsets\":null", "holds null"};
%! for i = 1:rows (cases)
%!   write_file (f, strrep (h, cases{i,1}, cases{i,2}), data);
%!   refused (f, marker, cases{i,3});
%! endfor
%! ## a scalar's shape written as null (jsondecode: [], which means 1×1)
%! key = "\"encoder.1.self.heads\":{\"dtype\":\"F64\",\"shape\":";
%! assert (numel (strfind (h, [key "[1,1]"])), 1);
%! write_file (f, strrep (h, [key "[1,1]"], [key "null"]), data);
%! refused (f, marker, "holds null");

%!test
%! ## config keys that differ only in case: "D" beside "d" names d twice
%! c = meta{strcmp (meta(:,1), "config"), 2};
%! write_file (f, header_of (with (meta, "config", ["{\"D\":4," c(2:end)]), entries), data);
%! refused (f, marker, "the config names \"D\" and \"d\", which differ only in case");
%! v = meta{strcmp (meta(:,1), "src_vocab"), 2};
%! write_file (f, header_of (with (meta, "src_vocab", ["{\"EOS\":1," v(2:end)]), entries), data);
%! refused (f, marker, "src_vocab names \"EOS\" and \"eos\"");

%!test
%! ## a consistent file (header, arrays and file size agree) declaring a
%! ## model larger than this machine's memory, 10 GB at least: refused with
%! ## attention:toolarge, as attn_model refuses such a model, before any
%! ## array is read (the file is sparse: its data take no disk)
%! kb = str2double (regexp (fileread ("/proc/meminfo"), 'MemTotal:\s*(\d+)', "tokens", "once"){1});
%! L = 2^20;                                  # max_len; the two position tables dominate
%! D = ceil (max (10e9, 1.1 * 1024 * kb) / (2 * 8 * L));
%! c = jsondecode (meta{strcmp (meta(:,1), "config"), 2});
%! [c.d, c.dk, c.dv, c.max_len] = deal (D, D, D, L);
%! e = entries;
%! for i = 1:numel (e)
%!   n = e(i).name;
%!   if (any (strcmp (n, {"src_pos", "tgt_pos"})))
%!     e(i).shape = [L D];
%!   elseif (any (strcmp (n, {"src_embed", "tgt_embed"})))
%!     e(i).shape = [e(i).shape(1) D];
%!   elseif (strcmp (n, "W_vocab"))
%!     e(i).shape = [D e(i).shape(2)];
%!   elseif (! isempty (regexp (n, '\.W_[QKVO]$', "once")))
%!     e(i).shape = [D D];
%!   endif
%! endfor
%! bytes = 8 * cellfun (@prod, {e.shape});
%! ends = cumsum (bytes);
%! for i = 1:numel (e)
%!   e(i).offsets = [ends(i) - bytes(i), ends(i)];
%! endfor
%! assert (ends(end) >= 10e9);
%! h = header_of (with (meta, "config", jsonencode (c)), e);
%! write_file (f, h, []);
%! assert (system (sprintf ("truncate -s %.0f '%s'", 8 + numel (h) + ends(end), f)), 0);
%! tic;
%! try
%!   attn_load (f);
%!   error ("test:loaded", "a model of %.0f bytes was loaded", ends(end));
%! catch err
%!   assert (toc < 1);
%!   assert (err.identifier, "attention:toolarge", err.message);
%!   assert (regexp (err.message, ["^attn_load: \"" f "\": the file's arrays would hold .* numbers \\(.* GiB as doubles\\), more than the .* of memory available"], "once"), 1, err.message);
%! end_try_catch
%! delete (f);

%!test
%! ## ids counted from 0: a file says so with id_base "0" and is refused; a
%! ## file without id_base (an earlier attn_save's) loads when its specials
%! ## have the ids of their words, as 1-based ids give them, and is refused
%! ## when they are one less (the ids of a writer counting from 0)
%! assert (meta{strcmp (meta(:,1), "id_base"), 2}, "1");
%! write_file (f, header_of (with (meta, "id_base", "0"), entries), data);
%! refused (f, marker, "counts ids from 0 .*id_base is \"0\".* count them from 1.*write pad, unk, bos and eos 1 larger .*doc/FILE-FORMAT.md");
%! write_file (f, header_of (with (meta, "id_base", "one"), entries), data);
%! refused (f, marker, "id_base must be \"1\" \\(ids count from 1\\), got \"one\"");
%! old = meta(! strcmp (meta(:,1), "id_base"), :);
%! write_file (f, header_of (old, entries), data);
%! assert (isequal (attn_load (f), m));
%! ## the river toy's source vocabulary is <eos> the river ...: eos 1
%! v = jsondecode (old{strcmp (old(:,1), "src_vocab"), 2});
%! assert ([v.pad, v.unk, v.bos, v.eos], [0 0 0 1]);
%! v.eos = 0;                         # what a writer counting from 0 gives
%! write_file (f, header_of (with (old, "src_vocab", jsonencode (v)), entries), data);
%! refused (f, marker, "has no id_base .* its src_vocab.eos is 0 where word \"<eos>\" has id 1: were its ids counted from 0\\?");
%! ## a full vocabulary counted from 0: <pad> <unk> <bos> <eos> get 0 1 2 3
%! g = attn_family (struct ("family", "decoder-only", "vocab", "a b c", "d", 4, "heads", 2, "layers", 1));
%! attn_save (g, f);
%! [gm, ge, gd] = parse_file (f);
%! gm = gm(! strcmp (gm(:,1), "id_base"), :);
%! v = jsondecode (gm{strcmp (gm(:,1), "tgt_vocab"), 2});
%! assert ([v.pad, v.unk, v.bos, v.eos], [1 2 3 4]);
%! [v.pad, v.unk, v.bos, v.eos] = deal (0, 1, 2, 3);
%! write_file (f, header_of (with (gm, "tgt_vocab", jsonencode (v)), ge), gd);
%! refused (f, marker, "tgt_vocab.pad is 0 where word \"<pad>\" has id 1");

%!test
%! ## a decoder-only file of an earlier version stores its vocabulary twice
%! ## (src_vocab and tgt_vocab): it loads; a file of another family without
%! ## src_vocab is refused
%! g = attn_family (struct ("family", "decoder-only", "vocab", "a b c", "d", 4, "heads", 2, "layers", 1));
%! attn_save (g, f);
%! [gm, ge, gd] = parse_file (f);
%! assert (! any (strcmp (gm(:,1), "src_vocab")));
%! twice = [gm(! strcmp (gm(:,1), "id_base"), :); {"src_vocab", gm{strcmp (gm(:,1), "tgt_vocab"), 2}}];
%! write_file (f, header_of (twice, ge), gd);
%! assert (isequal (attn_load (f), g));
%! write_file (f, header_of (meta(! strcmp (meta(:,1), "src_vocab"), :), entries), data);
%! refused (f, marker, "has no src_vocab, which a encoder-decoder model needs");

%!test
%! ## dtypes other than F64 and F32 (a single model's), fields missing or
%! ## extra; an F32 entry over F64 bytes is refused by its size
%! for dtype = {"I64", "BF16", "F64 "}
%!   e = entries;
%!   e(2).dtype = dtype{1};
%!   write_file (f, header_of (meta, e), data);
%!   refused (f, marker, "only F64, F32 arrays are read");
%! endfor
%! e = entries;
%! e(2).dtype = "F32";
%! write_file (f, header_of (meta, e), data);
%! refused (f, marker, "needs 96 bytes, its data_offsets give 192");
%! h = header_of (meta, entries);
%! write_file (f, regexprep (h, ',"data_offsets":\[0,', ',"extra":1,"data_offsets":[0,', "once"), data);
%! refused (f, marker, "exactly the fields dtype, shape and data_offsets");

%!test
%! ## NaN and Inf weights
%! for bad = [NaN, Inf, -Inf]
%!   d = data;
%!   k = entries(3).offsets(1);
%!   d(k+1:k+8) = typecast (bad, "uint8");
%!   write_file (f, header_of (meta, entries), d);
%!   refused (f, marker, sprintf ("array \"%s\" holds NaN or Inf", entries(3).name));
%! endfor

%!test
%! ## vocabularies: ids out of range, not integers, shared; words twice
%! v = jsondecode (meta{strcmp (meta(:,1), "tgt_vocab"), 2});
%! cases = {"eos", 99, "eos must be an integer id in 0..5";
%!          "bos", 1.5, "bos must be an integer id";
%!          "pad", -1, "pad must be an integer id";
%!          "unk", v.eos, "gives one id to two"};
%! for i = 1:rows (cases)
%!   w = v;
%!   w.(cases{i,1}) = cases{i,2};
%!   write_file (f, header_of (with (meta, "tgt_vocab", jsonencode (w)), entries), data);
%!   refused (f, marker, cases{i,3});
%! endfor
%! w = v;
%! w.words{2} = w.words{1};
%! write_file (f, header_of (with (meta, "tgt_vocab", jsonencode (w)), entries), data);
%! refused (f, marker, "words holds .* twice");
%! w = rmfield (v, "unk");
%! write_file (f, header_of (with (meta, "tgt_vocab", jsonencode (w)), entries), data);
%! refused (f, marker, "exactly words, pad, unk, bos, eos");

%!test
%! ## config values outside their sets, and arrays the config does not call for
%! c = jsondecode (meta{strcmp (meta(:,1), "config"), 2});
%! cases = {"norm", "weird", "CONFIG.norm must be one of";
%!          "norm", "pre", "has an array \"encoder.1.norm_self.gain\"; the file has none";
%!          "d_ff", 2, "has an array \"encoder.1.ffn.W_1\"";
%!          "heads", 1.5, "CONFIG.heads must be an integer";
%!          "d", 4, "is 5×3, a encoder-decoder model with this config has 5×4";
%!          "encoder_layers", 1e9, "CONFIG.encoder_layers is 1e\\+09, more than";
%!          "family", "decoder-only", "which a decoder-only model with this config has not|must be 0 for the decoder-only family"};
%! for i = 1:rows (cases)
%!   w = c;
%!   w.(cases{i,1}) = cases{i,2};
%!   write_file (f, header_of (with (meta, "config", jsonencode (w)), entries), data);
%!   refused (f, marker, cases{i,3});
%! endfor

%!test
%! ## not regular files, odd names, short files
%! refused ("/dev/zero", marker, "not a regular file");
%! refused (tempdir (), marker, "is a folder");
%! refused ([f "\0.txt"], marker, "NUL byte");
%! fifo = tempname ();
%! if (system (sprintf ("mkfifo %s", fifo)) == 0)
%!   refused (fifo, marker, "not a regular file");
%!   delete (fifo);
%! endif
%! fid = fopen (f, "w");  fclose (fid);
%! refused (f, marker, "holds only 0 bytes");

%!test
%! ## the file cut at any length is refused
%! attn_save (m, f);
%! fid = fopen (f, "r");  bytes = fread (fid, Inf, "uint8=>uint8");  fclose (fid);
%! for n = unique ([0:16, round(linspace (17, numel (bytes) - 1, 40))])
%!   fid = fopen (f, "w");  fwrite (fid, bytes(1:n));  fclose (fid);
%!   refused (f, marker, ".");
%! endfor
%! delete (f);
