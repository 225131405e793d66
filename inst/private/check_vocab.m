## check_vocab (v, fname): error attention:type unless v is a vocabulary
## struct from attn_vocab (the cheap look of every call).
## check_vocab (v, fname, name): the full check, where a vocabulary enters
## a model (check_config, model files): a struct of exactly words (a row of
## distinct UTF-8 text without NUL bytes), pad, unk, bos, eos (integer ids in
## 0..numel (words), 0 = absent, distinct unless 0, but bos and eos may be
## one token, as GPT-2's <|endoftext|> is); attention:vocab errors
## (attention:encoding for bad bytes) naming fname and name.  The last two
## rows of words that passed are kept and pass again at the cost of one
## strcmp (a model's vocabulary of 100k words is checked by several callers
## of one save or load).
function check_vocab (v, fname, name)
  if (nargin < 3)
    if (! isstruct (v) || ! isscalar (v) || ! isfield (v, "words")
        || ! iscellstr (v.words) || ! all (isfield (v, {"pad", "unk", "bos", "eos"})))
      error ("attention:type",
             "%s: V must be a vocabulary struct from attn_vocab (words, pad, unk, bos, eos), got %s",
             fname, class (v));
    endif
    return;
  endif
  ids = {"pad", "unk", "bos", "eos"};
  if (! isstruct (v) || ! isscalar (v) || ! isempty (setxor (fieldnames (v), [{"words"}, ids])))
    error ("attention:vocab",
           "%s: %s must be a vocabulary struct of exactly words, pad, unk, bos, eos", fname, name);
  endif
  w = v.words;
  if (! iscellstr (w) || isempty (w) || rows (w) != 1
      || ! all (cellfun ("size", w, 1) == 1 | cellfun ("isempty", w)))
    error ("attention:vocab", "%s: %s.words must be a row of text, got %s",
           fname, name, disp_arg (w));
  endif
  got = zeros (1, 4);
  for i = 1:4
    x = v.(ids{i});
    if (! isa (x, "double") || ! isreal (x) || ! isscalar (x) || x != fix (x)
        || x < 0 || x > numel (w))
      error ("attention:vocab", "%s: %s.%s must be an integer id in 0..%d (0 = absent), got %s",
             fname, name, ids{i}, numel (w), disp_arg (x));
    endif
    got(i) = x;
  endfor
  shared = got(3) == got(4);                 # one token may start and end text
  used = got(got > 0 & [true, true, true, ! shared]);
  if (numel (unique (used)) < numel (used))
    error ("attention:vocab", "%s: %s gives one id to two of pad, unk, bos, eos, other than bos and eos (%s)",
           fname, name, mat2str (got));
  endif
  if (memo ("vocabularies", w))            # passed before: a model's vocabulary is
    return;                                 # checked by several callers
  endif
  bytes = [w{:}];
  if (! all (bytes < 128))
    joined = [w; repmat({" "}, size (w))];   # a space ends each word: a cut character shows
    if (! file_utf8 ([joined{:}]))
      k = find (! cellfun (@file_utf8, w), 1);
      file_utf8 (w{k}, fname, sprintf ("%s.words{%d}", name, k));
    endif
  endif
  if (any (bytes == "\0"))
    k = find (cellfun (@(x) any (x == "\0"), w), 1);
    error ("attention:vocab",
           "%s: %s.words{%d} holds a NUL byte, which a word of a model file cannot hold (other control characters can)",
           fname, name, k);
  endif
  sorted = sort (w);
  twice = find (strcmp (sorted(1:end-1), sorted(2:end)), 1);
  if (! isempty (twice))
    error ("attention:vocab", "%s: %s.words holds \"%s\" twice", fname, name, sorted{twice});
  endif
  memo ("vocabularies", w, true);
endfunction

%!shared v
%! v = attn_vocab ("the river bank");
%!test
%! check_vocab (v, "f");
%! check_vocab (v, "f", "src_vocab");
%!error <f: V must be a vocabulary struct> check_vocab (1, "f")
%!error <f: src_vocab must be a vocabulary struct of exactly> check_vocab (setfield (v, "x", 1), "f", "src_vocab")
%!error <f: src_vocab.words holds "the" twice> check_vocab (setfield (v, "words", [v.words, {"the"}]), "f", "src_vocab")
%!error <f: src_vocab.eos must be an integer id in 0..7> check_vocab (setfield (v, "eos", 99), "f", "src_vocab")
%!error <f: src_vocab.bos must be an integer id> check_vocab (setfield (v, "bos", 1.5), "f", "src_vocab")
%!error <f: src_vocab gives one id to two> check_vocab (setfield (v, "bos", 2), "f", "src_vocab")
%!error <f: src_vocab gives one id to two> check_vocab (setfield (setfield (v, "bos", 1), "eos", 1), "f", "src_vocab")
%!test
%! ## GPT-2's <|endoftext|> begins and ends text: bos and eos may be one id
%! check_vocab (setfield (v, "bos", 4), "f", "src_vocab");
%!error <f: src_vocab.words\{6\} is not UTF-8 text: byte 2> check_vocab (setfield (v, "words", [v.words(1:5), {"r\xFF"}, v.words(7)]), "f", "src_vocab")
%!error id=attention:vocab check_vocab (setfield (v, "words", {}), "f", "src_vocab")
%!error <f: src_vocab.words\{3\} holds a NUL byte, which a word of a model file cannot hold> check_vocab (setfield (v, "words", [v.words(1:2), {"a\0b"}, v.words(4:end)]), "f", "src_vocab")
