## ok = file_utf8 (text): true if the bytes of text (char or uint8) are
## well-formed UTF-8: no stray continuation bytes, no cut sequences, no
## overlong forms, no surrogates, nothing beyond U+10FFFF.
function ok = file_utf8 (text)
  b = double (text(:)');
  n = numel (b);
  if (all (b < 128))
    ok = true;
    return;
  endif
  cont = b >= 128 & b < 192;
  len = 1 * (b < 128) + 2 * (b >= 194 & b <= 223) + 3 * (b >= 224 & b <= 239) ...
        + 4 * (b >= 240 & b <= 244);
  lead = find (len > 1);
  ## the positions each lead byte claims as its continuation bytes
  claim = zeros (1, n + 3);
  for k = 1:3
    with = lead(len(lead) > k);
    claim(with + k) += 1;
  endfor
  ok = all (len > 0 | cont) && isequal (claim(1:n) == 1, cont) && ! any (claim(n+1:end));
  if (ok)
    second = [b(2:end), 0];              # the byte after each lead
    ok = ! any ((b == 224 & second < 160) | (b == 237 & second > 159)
                | (b == 240 & second < 144) | (b == 244 & second > 143));
  endif
endfunction

%!assert (file_utf8 ("plain ascii"))
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
