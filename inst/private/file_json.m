## -*- texinfo -*-
## @deftypefn  {} {@var{v} =} file_json ("decode", @var{text}, @var{what}, @var{where})
## @deftypefnx {} {@var{v} =} file_json ("decode_other", @var{text}, @var{what}, @var{where})
## @deftypefnx {} {@var{txt} =} file_json ("encode_meta", @var{s}, @var{what}, @var{caller})
## @deftypefnx {} {@var{s} =} file_json ("decode_meta", @var{txt}, @var{what}, @var{where})
## The JSON of the package's files: read strictly, and the one definition
## of what a file's metadata may hold.
##
## @qcode{"decode"}: the JSON @var{text} decoded by @code{jsondecode}
## (object keys kept as written), after the checks @code{jsondecode} does
## not make: UTF-8, nesting at most 8 deep (deeper nesting crashes
## @code{jsondecode}), no NUL byte and no NUL escape (@code{jsondecode}
## ends the text or a string there), no key twice in one object
## (@code{jsondecode} keeps the last); and what the package's files never
## hold, since @code{jsondecode} would hide it: no @code{null} (read as
## @code{[]}, the empty list) and no list that holds a list or an object
## (@code{[[1],[2]]} is read as the list @code{[1, 2]}).
## A refusal is an @code{attention:file} error "@var{where}: @var{what}
## @dots{}".
##
## @qcode{"decode_other"}: JSON that other tools write (a tokenizer's
## files), checked as by @qcode{"decode"} but for the two rules of the
## package's own files: @code{null} and lists of lists or objects are
## allowed there.
##
## @qcode{"encode_meta"}: the scalar struct @var{s} of plain values as a
## JSON object: text (a char row), a logical scalar, an integer (printed
## here with @code{%d}, so exactly; @code{jsondecode} reads integers up to
## 2^53 exactly, but rounds other numbers) or a list of text (a cellstr
## row).  Any other value is an @code{attention:type} error naming
## @var{what}.field, so that nothing a file could not give back is written.
##
## @qcode{"decode_meta"}: that struct read back strictly from @var{txt}
## (as @qcode{"decode"}): a JSON object whose values are text, logicals,
## numbers or lists of text (as rows), no two of its keys the same but for
## case (options are matched ignoring case: @code{"D"} beside @code{"d"}
## would name one option twice).  Anything else is an
## @code{attention:file} error "@var{where}: @var{what} @dots{}".
## @end deftypefn

function v = file_json (action, x, what, who)
  switch (action)
    case "decode"
      v = decode_json (x, what, who, true);
    case "decode_other"
      v = decode_json (x, what, who, false);
    case "encode_meta"
      v = encode_meta (x, what, who);
    case "decode_meta"
      v = decode_meta (x, what, who);
  endswitch
endfunction

