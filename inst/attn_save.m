## -*- texinfo -*-
## @deftypefn  {} {} attn_save (@var{m}, @var{file})
## @deftypefnx {} {} attn_save (@var{m}, @var{file}, @var{format})
## Save a model to a file in one of Octave's own formats.
##
## The file holds two variables: @code{attention_format} (the string
## @qcode{"attention-model 1"}) and @code{attention_model} (the model
## struct).  @var{format} is @qcode{"binary"} (default, Octave's binary
## format) or @qcode{"text"} (Octave's text format, 17 significant digits);
## both give back exactly the same numbers through @code{attn_load}.
##
## @example
## @group
## m = attn_toy ("blackcat");
## f = [tempname() ".bin"];
## attn_save (m, f);
## isequal (attn_load (f), m)
##   @result{} ans = 1
## delete (f);
## @end group
## @end example
## @seealso{attn_load, attn_model}
## @end deftypefn

function attn_save (m, file, format = "binary")
  if (nargin < 2)
    print_usage ();
  endif
  check_model (m, "attn_save");
  if (! ischar (file) || isempty (file))
    error ("attention:type", "attn_save: FILE must be a file name, got %s", disp_arg (file));
  endif
  if (! any (strcmp (format, {"binary", "text"})))
    error ("attention:option", "attn_save: FORMAT must be \"binary\" or \"text\", got %s",
           disp_arg (format));
  endif
  s.attention_format = "attention-model 1";
  s.attention_model = m;
  old = save_precision ();
  save_precision (17);
  unwind_protect
    save (["-" format], file, "-struct", "s");
  unwind_protect_cleanup
    save_precision (old);
  end_unwind_protect
endfunction

%!error id=attention:model attn_save (struct (), tempname ())
%!error id=attention:option attn_save (attn_toy ("blackcat"), tempname (), "json")
%!error id=attention:type attn_save (attn_toy ("blackcat"), 3)
