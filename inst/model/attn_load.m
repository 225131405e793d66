## -*- texinfo -*-
## @deftypefn {} {@var{m} =} attn_load (@var{file})
## Load an attention model saved by attn_save, as data. Load a model saved
## by @code{attn_save}, reading it as data only.
##
## The file must be a safetensors file as @code{attn_save} writes it (see
## there, and @file{doc/FILE-FORMAT.md} for the format in full, for files
## written by other tools).  It is read with @code{fread} and
## @code{jsondecode}; nothing in it is evaluated, and Octave's @code{load}
## is never called, so a file cannot run code.  It is checked strictly,
## before anything large is allocated: that it is a regular file (not a
## folder, a device or a pipe) and its name holds no NUL byte; the header
## length against the file's size (a header may have at most 100,000,000
## bytes, the safetensors limit); the header's JSON (UTF-8, only spaces
## after it, no key twice, no NUL, no @code{null}, no list holding a list
## or an object, nesting at most 8 deep); the format tag
## @qcode{"attention-model 1"}, the metadata keys, the config (its values
## from their allowed sets, no two keys the same but for case) and the
## vocabularies (distinct words; ids integers in range and distinct); that
## ids count from 1 (@code{"id_base"} @qcode{"1"}: a file counting from 0
## is refused with how to convert it); then every array's name, dtype
## (@qcode{"F64"}, or @qcode{"F32"}: the arrays of a single model, which
## load as single), shape and place against the arrays that the model's
## family and config call for, and against the bytes present (no overlap,
## no gap, nothing missing or left over).  Each refusal is an
## @code{attention:file} error that says what is wrong, in time that grows
## with the header only, whatever arrays the file declares.  Arrays that
## would not fit in memory (the rule of @code{attn_model}) are an
## @code{attention:toolarge} error.  Only then are the arrays read; they
## must be finite.
##
## A file of an earlier version loads too: one without @code{"id_base"}
## when its special ids are those of its special words (as
## @code{attn_vocab} gives them, and 0-based ids do not), and a
## decoder-only model's file that stores its vocabulary twice.
##
## Files of the package's earlier text format (Octave's @code{save} format
## with a SHA-256 line) are refused, since reading them means Octave's
## @code{load}, which can run code stored in the file.  The message says
## how to convert one that you made yourself.
##
## @example
## @group
## f = [tempname() ".safetensors"];
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
  [fid, bytes] = safetensors_open (file, "attn_load");
  where = sprintf ("attn_load: \"%s\"", file);
  unwind_protect
    refuse_foreign (fread (fid, 256, "uint8=>char")', where);
    frewind (fid);
    [meta, info, start] = safetensors_header (fid, bytes, where, {"F64", 8; "F32", 4});
    check_meta (meta, where);
    [m, parts, at] = file_model ("plan", meta, info, "", where, "attn_load", {"format"});
    extra = setdiff ({info.name}, {parts.path});
    if (! isempty (extra))
      error ("attention:file", "%s: the file has an array \"%s\", which a %s model with this config has not",
             where, extra{1}, m.config.family);
    endif
    arrays = safetensors_data (fid, info, start, where, true);   # F32: a single model
  unwind_protect_cleanup
    fclose (fid);
  end_unwind_protect
  m = file_model ("assemble", m, parts, arrays(at), where, "attn_load");
endfunction

## error unless the file's format tag is that of a model of attn_save
function check_meta (meta, where)
  if (! isfield (meta, "format") || ! strcmp (meta.format, "attention-model 1"))
    error ("attention:file",
           "%s is a safetensors file, but not a model of attn_save: its __metadata__ has no format \"attention-model 1\"",
           where);
  endif
endfunction

## error if head (the file's first bytes) shows another format than
## safetensors, naming it; the earlier text format with how to convert it
function refuse_foreign (head, where)
  if (strncmp (head, "# Created by Octave", 19)
      && ! isempty (strfind (head, "# name: attention_format")))
    error ("attention:file", ["%s is a model file of the earlier text format.  It is not ", ...
           "loaded: reading it means Octave's load, which runs code a file can hold.  If you ", ...
           "made the file yourself and nobody else could change it, convert it once: ", ...
           "s = load (\"-text\", FILE); attn_save (s.attention_model, NEW_FILE).  Never do ", ...
           "this with a file from someone else."], where);
  endif
  signatures = {"# Created by Octave", "Octave's text format (not a model of attn_save)";
                "Octave-1-", "Octave's binary format";
                "\x89HDF\r\n\x1A\n", "HDF5";
                "MATLAB", "a MAT-file";
                "\x1F\x8B", "a gzip-compressed file";
                "PK\x03\x04", "a zip archive (such as a file of torch.save)"};
  for i = 1:rows (signatures)
    if (strncmp (head, signatures{i,1}, numel (signatures{i,1})))
      error ("attention:file", "%s is %s; attn_load reads the safetensors files of attn_save",
             where, signatures{i,2});
    endif
  endfor
endfunction

%!test
%! ## exact round trip (isequal compares every double exactly)
%! m = attn_toy ("river");
%! f = tempname ();
%! attn_save (m, f);
%! assert (isequal (attn_load (f), m));
%! delete (f);

%!error id=attention:type attn_load (3)
%!error <cannot be opened> attn_load (tempname ())
%!error <is a folder> attn_load (tempdir ())
%!error <not a regular file> attn_load ("/dev/zero")
%!error <NUL byte> attn_load ("/etc/passwd\0x")
%!error <not a safetensors file> attn_load ("/etc/passwd")

%!test
%! ## every array goes to its place (layers indexed, heads included)
%! c = struct ("src_vocab", {{"a b"}}, "tgt_vocab", {{"x y"}}, "d", 4, "heads", 2,
%!             "decoder_layers", 2, "d_ff", 3, "norm", "pre");
%! m = attn_model (c);
%! m.decoder(2).cross.W_Q(:) = 1:16;
%! f = tempname ();
%! unwind_protect
%!   attn_save (m, f);
%!   got = attn_load (f);
%! unwind_protect_cleanup
%!   delete (f);
%! end_unwind_protect
%! assert (got.decoder(2).cross.W_Q, reshape (1:16, 4, 4));
%! assert (got.decoder(1).self.heads, 2);
%! assert (isequal (got, m));
