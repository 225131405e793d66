## [cp, first] = tok_utf8 ("decode", text): the code points (1×n double) of
## the UTF-8 char row TEXT (valid UTF-8, checked by the caller) and the byte
## where each character starts.
## [text, nbytes] = tok_utf8 ("encode", cp): the UTF-8 char row of the code
## points CP and the byte length of each one.
## n = tok_utf8 ("count", c): the number of characters of each string of
## the cell C (valid UTF-8).  ok = tok_utf8 ("valid", c): whether each
## string of C is UTF-8 on its own.
## The tokenizers' one UTF-8 codec, vectorised over the whole text.
function [out, aux] = tok_utf8 (action, x)
  switch (action)
    case "decode"
      [out, aux] = decode (x);
    case "encode"
      [out, aux] = encode (x);
    case "count"
      joined = [x{:}, ""];
      lead = bitand (double (joined), 192) != 128;
      out = accumarray (tok_repeat (cellfun ("length", x))', lead', [numel(x), 1])';
    case "valid"
      ## the strings side by side with a space between, so that no
      ## character spans two
      len = cellfun ("length", x);
      owner = tok_repeat (len);
      spaced = repmat (" ", 1, sum (len) + numel (x));
      spaced((1:sum (len)) + owner) = [x{:}];
      [~, ~, bad] = file_utf8 (spaced);
      out = true (size (x));
      out(owner(bad((1:sum (len)) + owner))) = false;
  endswitch
endfunction

function [cp, first] = decode (text)
  b = double (reshape (text, 1, []));
  first = find (b < 128 | b >= 192);
  cp = b(first);
  len = 1 + (cp >= 192) + (cp >= 224) + (cp >= 240);
  b(end+1:end+3) = 128;                  # continuation bytes to read past the end
  for n = 2:4                            # characters of n bytes
    k = find (len == n);
    at = first(k);
    c = cp(k) - [0, 0, 192, 224, 240](n + 1);
    for j = 1:n-1
      c = c * 64 + b(at + j) - 128;
    endfor
    cp(k) = c;
  endfor
endfunction

function [text, nbytes] = encode (cp)
  cp = double (reshape (cp, 1, []));
  nbytes = 1 + (cp >= 128) + (cp >= 2048) + (cp >= 65536);
  ## column k holds the bytes of cp(k), first byte in row 1, unused rows NaN
  B = NaN (4, numel (cp));
  one = nbytes == 1;
  B(1, one) = cp(one);
  for n = 2:4
    k = nbytes == n;
    c = cp(k);
    for r = n:-1:2
      B(r, k) = 128 + mod (c, 64);
      c = floor (c / 64);
    endfor
    B(1, k) = c + [0, 0, 192, 224, 240](n + 1);
  endfor
  text = char (B(! isnan (B))');
endfunction

%!test
%! t = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80z";
%! [cp, first] = tok_utf8 ("decode", t);
%! assert (cp, [97, 233, 8364, 128512, 122]);
%! assert (first, [1, 2, 4, 7, 11]);
%! [back, n] = tok_utf8 ("encode", cp);
%! assert (back, t);
%! assert (n, [1 2 3 4 1]);
%!test
%! [cp, first] = tok_utf8 ("decode", "");
%! assert (isempty (cp) && isempty (first));
%! assert (tok_utf8 ("encode", []), char (zeros (1, 0)));
%!assert (tok_utf8 ("count", {"ab", "", "\xC3\xA9\xF0\x9F\x98\x80"}), [2 0 2])
%!assert (tok_utf8 ("valid", {"ab", "\xC3", "", "\xA9x", "\xC3\xA9"}), [true false true false true])
%!test
%! ## every plane's first and last code points round-trip
%! cp = [0 127 128 2047 2048 65535 65536 1114111];
%! assert (tok_utf8 ("decode", tok_utf8 ("encode", cp)), cp);
