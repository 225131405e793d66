## Model files of attn_save / attn_load under damage and attack:
## - the round trip is bit-exact (every double compared by its bits);
## - a file cut short anywhere raises an attention:* error (or, cut only
##   in its trailing whitespace, still gives the exact model);
## - a file with a byte changed raises an attention:* error or gives the
##   exact model: never a different model without saying so;
## - files that are not model files (other data, wrong tag, random bytes,
##   an empty file, Octave code, absurd sizes) raise attention:* errors;
## - loading never runs code stored in the file, even with a valid checksum,
##   however the type keyword is spelled; Octave's binary format is refused.
## attn_save writes Octave's text format only; the checksum that ends the
## file is recomputed here from attn_save's documented layout.

%!shared m, dir
%! m = attn_toy ("river");
%! dir = tempname ();
%! mkdir (dir);

%!function id = load_outcome (f, m)
%!  ## "same" (exact model back), "different", or the error identifier
%!  try
%!    got = attn_load (f);
%!    if (isequal (got, m))
%!      id = "same";
%!    else
%!      id = "different";
%!    endif
%!  catch err
%!    id = err.identifier;
%!  end_try_catch
%!endfunction

%!function bytes = read_bytes (f)
%!  fid = fopen (f, "r");
%!  bytes = fread (fid, Inf, "uint8=>uint8");
%!  fclose (fid);
%!endfunction

%!function write_bytes (f, bytes)
%!  fid = fopen (f, "w");
%!  fwrite (fid, bytes, "uint8");
%!  fclose (fid);
%!endfunction

## append the checksum block attn_save's help documents: SHA-256 of all
## bytes before it
%!function add_checksum (f)
%!  body = fileread (f);
%!  fid = fopen (f, "a");
%!  fprintf (fid, "# name: attention_checksum\n# type: string\n# elements: 1\n# length: 64\n%s\n\n\n",
%!           hash ("sha256", body));
%!  fclose (fid);
%!endfunction

## every double of a struct/cell tree as its 64-bit pattern, in order
%!function bits = double_bits (x)
%!  bits = zeros (0, 1, "uint64");
%!  if (isstruct (x))
%!    for k = 1:numel (x)
%!      for f = fieldnames (x)'
%!        bits = [bits; double_bits(x(k).(f{1}))];
%!      endfor
%!    endfor
%!  elseif (iscell (x))
%!    for k = 1:numel (x)
%!      bits = [bits; double_bits(x{k})];
%!    endfor
%!  elseif (isa (x, "double"))
%!    bits = typecast (x(:), "uint64");
%!  endif
%!endfunction

## ---- round trip

%!test
%! ## numbers that 16 digits would not carry: thirds, pi, a subnormal, -0
%! m2 = m;
%! m2.W_vocab(1:5) = [1/3, pi, 2^-1070, -0, 1 - eps];
%! f = fullfile (dir, "rt.txt");
%! attn_save (m2, f);
%! got = attn_load (f);
%! assert (isequal (got, m2));
%! assert (double_bits (got) == double_bits (m2));

## ---- truncated files

%!test
%! f = fullfile (dir, "full.txt");
%! attn_save (m, f);
%! bytes = read_bytes (f);
%! g = fullfile (dir, "cut");
%! cuts = unique ([0, 1, 10, round(linspace (20, numel (bytes) - 1, 80))]);
%! for n = cuts
%!   write_bytes (g, bytes(1:n));
%!   id = load_outcome (g, m);
%!   trailing_space = all (isspace (char (bytes(n+1:end))));
%!   assert (strncmp (id, "attention:", 10)
%!           || (strcmp (id, "same") && trailing_space),
%!           "file cut to %d of %d bytes: %s", n, numel (bytes), id);
%! endfor

## ---- altered files: one byte changed, in the header and in the numbers

