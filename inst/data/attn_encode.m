## -*- texinfo -*-
## @deftypefn  {} {@var{ids} =} attn_encode (@var{v}, @var{sentence})
## @deftypefnx {} {@var{ids} =} attn_encode (@var{v}, @var{sentence}, "strict")
## Token ids of a sentence in an attention vocabulary. Token ids (1×n) of a
## sentence in vocabulary @var{v}.
##
## @var{sentence} is a string of space-separated words, a cell array of
## words, or already a vector of ids (checked and returned as a row).  No
## special token is added.  A word not in @var{v} becomes @code{<unk>}; with
## @qcode{"strict"}, or when @var{v} has no @code{<unk>}, it raises an
## @code{attention:vocab} error that names the word.  Text must be UTF-8:
## other bytes are an @code{attention:encoding} error giving the first bad
## byte's position (every function that takes sentences reads them through
## here, and names itself in the error).
##
## @example
## @group
## v = attn_vocab ("the river bank");
## mat2str (attn_encode (v, "the bank"))
##   @result{} ans = [5 7]
## mat2str (attn_encode (v, "the sea"))      # <unk> is 2
##   @result{} ans = [5 2]
## @end group
## @end example
## @seealso{attn_vocab, attn_decode}
## @end deftypefn

function ids = attn_encode (v, sentence, mode = "")
  if (nargin < 2)
    print_usage ();
  endif
  check_vocab (v, "attn_encode");
  strict = ischar (mode) && strcmp (mode, "strict");
  if (! strict && ! (ischar (mode) && isempty (mode)))
    error ("attention:option", "attn_encode: the third argument must be \"strict\", got %s",
           disp_arg (mode));
  endif
  V = numel (v.words);
  if (isnumeric (sentence))
    ids = double (sentence(:)');
    bad = find (ids != fix (ids) | ids < 1 | ids > V, 1);
    if (! isreal (sentence) || ! isempty (bad))
      error ("attention:vocab",
             "attn_encode: SENTENCE ids must be integers in 1..%d, got %g at position %d",
             V, real (ids(bad)), bad);
    endif
    return;
  endif
  if (ischar (sentence) && rows (sentence) <= 1)
    file_utf8 (sentence, "attn_encode", "SENTENCE");
    words = text_words (sentence);
  elseif (iscellstr (sentence))
    words = sentence(:)';
    if (! all ([words{:}] < 128) && ! file_utf8 (strjoin (words, " ")))   # ASCII: nothing to do
      k = find (! cellfun (@file_utf8, words), 1);
      file_utf8 (words{k}, "attn_encode", sprintf ("word %d of SENTENCE", k));
    endif
  else
    error ("attention:type",
           "attn_encode: SENTENCE must be a string, a cell array of words or ids, got %s",
           disp_arg (sentence));
  endif
  [sorted, order] = sorted_words (v.words);
  at = reshape (lookup (sorted, words, "m"), 1, numel (words));   # 1×0 for an empty sentence
  known = at > 0;
  ids = zeros (size (at));
  ids(known) = order(at(known));
  unknown = find (! known, 1);
  if (! isempty (unknown))
    if (strict || v.unk == 0)
      w = words{unknown};
      other = v.words(strcmpi (v.words, w));    # the same word in other capitals
      hint = "words are case sensitive";
      if (! isempty (other))
        hint = sprintf ("%s: \"%s\" is in it", hint, other{1});
      endif
      error ("attention:vocab",
             "attn_encode: unknown word \"%s\" (position %d) is not in the vocabulary of %d words (%s)",
             w, unknown, V, hint);
    endif
    ids(! known) = v.unk;
  endif
endfunction

## the words of a vocabulary sorted, and their ids; the last few
## vocabularies are kept, so that a sentence costs one binary search per
## word (lookup) and no sort
function [sorted, order] = sorted_words (words)
  [found, kept] = memo ("sorted words", words);
  if (found)
    [sorted, order] = kept{:};
  else
    [sorted, order] = sort (words);
    memo ("sorted words", words, {sorted, order});
  endif
endfunction

%!shared v
%! v = attn_vocab ("the river bank");
%!assert (attn_encode (v, "the bank"), [5 7])
%!assert (attn_encode (v, {"bank", "river"}), [7 6])
%!assert (attn_encode (v, "the sea"), [5 2])
%!assert (attn_encode (v, [7; 6]), [7 6])
%!assert (attn_encode (v, ""), zeros (1, 0))
%!error <unknown word "sea"> attn_encode (v, "the sea", "strict")
%!error id=attention:vocab attn_encode (v, "the sea", "strict")
%!error id=attention:vocab attn_encode (attn_vocab ("a", {}), "b")
%!error id=attention:vocab attn_encode (v, [1 99])
%!error id=attention:vocab attn_encode (v, 1.5)
%!error id=attention:type attn_encode (v, {1})
%!error id=attention:option attn_encode (v, "the", "lenient")
%!error id=attention:option attn_encode (v, "the", 3)
%!error <the third argument must be "strict", got> attn_encode (v, "the", {})
%!error id=attention:option attn_encode (v, "the", {"strict"})
%!error id=attention:option attn_encode (v, [1 2], {})
%!error id=attention:type attn_encode (v, ["ab"; "cd"])
%!error <attn_encode: SENTENCE is not UTF-8 text: byte 5 \(0xC3\) after "the "> attn_encode (v, "the \xC3 bank")
%!error <attn_encode: word 1 of SENTENCE is not UTF-8 text: byte 4 \(0xC3\) after "the"> attn_encode (v, {"the\xC3", "\xA9"})
%!error <word 2 of SENTENCE is not UTF-8 text: byte 1 \(0xA9\) after ""> attn_encode (v, {"the", "\xA9"})
%!assert (attn_encode (v, {"caf\xC3\xA9", "bank"}), [2 7])
## the ids are the words' places in the vocabulary (ismember's), for
## vocabularies met in turn (each one's sorted words kept) and unknown words
%!test
%! rand ("seed", 2);
%! pool = arrayfun (@(i) char ("a" + randi (26, 1, randi (4)) - 1), 1:300, "UniformOutput", false);
%! pool = unique (pool);
%! for k = 1:6
%!   vk = attn_vocab (pool(randperm (numel (pool), 40)));
%!   words = pool(randi (numel (pool), 1, 30));
%!   [known, want] = ismember (words, vk.words);
%!   want(! known) = vk.unk;
%!   assert (attn_encode (vk, words), want);
%!   assert (attn_encode (v, "bank the"), [7 5]);
%! endfor
%! w = {"été", "ça", "zèbre", "a", "Été", "中文", "é", "e", "z", "ü"};
%! vu = attn_vocab (w);
%! s = w([3 1 6 10 2 7 8 9 4 5]);
%! [~, want] = ismember (s, vu.words);
%! assert (attn_encode (vu, s), want);
%! assert (attn_encode (vu, strjoin (s, " ")), want);
