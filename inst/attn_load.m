## -*- texinfo -*-
## @deftypefn {} {@var{m} =} attn_load (@var{file})
## Load a model saved by @code{attn_save}.
##
## The file must be what @code{attn_save} writes: Octave's text format with
## the format tag @qcode{"attention-model 1"}, the model, and last the
## SHA-256 checksum of the bytes before it.  Before anything is loaded, the
## file is read as text and refused unless every value type it declares is
## plain data (numbers, logicals, strings, cells, structs) and the checksum
## matches; so loading never runs code stored in the file (Octave's
## @code{load} would evaluate the text of a stored function handle), and a
## file cut short or altered is an error, never a different model.  After
## loading, the arrays must fit together (vocabularies and tables, block
## widths and heads, head and vocabulary).
##
## Every refusal is an @code{attention:file} error that says what is wrong:
## a missing or unreadable file, another format (Octave's binary format,
## HDF5, a MAT-file, a compressed file), a value that is not plain data
## (naming its type), a checksum mismatch, a missing tag, or a damaged model.
##
## @example
## @group
## f = [tempname() ".txt"];
## attn_save (attn_toy ("river"), f);
## m = attn_load (f);
## attn_greedy (m, "the river bank")
##   @result{} ans = la rive
## delete (f);
## @end group
## @end example
## @seealso{attn_save}
## @end deftypefn

function m = attn_load (file)
  if (nargin != 1)
    print_usage ();
  endif
  if (! ischar (file) || rows (file) != 1)
    error ("attention:type", "attn_load: FILE must be a file name, got %s", disp_arg (file));
  endif
  text = checked_text (file);
  ## load the bytes that were checked, not the file again (it may change)
  copy = tempname ();
  fid = fopen (copy, "w");
  fwrite (fid, text);
  fclose (fid);
  unwind_protect
    try
      s = load ("-text", copy);
    catch err
      error ("attention:file", "attn_load: cannot read \"%s\" as an Octave text file: %s",
             file, err.message);
    end_try_catch
  unwind_protect_cleanup
    delete (copy);
  end_unwind_protect
  if (! isequal (fieldnames (s), {"attention_format"; "attention_model"; "attention_checksum"})
      || ! isequal (s.attention_format, "attention-model 1"))
    error ("attention:file",
           "attn_load: \"%s\" is not a model file of attn_save (no \"attention-model 1\" tag and model)",
           file);
  endif
  m = s.attention_model;
  try
    check_model (m, "attn_load");
    if (strcmp (m.config.family, "encoder-decoder"))
      check_shapes (m);
    endif
  catch err
    error ("attention:file", "attn_load: \"%s\" holds a damaged model: %s", file, err.message);
  end_try_catch
endfunction

## The bytes of file as text, after checking without loading anything that
## they are a model file of attn_save: text format, plain data, checksum.
function text = checked_text (file)
  if (isfolder (file))
    error ("attention:file", "attn_load: \"%s\" is a folder, not a model file", file);
  endif
  [fid, msg] = fopen (file, "r");
  if (fid < 0)
    error ("attention:file", "attn_load: cannot open \"%s\": %s", file, msg);
  endif
  text = fread (fid, Inf, "uint8=>char")';
  fclose (fid);
  signatures = {"Octave-1-", "Octave's binary format";
                "\x89HDF\r\n\x1A\n", "HDF5";
                "MATLAB", "a MAT-file";
                "\x1F\x8B", "a gzip-compressed file"};
  for i = 1:rows (signatures)
    if (strncmp (text, signatures{i,1}, numel (signatures{i,1})))
      error ("attention:file",
             "attn_load: \"%s\" is in %s; attn_save writes Octave's text format with a checksum",
             file, signatures{i,2});
    endif
  endfor
  type = model_file_foreign_type (text);
  if (! isempty (type))
    error ("attention:file",
           "attn_load: \"%s\" declares a value of type \"%s\"; a model file holds plain data only (numbers, logicals, strings, cells, structs), so it is not loaded",
           file, type);
  endif
  n = numel (model_file_checksum (""));
  if (numel (text) >= n)
    tail = text(end-n+1:end);
    expected = model_file_checksum (text(1:end-n));
    digits = n-66:n-3;                  # the 64 hex digits of the sum
    frame = setdiff (1:n, digits);
  endif
  if (numel (text) < n || ! strcmp (tail(frame), expected(frame))
      || ! all (ismember (tail(digits), "0123456789abcdef")))
    error ("attention:file",
           "attn_load: \"%s\" is not a model file of attn_save, or is cut short: it does not end with the checksum",
           file);
  endif
  if (! strcmp (tail, expected))
    error ("attention:file", "attn_load: \"%s\" is damaged: checksum mismatch", file);
  endif
endfunction

## Error unless the arrays of an encoder-decoder model fit together.
function check_shapes (m)
  check_vocab (m.src_vocab, "attn_load");
  check_vocab (m.tgt_vocab, "attn_load");
  d = columns (m.tgt_embed);
  want (m.src_embed, [numel(m.src_vocab.words), NaN], "src_embed");
  want (m.src_pos, [NaN, columns(m.src_embed)], "src_pos");
  want (m.tgt_embed, [numel(m.tgt_vocab.words), d], "tgt_embed");
  want (m.tgt_pos, [NaN, d], "tgt_pos");
  want (m.W_vocab, [d, numel(m.tgt_vocab.words)], "W_vocab");
  want (m.b_vocab, [1, numel(m.tgt_vocab.words)], "b_vocab");
  ds = columns (m.src_embed);
  for l = 1:numel (m.encoder)
    block (m.encoder(l).self, ds, ds, sprintf ("encoder(%d).self", l));
  endfor
  for l = 1:numel (m.decoder)
    block (m.decoder(l).self, d, d, sprintf ("decoder(%d).self", l));
    block (m.decoder(l).cross, d, ds, sprintf ("decoder(%d).cross", l));
  endfor
