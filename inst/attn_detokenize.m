## -*- texinfo -*-
## @deftypefn  {} {@var{text} =} attn_detokenize (@var{tok}, @var{ids})
## The text of 1-based token ids, as the tokenizer's reference decodes it.
##
## Byte-level BPE gives the text back byte for byte.  WordPiece joins the
## tokens with spaces, glues @qcode{"##"} pieces to the token before and
## removes the space before punctuation and English contractions as
## Hugging Face's decoder does (a lower-cased model gives the lower-cased
## text).  SentencePiece turns @qcode{"▁"} into spaces, byte pieces into
## their bytes and @code{<unk>} into @qcode{" ⁇ "}, and drops the space its
## normalisation put in front, giving the normalised text.  Ids that are
## not integers from 1 to @code{numel (tok.pieces)} are an
## @code{attention:vocab} error.
##
## @example
## @group
## tok = attn_tokenizer (fullfile ("tests", "fixtures", "tokenizers", "gpt2-small"));
## attn_detokenize (tok, attn_tokenize (tok, "Hello, world"))
##   @result{} ans = Hello, world
## @end group
## @end example
## @seealso{attn_tokenizer, attn_tokenize}
## @end deftypefn

function text = attn_detokenize (tok, ids)
  if (nargin != 2)
    print_usage ();
  endif
  if (! (isstruct (tok) && isscalar (tok) && isfield (tok, "kind")
         && any (strcmp (tok.kind, {"bpe", "wordpiece", "unigram"}))))
    error ("attention:type", "attn_detokenize: TOK must be a tokenizer of attn_tokenizer; it is %s",
           disp_arg (tok));
  endif
  if (! (isnumeric (ids) && isreal (ids) && (isvector (ids) || isempty (ids))
         && all (ids == fix (ids)) && all (ids >= 1 & ids <= numel (tok.pieces))))
    error ("attention:vocab", "attn_detokenize: IDS must be integers from 1 to %d; it is %s",
           numel (tok.pieces), disp_arg (ids));
  endif
  if (isempty (ids))
    text = "";
  else
    text = feval (["tok_" tok.kind], "decode", tok, double (reshape (ids, 1, [])));
  endif
endfunction

%!shared gpt2
%! here = fullfile (fileparts (fileparts (mfilename ("fullpath"))), "tests", "fixtures", "tokenizers");
%! gpt2 = attn_tokenizer (fullfile (here, "gpt2-small"));
%!assert (attn_detokenize (gpt2, attn_tokenize (gpt2, "caf\xC3\xA9  \xF0\x9F\x98\x80 x")), "caf\xC3\xA9  \xF0\x9F\x98\x80 x")
%!assert (attn_detokenize (gpt2, []), "")
%!error id=attention:vocab attn_detokenize (gpt2, 0)
%!error id=attention:vocab attn_detokenize (gpt2, 1.5)
%!error id=attention:vocab attn_detokenize (gpt2, numel (gpt2.pieces) + 1)
%!error id=attention:type attn_detokenize (3, 1)
