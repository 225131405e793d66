## -*- texinfo -*-
## @deftypefn  {} {@var{txt} =} file_meta ("encode", @var{s}, @var{what}, @var{caller})
## @deftypefnx {} {@var{s} =} file_meta ("decode", @var{txt}, @var{what}, @var{where})
## A file's metadata struct as JSON text and back: the one definition of
## what a file's metadata may hold.
##
## @qcode{"encode"}: the scalar struct @var{s} of plain values as a JSON
## object: text (a char row), a logical scalar, an integer (printed here
## with @code{%d}, so exactly; @code{jsondecode} reads integers up to 2^53
## exactly, but rounds other numbers) or a list of text (a cellstr row).
## Any other value is an @code{attention:type} error naming
## @var{what}.field, so that nothing a file could not give back is written.
##
## @qcode{"decode"}: the struct read back strictly from @var{txt}
## (@code{file_json_decode}): a JSON object whose values are text,
## logicals, numbers or lists of text (as rows).  Anything else is an
## @code{attention:file} error "@var{where}: @var{what} @dots{}".
## @end deftypefn

function v = file_meta (action, x, what, who)
  switch (action)
    case "encode"
      v = encode (x, what, who);
    case "decode"
      v = decode (x, what, who);
  endswitch
endfunction

function txt = encode (s, what, caller)
  if (! isstruct (s) || ! isscalar (s))
    error ("attention:type", "%s: %s must be a scalar struct, got %s", caller, what, class (s));
  endif
  names = fieldnames (s)';
  items = cell (size (names));
  for i = 1:numel (names)
    x = s.(names{i});
    if (ischar (x) && (rows (x) == 1 || isempty (x)))
      v = jsonencode (x(:)');
    elseif (islogical (x) && isscalar (x))
      v = jsonencode (x);
    elseif (isa (x, "double") && isreal (x) && isscalar (x) && x == fix (x) && abs (x) <= flintmax ())
      v = sprintf ("%d", x);
    elseif (iscellstr (x) && (isempty (x) || (rows (x) == 1 && all (cellfun ("rows", x) == 1 | cellfun ("isempty", x)))))
      v = jsonencode (x);                # a list of strings (["a"] for one)
    else
      error ("attention:type",
             "%s: %s.%s must be text, a logical, an integer or a row of text to be saved, got %s",
             caller, what, names{i}, value_kind (x));
    endif
    items{i} = [jsonencode(names{i}) ":" v];
  endfor
  txt = ["{" strjoin(items, ",") "}"];
endfunction

function k = value_kind (x)
  if (is_function_handle (x))
    k = "a function handle";
  elseif (isnumeric (x) && isscalar (x))
    k = sprintf ("the number %s", num2str (x, 17));
  else
    k = sprintf ("a %s %s", shape_str (size (x)), class (x));
  endif
endfunction

function s = decode (txt, what, where)
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

%!assert (file_meta ("encode", struct ("a", "x y", "b", 3, "c", true, "d", {{"p", "q"}}), "S", "f"),
%!        '{"a":"x y","b":3,"c":true,"d":["p","q"]}')
%!assert (file_meta ("encode", struct ("n", -9007199254740992, "e", "", "l", {{}}), "S", "f"),
%!        '{"n":-9007199254740992,"e":"","l":[]}')
%!error <S.h must be text, a logical, an integer or a row of text to be saved, got a function handle>
%! file_meta ("encode", struct ("h", @sin), "S", "f")
%!error <S.x .* got the number 0.5> file_meta ("encode", struct ("x", 0.5), "S", "f")
%!error <got a 2×1 cell> file_meta ("encode", struct ("x", {{"a"; "b"}}), "S", "f")
%!error id=attention:type file_meta ("encode", struct ("x", NaN), "S", "f")
%!error id=attention:type file_meta ("encode", struct ("x", struct ()), "S", "f")

%!test
%! s = struct ("a", "x y", "b", 3, "c", true, "d", {{"p", "q"}}, "e", "", "l", {{}}, "one", {{"w"}});
%! assert (file_meta ("decode", file_meta ("encode", s, "S", "f"), "S", "here"), s);
%!error <here: S.x must be text> file_meta ("decode", '{"x": [1, 2]}', "S", "here")
%!error <here: S.x must be text> file_meta ("decode", '{"x": {"y": 1}}', "S", "here")
%!error <here: S.x must be text> file_meta ("decode", '{"x": ["a", 1]}', "S", "here")
%!error <here: S must be a JSON object> file_meta ("decode", '[1]', "S", "here")
