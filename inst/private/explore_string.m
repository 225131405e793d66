## -*- texinfo -*-
## @deftypefn {} {@var{s} =} explore_string (@var{text})
## A JavaScript string literal of @var{text} (a char row, or a cellstr for
## an array literal) that is safe inside an HTML @code{<script>} element:
## quotes, backslash, @code{<}, @code{>}, @code{&} and control characters
## are written as @code{\uXXXX}, so no word (@code{</script>}, a quote)
## can end the string or the script.  Bytes of UTF-8 characters pass
## unchanged.
## @end deftypefn

function s = explore_string (text)
  if (iscell (text))
    parts = cellfun (@literal, text, "uniformoutput", false);
    s = ["[" strjoin(parts(:)', ",") "]"];
  else
    s = literal (text);
  endif
endfunction

function s = literal (text)
  persistent unsafe
  if (isempty (unsafe))
    unsafe = false (1, 256);
    unsafe([1:32, 128, double("\"'\\<>&/")+1]) = true;
  endif
  text = char (text(:)');
  bad = unsafe(double (text) + 1);
  if (! any (bad))
    s = ["\"" text "\""];
    return;
  endif
  parts = num2cell (text);
  parts(bad) = strsplit (sprintf ("\\u%04x\n", double (text(bad))), "\n")(1:end-1);
  s = ["\"" parts{:} "\""];
endfunction

%!assert (explore_string ("la rive"), "\"la rive\"")
%!assert (explore_string ("</script>"), "\"\\u003c\\u002fscript\\u003e\"")
%!assert (explore_string ("a\"b\\c\n"), "\"a\\u0022b\\u005cc\\u000a\"")
%!assert (explore_string ({"a", "b"}), "[\"a\",\"b\"]")
%!assert (explore_string ({}), "[]")
%!assert (explore_string (""), "\"\"")
%!test
%! ## what JavaScript would read back: each \uXXXX is the character
%! w = "<b onclick='x'>&amp;\"é";
%! s = explore_string (w);
%! assert (isempty (regexp (s(2:end-1), "[<>&'\"]", "once")));
%! [hex, plain] = regexp (s(2:end-1), '\\u([0-9a-f]{4})', "tokens", "split");
%! back = plain{1};
%! for k = 1:numel (hex)
%!   back = [back, char(hex2dec (hex{k}{1})), plain{k+1}];
%! endfor
%! assert (double (back), double (w));