%!test
%! rand ("twister", 11);
%! f = fullfile (dir, "full.txt");
%! attn_save (m, f);
%! bytes = read_bytes (f);
%! g = fullfile (dir, "altered");
%! bad = {};
%! for k = 1:120
%!   b = bytes;
%!   i = 1 + floor (rand () * numel (b));
%!   b(i) = bitxor (b(i), uint8 (2^floor (rand () * 8)));
%!   write_bytes (g, b);
%!   id = load_outcome (g, m);
%!   if (! (strncmp (id, "attention:", 10) || strcmp (id, "same")))
%!     bad{end+1} = sprintf ("byte %d: %s", i, id);
%!   endif
%! endfor
%! assert (isempty (bad), "one byte changed, accepted: %s", strjoin (bad, "; "));
%! ## a digit of the first stored number, and the last digit of the checksum
%! txt = char (bytes');
%! k = strfind (txt, sprintf ("%.17g", m.src_embed(1)));
%! for i = [k(1) + 4, numel(txt) - 3]
%!   b = bytes;
%!   b(i) = uint8 ("0" + mod (b(i) - "0" + 1, 10));
%!   write_bytes (g, b);
%!   assert (load_outcome (g, m), "attention:file");
%! endfor

## ---- foreign files

%!test
%! f = fullfile (dir, "foreign");
%! attention_format = "attention-model 1";
%! attention_model = m;
%! x = 3;
%! save ("-binary", f, "x");
%! assert (strncmp (load_outcome (f, m), "attention:", 10), "other data");
%! save ("-binary", f, "attention_format", "attention_model");
%! assert (strncmp (load_outcome (f, m), "attention:", 10), "binary format");
%! save ("-text", f, "attention_format", "attention_model");
%! assert (strncmp (load_outcome (f, m), "attention:", 10), "no checksum");
%! ## the next ones carry a valid checksum: the contents are what is wrong
%! attention_format = "attention-model 2";
%! save ("-text", f, "attention_format", "attention_model");
%! add_checksum (f);
%! assert (strncmp (load_outcome (f, m), "attention:", 10), "tag 2");
%! attention_format = "attention-model 1";
%! save ("-text", f, "attention_format");
%! add_checksum (f);
%! assert (strncmp (load_outcome (f, m), "attention:", 10), "no model");
%! attention_model = struct ("config", 1);
%! save ("-text", f, "attention_format", "attention_model");
%! add_checksum (f);
%! assert (strncmp (load_outcome (f, m), "attention:", 10), "not a model");
%! write_bytes (f, uint8 ([]));
%! assert (strncmp (load_outcome (f, m), "attention:", 10), "empty file");
%! rand ("twister", 3);
%! write_bytes (f, uint8 (floor (rand (4096, 1) * 256)));
%! assert (strncmp (load_outcome (f, m), "attention:", 10), "random bytes");
%! write_bytes (f, uint8 ("x = 1;\ndisp (x)\n"));
%! assert (strncmp (load_outcome (f, m), "attention:", 10), "Octave code");
%! assert (strncmp (load_outcome (dir, m), "attention:", 10), "a folder");

%!test
%! ## a text file declaring a 1e8 x 1e8 matrix: an error, not an allocation
%! f = fullfile (dir, "huge.txt");
%! txt = ["# name: attention_format\n# type: string\n# elements: 1\n", ...
%!        "# length: 17\nattention-model 1\n\n\n", ...
%!        "# name: attention_model\n# type: matrix\n", ...
%!        "# rows: 100000000\n# columns: 100000000\n 1 2 3\n"];
%! write_bytes (f, uint8 (txt));
%! assert (strncmp (load_outcome (f, m), "attention:", 10));
%! add_checksum (f);
%! assert (strncmp (load_outcome (f, m), "attention:", 10), "with a checksum");

## ---- code in a file is never run
## Octave's load rebuilds an anonymous function from its text by evaluating
## that text; a file can put any expression there.  The expression here
## would create a marker file.

%!function check_not_run (f, marker, m)
%!  id = load_outcome (f, m);
%!  ran = exist (marker, "file");
%!  if (ran)
%!    delete (marker);
%!  endif
%!  assert (! ran, "attn_load ran code stored in the file");
%!  assert (strncmp (id, "attention:", 10), id);
%!endfunction

%!test
%! marker = fullfile (dir, "marker_text");
%! payload = sprintf ("fclose (fopen (\"%s\", \"w\"))", marker);
%! txt = ["# name: attention_format\n# type: string\n# elements: 1\n", ...
%!        "# length: 17\nattention-model 1\n\n\n", ...
%!        "# name: attention_model\n# type: function handle\n", ...
%!        "@<anonymous>\n" payload "\n\n\n"];
%! f = fullfile (dir, "payload.txt");
%! write_bytes (f, uint8 (txt));
%! check_not_run (f, marker, m);
%! add_checksum (f);
%! check_not_run (f, marker, m);

%!test
%! ## other spellings Octave's load also reads as the type keyword
%! marker = fullfile (dir, "marker_spelled");
%! payload = sprintf ("fclose (fopen (\"%s\", \"w\"))", marker);
%! f = fullfile (dir, "payload_spelled.txt");
%! for tag = {"%type:function handle", "#\t#type\tfunction handle",
%!            "# typex: function handle", "# type: global function handle"}
%!   txt = ["# name: attention_format\n# type: string\n# elements: 1\n", ...
%!          "# length: 17\nattention-model 1\n\n\n", ...
%!          "# name: attention_model\n" tag{1} "\n", ...
%!          "@<anonymous>\n" payload "\n\n\n"];
%!   write_bytes (f, uint8 (txt));
%!   add_checksum (f);
%!   check_not_run (f, marker, m);
%! endfor

%!test
%! ## the same in Octave's binary format: the text of a saved handle,
%! ## replaced by the payload padded to the same length
%! marker = fullfile (dir, "marker_bin");
%! payload = sprintf ("fclose (fopen (\"%s\", \"w\"))", marker);
%! attention_format = "attention-model 1";
%! attention_model = eval (sprintf ("@() disp (\"%s\")",
%!                               repmat ("a", 1, numel (payload))));
%! f = fullfile (dir, "payload.bin");
%! save ("-binary", f, "attention_format", "attention_model");
%! bytes = read_bytes (f);
%! old = uint8 (func2str (attention_model));
%! i = strfind (char (bytes'), char (old));
%! assert (numel (i), 1);
%! bytes(i:i+numel (old)-1) = uint8 ([payload, repmat(" ", 1, numel (old) - numel (payload))]);
%! write_bytes (f, bytes);
%! check_not_run (f, marker, m);

%!test
%! ## a handle stored inside the model struct, in the text format
%! marker = fullfile (dir, "marker_field");
%! attention_format = "attention-model 1";
%! attention_model = m;
%! attention_model.config.note = @() disp ("a");
%! f = fullfile (dir, "payload_field.txt");
%! save ("-text", f, "attention_format", "attention_model");
%! txt = fileread (f);
%! old = func2str (attention_model.config.note);
%! payload = sprintf ("fclose (fopen (\"%s\", \"w\"))", marker);
%! write_bytes (f, uint8 (strrep (txt, old, payload)));
%! add_checksum (f);
%! check_not_run (f, marker, m);

%!test
%! confirm_recursive_rmdir (false, "local");
%! rmdir (dir, "s");
