## [first, which] = tok_words (text, starts, ends): the distinct words among
## the byte spans text(starts(k):ends(k)) (1×n each, in order, not
## overlapping, every span at least one byte): word k of the text is the
## same bytes as word first(which(k)), and the words first(1), first(2),
## ... are distinct.  The tokenizers segment
## each distinct word once (a text of 1 MB has about 200,000 words and a few
## ten thousand distinct ones).
##
## Words are grouped by a hash of their bytes (the sum of a number drawn for
## the byte times a number drawn for its place in the word: the same bytes
## always give the same sum), sorted once; every word is then compared byte
## by byte with its group's first word, and the few words whose bytes differ
## (hash collisions) are grouped again by unique, so the grouping is exact.
function [first, which] = tok_words (text, starts, ends)
  n = numel (starts);
  if (n == 0)
    first = which = zeros (1, 0);
    return;
  endif
  len = ends - starts + 1;
  ## the word of each byte in a word, and its place in the word (from 1)
  edge = zeros (1, numel (text) + 1);
  edge(starts) = 1;
  edge(ends + 1) -= 1;
  idx = find (cumsum (edge(1:end-1)));            # the bytes of the words, in order
  word = zeros (1, numel (text));
  word(starts) = 1;
  word = cumsum (word)(idx);
  pos = idx - starts(word) + 1;
  bytes = text(idx);
  weight = mod ((1:max (len)) * 40503 + 7, 2^20 - 3) + 2^20;
  value = mod ((1:256) * 2654435761, 2^21 - 9) + 2^20;
  key = accumarray (word', value(double (bytes) + 1) .* weight(pos))';
  [key, order] = sort (key);                      # stable: a group's first word first
  starts_group = [true, diff(key) != 0];
  which(order) = cumsum (starts_group);
  first = order(starts_group);
  ## exact check: every byte against the same byte of its group's first word
  differ = bytes != text(starts(first(which(word))) + pos - 1);
  bad = unique (word(differ));
  if (! isempty (bad))
    [~, again, group] = unique (cellslices (text, starts(bad), ends(bad), 2));
    which(bad) = numel (first) + group;
    first = [first, bad(again)];
  endif
endfunction

%!test
%! text = "the cat the dog cat the";
%! [s, e] = regexp (text, '\S+', "start", "end");
%! [first, which] = tok_words (text, s, e);
%! assert (numel (first), 3);
%! words = arrayfun (@(k) text(s(k):e(k)), 1:numel (s), "uniformoutput", false);
%! assert (words(first(which)), words);
%!test
%! [first, which] = tok_words ("", zeros (1, 0), zeros (1, 0));
%! assert (isempty (first) && isempty (which));
%!test
%! ## many random words over a small alphabet: the grouping equals unique's
%! rand ("seed", 7);
%! text = char ("ab\xC3\xA9"(randi (4, 1, 20000)));
%! cuts = unique ([0, sort(randi (19999, 1, 5000)), 20000]);
%! s = cuts(1:end-1) + 1;
%! e = cuts(2:end);
%! [first, which] = tok_words (text, s, e);
%! words = arrayfun (@(k) text(s(k):e(k)), 1:numel (s), "uniformoutput", false);
%! assert (numel (first), numel (unique (words)));
%! assert (words(first(which)), words);
