## -*- texinfo -*-
## @deftypefn  {} {@var{text} =} attn_detokenize (@var{tok}, @var{ids})
## The text of attention token ids, decoded.  Ids count from 1, and the
## text is what the tokenizer's reference decodes.
##
## Byte-level BPE gives the text back byte for byte.  WordPiece joins the
## tokens with spaces, glues @qcode{"##"} pieces to the token before and
## removes the space before punctuation and English contractions as
## Hugging Face's decoder does (a lower-cased model gives the lower-cased
## text).  SentencePiece turns @qcode{"▁"} into spaces, byte pieces into
## their bytes and @code{<unk>} into @qcode{" ⁇ "}, and drops the space its
## normalisation put in front, giving the normalised text.  A Llama
## tokenizer (@qcode{"spbpe"}) decodes the same way, as its decoder says:
## from a @file{tokenizer.json}, special tokens and @code{<unk>} are
## written as their text, and a Metaspace decoder drops every
## @qcode{"▁"} of the first token and keeps byte pieces as written.  Ids that are
## not integers from 1 to @code{numel (tok.pieces)} are an
## @code{attention:vocab} error.
##
## See @code{attn_tokenize} for an example.
## @seealso{attn_tokenizer, attn_tokenize}
## @end deftypefn

function text = attn_detokenize (tok, ids)
  if (nargin != 2)
    print_usage ();
  endif
  if (! (isstruct (tok) && isscalar (tok) && isfield (tok, "kind")
         && any (strcmp (tok.kind, {"bpe", "wordpiece", "unigram", "spbpe"}))))
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

%!shared tok
%! f = [tempname() ".txt"];
%! fid = fopen (f, "w");
%! fputs (fid, "[UNK]\nthe\ncat\n##s\n.\n's\n");
%! fclose (fid);
%! tok = attn_tokenizer (f);
%!assert (attn_detokenize (tok, [2 3 4 5]), "the cats.")
%!assert (attn_detokenize (tok, [2 3 6]), "the cat's")
%!assert (attn_detokenize (tok, []), "")
%!assert (attn_detokenize (tok, int32 ([2 3])), "the cat")
%!error id=attention:vocab attn_detokenize (tok, 0)
%!error id=attention:vocab attn_detokenize (tok, 1.5)
%!error id=attention:vocab attn_detokenize (tok, 7)
%!error id=attention:vocab attn_detokenize (tok, "ab")
%!error id=attention:type attn_detokenize (3, 1)
%!error id=attention:nargin attn_detokenize (tok)