endfunction

function block (B, d, d_src, name)
  if (! all (isfield (B, {"W_Q", "W_K", "W_V", "W_O", "heads"})))
    error ("attention:file", "%s lacks a field of W_Q, W_K, W_V, W_O, heads", name);
  endif
  h = B.heads;
  if (! isnumeric (h) || ! isscalar (h) || h < 1 || h != fix (h)
      || mod (columns (B.W_Q), h) || mod (columns (B.W_V), h))
    error ("attention:file", "%s.heads must be a positive integer dividing the widths", name);
  endif
  want (B.W_Q, [d, NaN], [name ".W_Q"]);
  want (B.W_K, [d_src, columns(B.W_Q)], [name ".W_K"]);
  want (B.W_V, [d_src, NaN], [name ".W_V"]);
  want (B.W_O, [columns(B.W_V), d], [name ".W_O"]);
endfunction

## x must be a real double matrix of size sz (NaN = any).
function want (x, sz, name)
  if (! isa (x, "double") || ! isreal (x) || ndims (x) != 2
      || any (size (x) != sz & ! isnan (sz)))
    error ("attention:file", "%s must be a real %s double matrix, got a %s %s", name,
           strjoin (arrayfun (@(s) num2str (s), sz, "UniformOutput", false), "×"),
           strjoin (arrayfun (@num2str, size (x), "UniformOutput", false), "×"), class (x));
  endif
endfunction

%!shared m, f
%! m = attn_toy ("river");
%! f = tempname ();

%!test
%! ## exact round trip, models with FFN and LayerNorm too
%! c = struct ("src_vocab", {{"a b c"}}, "tgt_vocab", {{"x y"}}, "d", 4, "heads", 2,
%!             "d_ff", 3, "norm", "pre", "encoder_layers", 2, "decoder_layers", 1);
%! for model = {m, attn_toy("blackcat"), attn_model(c)}
%!   attn_save (model{1}, f);
%!   assert (isequal (attn_load (f), model{1}));
%! endfor
%! delete (f);

%!test
%! ## a file that is not a model, a damaged one, a missing one
%! x = 3;  save ("-text", f, "x");
%! fail ("attn_load (f)", "not a model file");
%! attn_save (m, f);
%! fid = fopen (f);  bytes = fread (fid, Inf, "uint8=>uint8");  fclose (fid);
%! fid = fopen (f, "w");  fwrite (fid, bytes(1:floor (end/2)));  fclose (fid);
%! try
%!   attn_load (f);
%!   error ("no error");
%! catch err
%!   assert (err.identifier, "attention:file");
%! end_try_catch
%! delete (f);
%! fail ("attn_load (f)", "cannot open");

%!test
%! ## one digit changed: the checksum, recomputed by hand, tells
%! attn_save (m, f);
%! txt = fileread (f);
%! k = strfind (txt, sprintf ("%.17g", m.W_vocab(1)));
%! txt(k(1)+3) = char ("0" + mod (txt(k(1)+3) - "0" + 1, 10));
%! fid = fopen (f, "w");  fwrite (fid, txt);  fclose (fid);
%! fail ("attn_load (f)", "damaged: checksum mismatch");
%! delete (f);

%!test
%! ## Octave's binary format: refused before loading, the message says why
%! attention_format = "attention-model 1";  attention_model = m;
%! save ("-binary", f, "attention_format", "attention_model");
%! fail ("attn_load (f)", "Octave's binary format; attn_save writes Octave's text format");
%! delete (f);

%!test
%! ## inconsistent arrays: attention:file naming the array
%! attention_format = "attention-model 1";  attention_model = m;
%! attention_model.W_vocab(:,end) = [];      # attn_save refuses such a model
%! save ("-text", f, "attention_format", "attention_model");
%! body = fileread (f);
%! fid = fopen (f, "a");
%! fprintf (fid, "# name: attention_checksum\n# type: string\n# elements: 1\n# length: 64\n%s\n\n\n",
%!          hash ("sha256", body));
%! fclose (fid);
%! fail ("attn_load (f)", "W_vocab must be a real 3×5 double");
%! delete (f);

%!test
%! ## a function handle, checksum and all: attention:file naming the type
%! attention_format = "attention-model 1";  attention_model = m;
%! attention_model.config.hook = @() error ("ran");
%! save ("-text", f, "attention_format", "attention_model");
%! body = fileread (f);
%! fid = fopen (f, "a");
%! fprintf (fid, "# name: attention_checksum\n# type: string\n# elements: 1\n# length: 64\n%s\n\n\n",
%!          hash ("sha256", body));
%! fclose (fid);
%! try
%!   attn_load (f);
%!   error ("no error");
%! catch err
%!   assert (err.identifier, "attention:file");
%!   assert (! isempty (strfind (err.message, "type \"function handle\"")));
%! end_try_catch
%! delete (f);

%!error id=attention:type attn_load (3)
