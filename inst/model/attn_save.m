## -*- texinfo -*-
## @deftypefn {} {} attn_save (@var{m}, @var{file})
## Save an attention model to a safetensors file. Save a model to a
## safetensors file: data only, bit for bit, atomically.
##
## The file is in the safetensors format that PyTorch and other tools read:
## 8 bytes (a little-endian integer N), N bytes of JSON text (the header),
## then every array's numbers as little-endian doubles (singles, 4 bytes
## each, for a model whose arrays are single: @code{attn_cast}).  The
## header names
## each array of the model by its place in the struct
## (@qcode{"src_embed"}, @qcode{"decoder.1.cross.W_Q"},
## @qcode{"encoder.1.self.heads"}, in the model's order; layers count from
## 1) with its @code{"dtype"} (@qcode{"F64"}; @qcode{"F32"} for a single
## array), @code{"shape"} (the size in
## Octave) and @code{"data_offsets"} (its first and past-the-end byte,
## counted from the end of the header); the arrays are stored row by row
## (C order), so that @code{W_Q} read in Python is the same matrix.  The
## header's @code{"__metadata__"} maps names to strings, as the format
## requires: @code{"format"} (@qcode{"attention-model 1"}),
## @code{"id_base"} (@qcode{"1"}: ids count from 1, word k of a
## vocabulary is row k of its embedding) and @code{"config"},
## @code{"src_vocab"}, @code{"tgt_vocab"}, each a string holding JSON text
## of an object (words as a list of text, ids and config numbers as
## integers).  A decoder-only model, whose one vocabulary is both, stores
## @code{"tgt_vocab"} only.  The header is padded with spaces so that the
## data start at a multiple of 8 bytes; it may have up to 100,000,000
## bytes (the format's limit: vocabularies of millions of words).  The
## format is described exactly, for writing such files from other tools,
## in @file{doc/FILE-FORMAT.md}.
##
## The model must be what the package builds (@code{attn_model},
## @code{attn_family}, @code{attn_toy}, @code{attn_train}): its config and
## vocabularies valid and every array the one its family and config ask
## for, of that size, real and finite.  Anything else is refused before
## the file is touched: @code{attention:model} (a missing or extra field,
## a wrong shape), @code{attention:type} (a value a file cannot hold, such
## as a function handle in @code{config}), @code{attention:config},
## @code{attention:vocab} (a word holding a NUL byte included: no file
## could give it back), @code{attention:nonfinite} (NaN or Inf weights).
##
## Saving is atomic: the bytes go to a new file in @var{file}'s folder,
## every write and the close are checked, and only then is that file
## renamed over @var{file}.  On any failure (a full disk, an interrupt) the
## new file is deleted and @var{file} is as it was.  A @var{file} that
## exists and is not a regular file (a folder, @file{/dev/full}) is
## refused at once.  Errors about the file are @code{attention:file}.
##
## @example
## @group
## m = attn_toy ("blackcat");
## f = [tempname() ".safetensors"];
## attn_save (m, f);
## isequal (attn_load (f), m)
##   @result{} ans = 1
## delete (f);
## @end group
## @end example
## @seealso{attn_load, attn_model}
## @end deftypefn

function attn_save (m, file)
  if (nargin != 2)
    print_usage ();
  endif
  check_model (m, "attn_save");
  if (! ischar (file) || rows (file) != 1 || isempty (file))
    error ("attention:type", "attn_save: FILE must be a file name, got %s", disp_arg (file));
  endif
  if (any (file == "\0"))
    error ("attention:file", "attn_save: FILE holds a NUL byte, which no file name can hold");
  endif
  [names, arrays, meta] = file_model ("parts", m, "attn_save");
  safetensors_write (file, names, arrays, meta, "attn_save");
endfunction

%!error id=attention:model attn_save (struct (), tempname ())
%!error id=attention:type attn_save (attn_toy ("blackcat"), 3)
%!error id=attention:file attn_save (attn_toy ("blackcat"), fullfile (tempname (), "x"))
%!error <exists and is not a regular file> attn_save (attn_toy ("blackcat"), "/dev/full")
%!error <exists and is not a regular file> attn_save (attn_toy ("blackcat"), tempdir ())
%!error <NUL byte> attn_save (attn_toy ("blackcat"), [tempname() "\0x"])

%!test
%! ## the layout the help promises, read here byte by byte
%! m = attn_toy ("river");
%! f = tempname ();
%! attn_save (m, f);
%! fid = fopen (f, "r");
%! bytes = fread (fid, Inf, "uint8=>double")';
%! fclose (fid);
%! delete (f);
%! N = bytes(1:8) * 256 .^ (0:7)';
%! assert (mod (8 + N, 8), 0);
%! h = jsondecode (char (bytes(9:8+N)), "makeValidName", false);
%! assert (h.("__metadata__").format, "attention-model 1");
%! e = h.("decoder.1.cross.W_Q");
%! assert (e.dtype, "F64");
%! assert (e.shape', size (m.decoder(1).cross.W_Q));
%! ## row-major little-endian doubles from data_offsets(1)
%! raw = uint8 (bytes(9+N+e.data_offsets(1):8+N+e.data_offsets(2)));
%! W = reshape (typecast (raw, "double"), e.shape(2), e.shape(1))';
%! assert (W, m.decoder(1).cross.W_Q);       # exact
%! assert (h.("__metadata__").id_base, "1");
%! c = jsondecode (h.("__metadata__").config);
%! assert (c.d, m.config.d);
%! v = jsondecode (h.("__metadata__").src_vocab);
%! assert (v.words', m.src_vocab.words);

%!test
%! ## a function handle in the model: refused, the old file untouched
%! m = attn_toy ("blackcat");
%! f = tempname ();
%! attn_save (m, f);
%! before = fileread (f);
%! m.config.hook = @() 1;
%! try
%!   attn_save (m, f);
%!   error ("no error");
%! catch err
%!   assert (any (strcmp (err.identifier, {"attention:type", "attention:model", "attention:config"})));
%!   assert (! isempty (strfind (err.message, "hook")));
%! end_try_catch
%! assert (strcmp (fileread (f), before));
%! delete (f);
