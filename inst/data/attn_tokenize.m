## -*- texinfo -*-
## @deftypefn  {} {@var{ids} =} attn_tokenize (@var{tok}, @var{text})
## @deftypefnx {} {[@var{ids}, @var{pieces}, @var{spans}] =} attn_tokenize (@var{tok}, @var{text})
## Split text into the tokens of an attention model.  The subword tokens
## of a tokenizer, from UTF-8 text.
##
## @var{tok} comes from @code{attn_tokenizer}.  @var{ids} (1×n) are
## 1-based, as everywhere in the package: the tokenizer's files count from
## 0, so a file's id k is k+1 here (@code{tok.pieces@{ids(i)@}} is the
## token).  @var{pieces} (1×n cell) is each token as readable text: GPT-2's
## byte-level tokens as the UTF-8 they stand for (@qcode{"Ġthe"} is
## @qcode{" the"}; a token holding part of a character writes its bytes
## above 127 as @qcode{"<0xNN>"}), WordPiece's as in its vocabulary
## (@qcode{"##ing"}), SentencePiece's and Llama's with the space marker
## @qcode{"▁"} (a byte piece of byte fallback as @qcode{"<0xNN>"}).
## @var{spans} (n×2) gives the bytes of @var{text} each token came from:
## @code{text(spans(i,1):spans(i,2))}; a token that stands for no byte of
## the text (SentencePiece's leading @qcode{"▁"}, a byte piece but the
## last of a character) has an empty span, @code{spans(i,2) = spans(i,1) -
## 1}; from a Llama @file{tokenizer.json} such pieces span the character
## they are part of (the leading @qcode{"▁"} the first), as Hugging Face's
## offsets do.
##
## No special token is added (no @code{[CLS]}, @code{</s>} or
## @code{<|endoftext|>}), and special tokens written in @var{text} are
## tokenized as the text they are.  Each tokenizer gives the ids its
## reference implementation gives: byte-level BPE as GPT-2's encoder and
## Hugging Face tokenizers, WordPiece as Hugging Face's BERT tokenizer
## (clean-up of control characters, CJK characters split, lower case and
## accents stripped for an uncased model, punctuation split, greedy longest
## match, @code{[UNK]} for a word it cannot cover), unigram as SentencePiece
## (its normalisation rules, @qcode{"▁"} for spaces, the most probable
## segmentation, unknown characters as @code{<unk>} or as byte pieces),
## SentencePiece BPE as SentencePiece (@qcode{"▁"} for spaces and in front,
## the pair whose joined piece scores highest merged first, characters
## outside the vocabulary as byte pieces) and its @file{tokenizer.json}
## forms as Hugging Face tokenizers.
## Text that is not UTF-8 is an @code{attention:encoding} error.
##
## @example
## @group
## vocab = [tempname() ".txt"];
## fid = fopen (vocab, "w");
## fputs (fid, "[UNK]\nthe\ncat\n##s\n");
## fclose (fid);
## tok = attn_tokenizer (vocab);
## [ids, pieces, spans] = attn_tokenize (tok, "The cats!");
## mat2str (ids)
##   @result{} ans = [2 3 4 1]
## strjoin (pieces, " ")
##   @result{} ans = the cat ##s [UNK]
## mat2str (spans)
##   @result{} ans = [1 3;5 7;8 8;9 9]
## attn_detokenize (tok, ids)
##   @result{} ans = the cats [UNK]
## @end group
## @end example
## @seealso{attn_tokenizer, attn_detokenize}
## @end deftypefn

function [ids, pieces, spans] = attn_tokenize (tok, text)
  if (nargin != 2)
    print_usage ();
  endif
  if (! (isstruct (tok) && isscalar (tok) && isfield (tok, "kind")
         && any (strcmp (tok.kind, {"bpe", "wordpiece", "unigram", "spbpe"}))))
    error ("attention:type", "attn_tokenize: TOK must be a tokenizer of attn_tokenizer; it is %s",
           disp_arg (tok));
  endif
  if (! (ischar (text) && rows (text) <= 1))
    error ("attention:type", "attn_tokenize: TEXT must be a character row; it is %s",
           disp_arg (text));
  endif
  text = reshape (text, 1, []);
  file_utf8 (text, "attn_tokenize", "TEXT");
  if (isempty (text))
    ids = zeros (1, 0);
    spans = zeros (0, 2);
  else
    [ids, spans] = feval (["tok_" tok.kind], "encode", tok, text);
  endif
  if (isargout (2))
    pieces = tok.pieces(ids);
  endif
endfunction

%!function f = vocab_file (words)
%!  f = [tempname() ".txt"];
%!  fid = fopen (f, "w");
%!  fputs (fid, sprintf ("%s\n", words{:}));
%!  fclose (fid);
%!endfunction

%!shared tok
%! tok = attn_tokenizer (vocab_file ({"[UNK]", "the", "cat", "##s", "caf", "##e", ","}));
%!test
%! [ids, pieces, spans] = attn_tokenize (tok, "The cats, CAF\xC3\x89");
%! assert (ids, [2 3 4 7 5 6]);
%! assert (pieces, {"the", "cat", "##s", ",", "caf", "##e"});
%! assert (spans, [1 3; 5 7; 8 8; 9 9; 11 13; 14 15]);
%!test
%! [ids, pieces, spans] = attn_tokenize (tok, "");
%! assert (size (ids), [1 0]);
%! assert (size (pieces), [1 0]);
%! assert (size (spans), [0 2]);
%!assert (attn_tokenize (tok, " \t\n "), zeros (1, 0))
%!error <TEXT is not UTF-8> attn_tokenize (tok, "caf\xC3")
%!error id=attention:type attn_tokenize (struct ("kind", "x"), "a")
%!error id=attention:type attn_tokenize (tok, 3)
%!error id=attention:type attn_tokenize (tok, ["ab"; "cd"])
%!error id=attention:nargin attn_tokenize (tok)
