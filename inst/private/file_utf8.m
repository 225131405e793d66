## [ok, at] = file_utf8 (text): true if the bytes of text (char or uint8)
## are well-formed UTF-8: no stray continuation bytes, no cut sequences, no
## overlong forms, no surrogates, nothing beyond U+10FFFF.  at is the
## position of the first byte that starts no valid character (0 when ok),
## bad (1×n logical) marks every such byte.
## file_utf8 (text, caller, name): the same check where text enters the
## package; bad bytes are an attention:encoding error naming the function
## the user called, the argument, the byte and the text before it.
function [ok, at, bad] = file_utf8 (text, caller, name)
  at = 0;
  ok = all (text(:) < 128);
  if (ok)
    bad = false (1, numel (text));
    return;
  endif
  if (nargin == 3)
    [ok, at] = file_utf8 (text);
    if (! ok)
      before = text(max (1, at - 24):at-1);
      before = before(find (before < 128 | before >= 192, 1):end);   # whole characters
      error ("attention:encoding",
             "%s: %s is not UTF-8 text: byte %d (0x%02X) after \"%s\" starts no valid character",
             caller, name, at, double (text(at)), before);
    endif
    return;
  endif
  b = double (text(:)');
  n = numel (b);
  cont = b >= 128 & b < 192;
  len = 1 * (b < 128) + 2 * (b >= 194 & b <= 223) + 3 * (b >= 224 & b <= 239) ...
        + 4 * (b >= 240 & b <= 244);
  lead = find (len > 1);
  ## a lead byte is bad when a byte it claims is missing or no continuation
  ## and claims the continuation bytes that follow it without a break
  claimed = false (1, n);
  cut = false (size (lead));
  for k = 1:3
    with = find (len(lead) > k & ! cut);     # leads of more than k bytes, unbroken so far
    at_k = lead(with) + k;
    in = at_k <= n;
    cut(with(! in)) = true;
    at_k = at_k(in);
    cut(with(in)) |= ! cont(at_k);
    claimed(at_k(cont(at_k))) = true;
  endfor
  second = [b(2:end), 0];                    # the byte after each lead
  wrong = ((b == 224 & second < 160) | (b == 237 & second > 159)
           | (b == 240 & second < 144) | (b == 244 & second > 143));
  bad = (len == 0 & ! cont) | (cont & ! claimed) | wrong;
  bad(lead(cut)) = true;
  at = find (bad, 1);
  ok = isempty (at);
  if (ok)
    at = 0;
  endif
endfunction

%!assert (file_utf8 ("plain ascii"))
%!test
%! ## a stray continuation byte after a cut character is bad too
%! [~, at, bad] = file_utf8 ("A \xE2 \x98 B");
%! assert (at, 3);
%! assert (find (bad), [3 5]);
%!assert (file_utf8 ("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"))
%!assert (file_utf8 (uint8 ([])))
%!assert (! file_utf8 ("\xFF"))
%!assert (! file_utf8 ("caf\xC3"))                  # cut short
%!assert (! file_utf8 ("\x80abc"))                  # stray continuation
%!assert (! file_utf8 ("\xC0\xAF"))                 # overlong "/"
%!assert (! file_utf8 ("\xE0\x80\xAF"))             # overlong, 3 bytes
%!assert (! file_utf8 ("\xED\xA0\x80"))             # a surrogate
%!assert (! file_utf8 ("\xF4\x90\x80\x80"))         # beyond U+10FFFF
%!assert (! file_utf8 ("\xE2\x82a"))                # continuation missing
%!test
%! ## every code point's encoding by unicode2native is accepted
%! c = [65, 233, 8364, 55295, 57344, 65533, 128512, 1114111];
%! for u = c
%!   if (u < 128)
%!     s = char (u);
%!   elseif (u < 2048)
%!     s = char ([192 + floor(u/64), 128 + mod(u, 64)]);
%!   elseif (u < 65536)
%!     s = char ([224 + floor(u/4096), 128 + mod(floor(u/64), 64), 128 + mod(u, 64)]);
%!   else
%!     s = char ([240 + floor(u/262144), 128 + mod(floor(u/4096), 64), ...
%!                128 + mod(floor(u/64), 64), 128 + mod(u, 64)]);
%!   endif
%!   assert (file_utf8 (s), true, sprintf ("U+%X", u));
%! endfor
%!error <f: SENTENCE is not UTF-8 text: byte 4 \(0xC3\) after "caf" starts> file_utf8 ("caf\xC3 x", "f", "SENTENCE")
%!error id=attention:encoding file_utf8 ("\xFF", "f", "SENTENCE")
%!test
%! file_utf8 ("caf\xC3\xA9", "f", "SENTENCE");
%!test
%! ## every byte that starts no valid character
%! [~, ~, bad] = file_utf8 (char ([97 195 169 128 98 226 130]));
%! assert (bad, logical ([0 0 0 1 0 1 0]));   # a cut character: its lead
%! [~, ~, bad] = file_utf8 ("ab");
%! assert (bad, [false false]);
%!test
%! ## the first byte that starts no valid character
%! [ok, at] = file_utf8 ("caf\xC3 x");
%! assert ([ok, at], [false, 4]);
%! [ok, at] = file_utf8 ("ab\xE2\x82\xAC\x80");
%! assert ([ok, at], [false, 6]);
%! [ok, at] = file_utf8 ("\xC3\xA9\xF0\x9F\x98");
%! assert ([ok, at], [false, 3]);
%! [ok, at] = file_utf8 ("x\xED\xA0\x80");
%! assert ([ok, at], [false, 2]);
%! [ok, at] = file_utf8 ("caf\xC3\xA9");
%! assert ([ok, at], [true, 0]);
