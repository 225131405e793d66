## [words, starts] = text_words (text): the words of a char row TEXT, the
## runs of bytes that are not ASCII white space (space, \t, \n, \v, \f,
## \r), as a 1×k cell, and the byte where each one starts (1×k): what
## regexp (text, '\S+', "match", "start") gives for UTF-8 text, with one
## pass over the bytes instead of an Octave value per match.  With words
## ignored ([~, starts] = ...) only the starts are found.
function [words, starts] = text_words (text)
  text = reshape (text, 1, []);                 # "" is 0×0
  gap = isspace (text);
  starts = find (! gap & [true, gap(1:end-1)]);
  words = {};
  if (isargout (1))
    ends = find (! gap & [gap(2:end), true]);
    words = mat2cell (text(! gap), 1, ends - starts + 1);
  endif
endfunction

## the same words and starts as regexp on text of every ASCII space, UTF-8
## letters of 2 to 4 bytes, a no-break space (a letter here, as for regexp),
## and no word at all
%!test
%! rand ("seed", 4);
%! pieces = {" ", "\t", "\n", "\v", "\f", "\r", "a", "bc", "é", "中", "😀", "\xC2\xA0", "x1"};
%! for k = 1:40
%!   text = [pieces{randi(numel (pieces), 1, randi ([0 30]))}, ""];
%!   [w, s] = regexp (text, '\S+', "match", "start");
%!   [words, starts] = text_words (text);
%!   assert (isequal (words, w) && isequal (starts, s), sprintf ("text %d: \"%s\"", k, text));
%!   [~, starts] = text_words (text);
%!   assert (isequal (starts, s));
%! endfor
%! assert (isequal (text_words (""), cell (1, 0)));
%! assert (isequal (text_words ("  \t "), cell (1, 0)));
