## txt = file_meta_json (s, what, caller): a scalar struct of plain values
## as a JSON object, for a file's metadata: text (a char row), a logical
## scalar, an integer (printed here with %d, so exactly; jsondecode reads
## integers up to 2^53 exactly, but rounds other numbers) or a list of text
## (a cellstr row).  Any other value is an attention:type error naming
## WHAT.field, so that nothing a file could not give back is written.
## file_meta_struct reads the text back.
function txt = file_meta_json (s, what, caller)
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
    k = sprintf ("a %s %s", strjoin (arrayfun (@num2str, size (x), "UniformOutput", false), "×"), class (x));
  endif
endfunction

%!assert (file_meta_json (struct ("a", "x y", "b", 3, "c", true, "d", {{"p", "q"}}), "S", "f"),
%!        '{"a":"x y","b":3,"c":true,"d":["p","q"]}')
%!assert (file_meta_json (struct ("n", -9007199254740992, "e", "", "l", {{}}), "S", "f"),
%!        '{"n":-9007199254740992,"e":"","l":[]}')
%!error <S.h must be text, a logical, an integer or a row of text to be saved, got a function handle>
%! file_meta_json (struct ("h", @sin), "S", "f")
%!error <S.x .* got the number 0.5> file_meta_json (struct ("x", 0.5), "S", "f")
%!error <got a 2×1 cell> file_meta_json (struct ("x", {{"a"; "b"}}), "S", "f")
%!error id=attention:type file_meta_json (struct ("x", NaN), "S", "f")
%!error id=attention:type file_meta_json (struct ("x", struct ()), "S", "f")
