## -*- texinfo -*-
## @deftypefn  {} {@var{v} =} attn_vocab (@var{data})
## @deftypefnx {} {@var{v} =} attn_vocab (@var{data}, @var{specials})
## Build a word-level vocabulary for an attention model.
##
## @var{data} is a sentence (a string of space-separated words), a cell array
## of sentences, or a cell array of words.  The vocabulary lists the
## @var{specials} first (default @code{@{"<pad>", "<unk>", "<bos>",
## "<eos>"@}}), then every other word in order of first appearance, once.
##
## @var{v} is a struct: @code{words} (1×V cell, id = position), and the ids
## @code{pad}, @code{unk}, @code{bos}, @code{eos} of the special tokens (0
## when a special is not in the vocabulary).
##
## @example
## @group
## v = attn_vocab (@{"the river bank", "the financial bank"@});
## strjoin (v.words, " ")
##   @result{} ans = <pad> <unk> <bos> <eos> the river bank financial
## v.eos
##   @result{} ans = 4
## @end group
## @end example
## @seealso{attn_encode, attn_decode, attn_model}
## @end deftypefn

function v = attn_vocab (data, specials = {"<pad>", "<unk>", "<bos>", "<eos>"})
  if (nargin < 1)
    print_usage ();
  endif
  if (! iscellstr (specials))
    error ("attention:type",
           "attn_vocab: SPECIALS must be a cell array of strings, got %s",
           class (specials));
  endif
  if (ischar (data))
    data = {data};
  elseif (! iscellstr (data))
    error ("attention:type",
           "attn_vocab: DATA must be a string or a cell array of strings, got %s",
           class (data));
  endif
  text = strjoin (data(:)', " ");
  if (! file_utf8 (text))
    k = find (! cellfun (@file_utf8, data(:)'), 1);
    file_utf8 (data{k}, "attn_vocab", sprintf ("DATA sentence %d", k));
  endif
  if (! all ([specials{:}] < 128) && ! file_utf8 (strjoin (specials, " ")))
    k = find (! cellfun (@file_utf8, specials), 1);
    file_utf8 (specials{k}, "attn_vocab", sprintf ("SPECIALS word %d", k));
  endif
  words = text_words (text);
  [~, first] = unique (words, "first");
  words = words(sort (first));
  v.words = [specials(:)', words(! ismember (words, specials))];
  for name = {"pad", "unk", "bos", "eos"}
    v.(name{1}) = find (strcmp (v.words, ["<" name{1} ">"]), 1);
    if (isempty (v.(name{1})))
      v.(name{1}) = 0;
    endif
  endfor
endfunction

%!test
%! v = attn_vocab ({"the river bank", "the financial  bank"});
%! assert (v.words, {"<pad>", "<unk>", "<bos>", "<eos>", "the", "river", "bank", "financial"});
%! assert ([v.pad, v.unk, v.bos, v.eos], [1 2 3 4]);

%!test
%! ## only the specials asked for; one given in the data is not repeated
%! v = attn_vocab ("<bos> la rive <eos>", {"<bos>"});
%! assert (v.words, {"<bos>", "la", "rive", "<eos>"});
%! assert ([v.pad, v.unk, v.bos, v.eos], [0 0 1 4]);

%!error <attn_vocab: DATA must be> attn_vocab (3)
%!error id=attention:type attn_vocab ("a b", "<pad>")
%!error <attn_vocab: DATA sentence 2 is not UTF-8 text: byte 3 \(0xFF\) after "la"> attn_vocab ({"a b", "la\xFF"})
%!error <attn_vocab: SPECIALS word 1 is not UTF-8 text> attn_vocab ("a", {"<\xC3>"})
%!assert (attn_vocab ("caf\xC3\xA9", {}).words, {"caf\xC3\xA9"})
