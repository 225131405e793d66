## opts = get_options (fname, defaults, args): name/value pairs (or one
## struct) in the cell args over the struct defaults.  An unknown name or a
## value not of its default's kind (string, or real scalar) raises attention:option.
function opts = get_options (fname, defaults, args)
  opts = defaults;
  if (numel (args) == 1 && isstruct (args{1}))
    args = [fieldnames(args{1}), struct2cell(args{1})]';
    args = args(:)';
  endif
  if (mod (numel (args), 2) != 0)
    error ("attention:option", "%s: options must come as name/value pairs", fname);
  endif
  names = fieldnames (defaults);
  for i = 1:2:numel (args)
    name = args{i};
    if (! ischar (name) || ! any (strcmp (name, names)))
      error ("attention:option", "%s: unknown option %s (known: %s)",
             fname, disp_arg (name), strjoin (names', ", "));
    endif
    value = args{i+1};
    if (ischar (defaults.(name)))
      ok = ischar (value);
    else
      ok = (isnumeric (value) || islogical (value)) && isscalar (value) && isreal (value);
    endif
    if (! ok)
      error ("attention:option", "%s: option \"%s\" must be like %s, got %s",
             fname, name, disp_arg (defaults.(name)), disp_arg (value));
    endif
    opts.(name) = value;
  endfor
endfunction
