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
