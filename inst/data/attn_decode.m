## -*- texinfo -*-
## @deftypefn  {} {[@var{text}, @var{words}] =} attn_decode (@var{v}, @var{ids})
## Words of token ids in an attention model's vocabulary.
##
## @var{text} is the words joined by single spaces; @var{words} a 1×n cell.
## Special tokens are kept (decoding functions strip @code{<eos>} themselves).
##
## @example
## @group
## v = attn_vocab ("the river bank");
## attn_decode (v, [5 6 7 4])
##   @result{} ans = the river bank <eos>
## @end group
## @end example
## @seealso{attn_encode, attn_vocab}
## @end deftypefn

function [text, words] = attn_decode (v, ids)
  if (nargin != 2)
    print_usage ();
  endif
  check_vocab (v, "attn_decode");
  words = v.words(to_ids (v, ids, "as given", "attn_decode"));
  text = strjoin (words, " ");
endfunction

%!test
%! v = attn_vocab ("the river bank");
%! [t, w] = attn_decode (v, [5 6 7 4]);
%! assert (t, "the river bank <eos>");
%! assert (w, {"the", "river", "bank", "<eos>"});
%!assert (attn_decode (attn_vocab ("a"), []), "")
%!error id=attention:vocab attn_decode (attn_vocab ("a"), 9)
%!error <attn_decode: SENTENCE ids must be integers in 1..5, got 9> attn_decode (attn_vocab ("a"), 9)
%!error <attn_decode: V must be a vocabulary> attn_decode (1, 9)