## OWN: the rules of the package's own files too.
function v = decode_json (text, what, where, own)
  text = text(:)';
  if (any (text == "\0"))
    error ("attention:file", "%s: %s holds a NUL byte (byte %d)", where, what,
           find (text == "\0", 1));
  endif
  if (! file_utf8 (text))
    error ("attention:file", "%s: %s is not UTF-8 text", where, what);
  endif
  [s, e] = string_spans (text);
  n = numel (text);
  edge = zeros (1, n + 1);
  edge(s) += 1;
  edge(e + 1) -= 1;
  inside = logical (cumsum (edge)(1:n));
  step = (text == "{" | text == "[") - (text == "}" | text == "]");
  step(inside) = 0;
  depth = cumsum (step);
  if (any (depth > 8))
    error ("attention:file", "%s: %s is nested more than 8 levels deep", where, what);
  endif
  if (nul_escape (text))
    error ("attention:file", "%s: %s holds a NUL character (\\u0000)", where, what);
  endif
  try
    v = jsondecode (text, "makeValidName", false);
  catch err
    error ("attention:file", "%s: %s is not valid JSON (%s)", where, what,
           regexprep (err.message, '^jsondecode: ', ''));
  end_try_catch
  outside = text(! inside);
  if (own && ! isempty (strfind (outside, "null")))
    error ("attention:file", "%s: %s holds null, which no value of the file may be", where, what);
  endif
  brackets = outside(any (outside == "[]{}"', 1));
  if (own && any (brackets(1:end-1) == "[" & any (brackets(2:end) == "[{"', 1)))
    error ("attention:file", "%s: %s has a list that holds a list or an object", where, what);
  endif
  duplicate_keys (text, s, e, inside, depth, what, where);
endfunction

## true if text holds the escape \u0000 (its backslash not itself escaped)
function yes = nul_escape (text)
  at = strfind (text, '\u0000');
  yes = any (mod (backslashes (text, at), 2) == 1);
endfunction

## the length of the run of backslashes that ends at each index at (0 where
## text(at) is no backslash)
function run = backslashes (text, at)
  b = find (text == '\');
  run = zeros (size (at));
  if (isempty (b))
    return;
  endif
  start = b([true, diff(b) > 1]);        # first index of each run
  k = lookup (start, at);
  in = k > 0 & ismember (at, b);
  run(in) = at(in) - start(k(in)) + 1;
endfunction

## the first and last index of every JSON string: quotes not escaped by an
## odd run of backslashes, taken in pairs
function [s, e] = string_spans (text)
  q = find (text == '"');
  q = q(mod (backslashes (text, q - 1 + (q == 1)) .* (q > 1), 2) == 0);
  q = q(1:2*floor (numel (q) / 2));
  s = q(1:2:end);
  e = q(2:2:end);
endfunction

## error if a key appears twice in one object: a key is a string followed
## by ':'; its object is the last '{' opened at its depth before it
function duplicate_keys (text, s, e, inside, depth, what, where)
  next = min (e + 1, numel (text));       # the first character after each string that is no blank
  for k = 1:4
    blank = isspace (text(next)) & next < numel (text);
    next(blank) += 1;
  endfor
  if (any (isspace (text(next))))
    solid = find (! isspace (text));
    next = solid(min (lookup (solid, e) + 1, numel (solid)));
  endif
  iskey = text(next) == ":" & next > e;
  s = s(iskey);
  e = e(iskey);
  if (numel (s) < 2)
    return;
  endif
  opens = find (text == "{" & ! inside);
  owner = zeros (size (s));
  for k = unique (depth(s))
    o = opens(depth(opens) == k);
    at = depth(s) == k;
    owner(at) = o(lookup (o, s(at)));
  endfor
  len = e - s - 1;                       # the keys' texts, all at once
  at = repelem (s + 1, len) + (1:sum (len)) - repelem (cumsum ([0, len(1:end-1)]), len) - 1;
  keys = mat2cell (text(at), 1, len);
  escaped = find (accumarray (repelem (1:numel (len), len)', text(at)' == '\', [numel(len), 1])');
  for i = escaped
    keys{i} = jsondecode (text(s(i):e(i)));
  endfor
  [~, ~, which] = unique (keys);
  [~, first] = unique ([owner(:), which(:)], "rows", "first");
  if (numel (first) < numel (keys))
    twice = setdiff (1:numel (keys), first);
    error ("attention:file", "%s: %s names \"%s\" twice", where, what, keys{twice(1)});
  endif
endfunction

function txt = encode_meta (s, what, caller)
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
    elseif (isa (x, "double") && isreal (x) && isscalar (x) && isfinite (x))
      v = real_text (x);
    elseif (iscellstr (x) && (isempty (x) || (rows (x) == 1 && all (cellfun ("size", x, 1) == 1 | cellfun ("isempty", x)))))
      v = jsonencode (x);                # a list of strings (["a"] for one)
    else
      error ("attention:type",
             "%s: %s.%s must be text, a logical, a finite number or a row of text to be saved, got %s",
             caller, what, names{i}, value_kind (x));
    endif
    items{i} = [jsonencode(names{i}) ":" v];
  endfor
  txt = ["{" strjoin(items, ",") "}"];
endfunction

## the fewest digits (15 to 17) that jsondecode reads back as x: it
## misreads some 17-digit texts by an ulp (9.9999999999999998e-13 is
## read as 1.0000000000000002e-12), though 17 digits are exact in theory
function v = real_text (x)
  for digits = 15:17
    v = sprintf ("%.*g", digits, x);
    if (jsondecode (v) == x)
      return;
    endif
  endfor
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

function s = decode_meta (txt, what, where)
  s = decode_json (txt, what, where, true);
  if (! isstruct (s) || ! isscalar (s))
    error ("attention:file", "%s: %s must be a JSON object", where, what);
  endif
  keys = fieldnames (s);
  [~, first, which] = unique (lower (keys), "first");
  twice = find (first(which) != (1:numel (keys))', 1);
  if (! isempty (twice))
    error ("attention:file", "%s: %s names \"%s\" and \"%s\", which differ only in case",
           where, what, keys{first(which(twice))}, keys{twice});
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
%! v = file_json ("decode", '{"a.b": {"x": [1, 2]}, "c": "q\"}"}', "the header", "here");
%! assert (fieldnames (v), {"a.b"; "c"});
%! assert (v.("c"), 'q"}');
%!test
%! v = file_json ("decode", '["\\", "a\\\"b"]', "the list", "here");
%! assert (v, {'\'; 'a\"b'});
%!error <here: the header names "a" twice> file_json ("decode", '{"a": 1, "b": {"a": 2}, "a": 3}', "the header", "here")
%!error <names "a" twice> file_json ("decode", '{"\u0061": 1, "a": 3}', "the header", "here")
%!error <names "x" twice> file_json ("decode", '{"a": {"x": 1, "x": 2}}', "it", "here")
%!test
%! ## the same key in two objects is fine
%! v = file_json ("decode", '{"a": {"x": 1}, "b": {"x": 2}, "c": "x"}', "it", "here");
%! assert (v.b.x, 2);
%!error <nested more than 8 levels> file_json ("decode", [repmat("[", 1, 1e5), repmat("]", 1, 1e5)], "it", "here")
%!error <NUL character> file_json ("decode", '{"a\u0000b": 1}', "it", "here")
%!error <here: it holds a NUL byte \(byte 9\)> file_json ("decode", "{\"a\": 1}\0\0", "it", "here")
%!error <here: it holds a NUL byte> file_json ("decode", "{\"a\0\": 1}", "it", "here")
%!error <here: it holds null> file_json ("decode", '{"a": null}', "it", "here")
%!error <holds null> file_json ("decode", '{"a": [1, null]}', "it", "here")
%!test
%! ## other tools' JSON may hold null and lists of lists
%! v = file_json ("decode_other", '{"a": null, "b": [["x", "y"], ["z", "w"]]}', "it", "here");
%! assert (isempty (v.a));
%! assert (v.b, {{"x"; "y"}; {"z"; "w"}});
%!error <here: it has a list that holds a list or an object> file_json ("decode", '{"a": [[1], [2]]}', "it", "here")
%!error <a list that holds> file_json ("decode", '{"a": [3, {"b": 1}]}', "it", "here")
%!error <a list that holds> file_json ("decode", '[[3]]', "it", "here")
%!test
%! ## n, [ and { inside strings are text
%! v = file_json ("decode", '{"null": ["[{", "n]"], "b": {"c": []}}', "it", "here");
%! assert (v.("null"), {"[{"; "n]"});
%!error <not valid JSON> file_json ("decode", '{"a": 1,}', "it", "here")
%!error <not valid JSON> file_json ("decode", '{"a": 1} x', "it", "here")
%!error <not UTF-8> file_json ("decode", "{\"a\": \"\xFF\"}", "it", "here")
%!error id=attention:file file_json ("decode", '', "it", "here")

%!assert (file_json ("encode_meta", struct ("a", "x y", "b", 3, "c", true, "d", {{"p", "q"}}), "S", "f"),
%!        '{"a":"x y","b":3,"c":true,"d":["p","q"]}')
%!assert (file_json ("encode_meta", struct ("n", -9007199254740992, "e", "", "l", {{}}), "S", "f"),
%!        '{"n":-9007199254740992,"e":"","l":[]}')
%!error <S.h must be text, a logical, a finite number or a row of text to be saved, got a function handle>
%! file_json ("encode_meta", struct ("h", @sin), "S", "f")
%!assert (file_json ("encode_meta", struct ("x", 0.1, "y", -1e-300), "S", "f"),
%!        '{"x":0.1,"y":-1e-300}')
%!error <S.x .* got the number Inf> file_json ("encode_meta", struct ("x", Inf), "S", "f")
%!error <got a 2×1 cell> file_json ("encode_meta", struct ("x", {{"a"; "b"}}), "S", "f")
%!error id=attention:type file_json ("encode_meta", struct ("x", NaN), "S", "f")
%!error id=attention:type file_json ("encode_meta", struct ("x", struct ()), "S", "f")

%!test
%! s = struct ("a", "x y", "b", 3, "c", true, "d", {{"p", "q"}}, "e", "", "l", {{}}, "one", {{"w"}});
%! assert (file_json ("decode_meta", file_json ("encode_meta", s, "S", "f"), "S", "here"), s);
%!error <here: S.x must be text> file_json ("decode_meta", '{"x": [1, 2]}', "S", "here")
%!error <here: S.x must be text> file_json ("decode_meta", '{"x": {"y": 1}}', "S", "here")
%!error <here: S.x must be text> file_json ("decode_meta", '{"x": ["a", 1]}', "S", "here")
%!error <here: S must be a JSON object> file_json ("decode_meta", '[1]', "S", "here")
%!error <here: S names "d" and "D", which differ only in case> file_json ("decode_meta", '{"d": 3, "x": 1, "D": 4}', "S", "here")
%!error <names "Ab" and "aB"> file_json ("decode_meta", '{"Ab": "x", "aB": "y"}', "S", "here")
%!test
%! ## a config's real numbers are read back as the same doubles
%! x = [1e-12, 1e-5, 1e-6, 0.1, 1/3, pi * 1e-7, 500.25];
%! for k = 1:numel (x)
%!   s = file_json ("decode_meta", file_json ("encode_meta", struct ("e", x(k)), "C", "f"), "C", "here");
%!   assert (s.e, x(k));
%! endfor
