## -*- texinfo -*-
## @deftypefn {} {} attn_save (@var{m}, @var{file})
## Save a model to a file in Octave's text format, with a checksum.
##
## The file is one that Octave's @code{load} reads, holding three variables
## in this order: @code{attention_format} (the string
## @qcode{"attention-model 1"}), @code{attention_model} (the model struct,
## every double written with 17 significant digits, so that it reads back
## bit for bit) and, last, @code{attention_checksum}: the SHA-256 of every
## byte of the file before the checksum's own block, in lowercase hex, as
## @code{hash ("sha256", @dots{})} gives it.  @code{attn_load} checks that
## sum, so a file cut short or altered is an error, never a different model.
##
## A model holds plain data only (numbers, logicals, strings, cells,
## structs); one with a function handle or an object in it is an
## @code{attention:type} error and no file is left behind.  A file that
## cannot be written is an @code{attention:file} error.
##
## @example
## @group
## m = attn_toy ("blackcat");
## f = [tempname() ".txt"];
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
  if (! ischar (file) || rows (file) != 1)
    error ("attention:type", "attn_save: FILE must be a file name, got %s", disp_arg (file));
  endif
  s.attention_format = "attention-model 1";
  s.attention_model = m;
  old = save_precision ();
  save_precision (17);
  unwind_protect
    try
      save ("-text", file, "-struct", "s");
    catch err
      error ("attention:file", "attn_save: cannot write \"%s\": %s", file, err.message);
    end_try_catch
  unwind_protect_cleanup
    save_precision (old);
  end_unwind_protect
  body = fileread (file);
  type = model_file_foreign_type (body);
  if (! isempty (type))
    delete (file);
    error ("attention:type",
           "attn_save: M must hold plain data only (numbers, logicals, strings, cells, structs), got a value of type \"%s\"",
           type);
  endif
  block = model_file_checksum (body);
  fid = fopen (file, "a");
  written = 0;
  if (fid >= 0)
    written = fwrite (fid, block);
    fclose (fid);
  endif
  if (written != numel (block))
    error ("attention:file", "attn_save: cannot append the checksum to \"%s\"", file);
  endif
endfunction

%!error id=attention:model attn_save (struct (), tempname ())
%!error id=attention:type attn_save (attn_toy ("blackcat"), 3)
%!error id=attention:file attn_save (attn_toy ("blackcat"), fullfile (tempname (), "x"))

%!test
%! ## the layout the help promises: a plain Octave text file whose last
%! ## block is the SHA-256 of the bytes before it
%! m = attn_toy ("blackcat");
%! f = tempname ();
%! attn_save (m, f);
%! txt = fileread (f);
%! k = strfind (txt, "# name: attention_checksum\n");
%! assert (numel (k), 1);
%! assert (txt(k:end), sprintf ("# name: attention_checksum\n# type: string\n# elements: 1\n# length: 64\n%s\n\n\n",
%!                              hash ("sha256", txt(1:k-1))));
%! s = load ("-text", f);
%! assert (fieldnames (s), {"attention_format"; "attention_model"; "attention_checksum"});
%! assert (s.attention_format, "attention-model 1");
%! assert (isequal (s.attention_model, m));
%! delete (f);

%!test
%! ## a function handle in the model: refused, no file left
%! m = attn_toy ("blackcat");
%! m.hook = @() 1;                           # beside the schema's arrays
%! f = tempname ();
%! try
%!   attn_save (m, f);
%!   error ("no error");
%! catch err
%!   assert (err.identifier, "attention:type");
%!   assert (! isempty (strfind (err.message, "type \"function handle\"")));
%! end_try_catch
%! assert (! exist (f, "file"));
