## s = file_meta_struct (txt, what, where): the struct file_meta_json wrote,
## read back strictly: a JSON object whose values are text, logicals,
## numbers or lists of text (as rows).  Anything else is an attention:file
## error "WHERE: WHAT ...".
function s = file_meta_struct (txt, what, where)
  s = file_json_decode (txt, what, where);
  if (! isstruct (s) || ! isscalar (s))
    error ("attention:file", "%s: %s must be a JSON object", where, what);
  endif
  for f = fieldnames (s)'
    x = s.(f{1});
    if (iscell (x) && iscellstr (x))
      s.(f{1}) = x(:)';
    elseif (isa (x, "double") && isempty (x))
      s.(f{1}) = {};                       # [] is an empty list of text
    elseif (! (ischar (x) || (isscalar (x) && (islogical (x) || isa (x, "double")))))
      error ("attention:file", "%s: %s.%s must be text, a logical, a number or a list of text",
             where, what, f{1});
    endif
  endfor
endfunction

%!test
%! s = struct ("a", "x y", "b", 3, "c", true, "d", {{"p", "q"}}, "e", "", "l", {{}}, "one", {{"w"}});
%! assert (file_meta_struct (file_meta_json (s, "S", "f"), "S", "here"), s);
%!error <here: S.x must be text> file_meta_struct ('{"x": [1, 2]}', "S", "here")
%!error <here: S.x must be text> file_meta_struct ('{"x": {"y": 1}}', "S", "here")
%!error <here: S.x must be text> file_meta_struct ('{"x": ["a", 1]}', "S", "here")
%!error <here: S must be a JSON object> file_meta_struct ('[1]', "S", "here")
