## v = file_json_decode (text, what, where): the JSON text decoded by
## jsondecode (object keys kept as written), after the checks jsondecode
## does not make: UTF-8, nesting at most 8 deep (deeper nesting crashes
## jsondecode), no NUL escape (jsondecode cuts a string there), no key twice
## in one object (jsondecode keeps the last).  A refusal is an
## attention:file error "WHERE: WHAT ...".
function v = file_json_decode (text, what, where)
  text = text(:)';
  if (! file_utf8 (text))
    error ("attention:file", "%s: %s is not UTF-8 text", where, what);
  endif
  [s, e] = string_spans (text);
  n = numel (text);
  inside = cumsum (accumarray ([s(:); e(:)+1], [ones(numel (s), 1); -ones(numel (e), 1)], [n+1, 1]))';
  inside = inside(1:n) > 0;
  step = (text == "{" | text == "[") - (text == "}" | text == "]");
  step(inside) = 0;
  depth = cumsum (step);
  if (any (depth > 8))
    error ("attention:file", "%s: %s is nested more than 8 levels deep", where, what);
  endif
  if (! isempty (regexp (text, '(?<!\\)(\\\\)*\\u0000', "once")))
    error ("attention:file", "%s: %s holds a NUL character (\\u0000)", where, what);
  endif
  try
    v = jsondecode (text, "makeValidName", false);
  catch err
    error ("attention:file", "%s: %s is not valid JSON (%s)", where, what,
           regexprep (err.message, '^jsondecode: ', ''));
  end_try_catch
  duplicate_keys (text, s, e, inside, depth, what, where);
endfunction

## the first and last index of every JSON string: quotes not escaped by an
## odd run of backslashes, taken in pairs
function [s, e] = string_spans (text)
  q = find (text == '"');
  plain = cummax ((1:numel (text)) .* (text != '\'));   # last index that is no backslash
  run = (q - 1) - plain(max (q - 1, 1));
  run(q == 1) = 0;
  q = q(mod (run, 2) == 0);
  q = q(1:2*floor (numel (q) / 2));
  s = q(1:2:end);
  e = q(2:2:end);
endfunction

## error if a key appears twice in one object: a key is a string followed
## by ':'; its object is the last '{' opened at its depth before it
function duplicate_keys (text, s, e, inside, depth, what, where)
  solid = find (! isspace (text));
  after = lookup (solid, e) + 1;
  iskey = after <= numel (solid);
  iskey(iskey) = text(solid(after(iskey))) == ":";
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
  keys = arrayfun (@(a, b) key_text (text(a:b)), s, e, "UniformOutput", false);
  tagged = cellfun (@(o, k) sprintf ("%d:%s", o, k), num2cell (owner), keys,
                    "UniformOutput", false);
  [~, first] = unique (tagged, "first");
  if (numel (first) < numel (keys))
    twice = setdiff (1:numel (keys), first);
    error ("attention:file", "%s: %s names \"%s\" twice", where, what, keys{twice(1)});
  endif
endfunction

function k = key_text (token)
  k = token(2:end-1);
  if (any (k == '\'))
    k = jsondecode (token);
  endif
endfunction

%!test
%! v = file_json_decode ('{"a.b": {"x": [1, 2]}, "c": "q\"}"}', "the header", "here");
%! assert (fieldnames (v), {"a.b"; "c"});
%! assert (v.("c"), 'q"}');
%!test
%! v = file_json_decode ('["\\", "a\\\"b"]', "the list", "here");
%! assert (v, {'\'; 'a\"b'});
%!error <here: the header names "a" twice> file_json_decode ('{"a": 1, "b": {"a": 2}, "a": 3}', "the header", "here")
%!error <names "a" twice> file_json_decode ('{"\u0061": 1, "a": 3}', "the header", "here")
%!error <names "x" twice> file_json_decode ('{"a": {"x": 1, "x": 2}}', "it", "here")
%!test
%! ## the same key in two objects is fine
%! v = file_json_decode ('{"a": {"x": 1}, "b": {"x": 2}, "c": "x"}', "it", "here");
%! assert (v.b.x, 2);
%!error <nested more than 8 levels> file_json_decode ([repmat("[", 1, 1e5), repmat("]", 1, 1e5)], "it", "here")
%!error <NUL character> file_json_decode ('{"a\u0000b": 1}', "it", "here")
%!error <not valid JSON> file_json_decode ('{"a": 1,}', "it", "here")
%!error <not valid JSON> file_json_decode ('{"a": 1} x', "it", "here")
%!error <not UTF-8> file_json_decode ("{\"a\": \"\xFF\"}", "it", "here")
%!error id=attention:file file_json_decode ('', "it", "here")
