## ids = to_ids (v, sentence, kind, fname): a sentence's ids (1×n) in
## vocabulary v, with the special tokens its role (kind) asks for; errors
## name the calling function fname.  This is where the text of every
## sentence argument enters (attn_encode checks its UTF-8): attn_forward,
## attn_loss, attn_batch, attn_train, the decoders.
## ids = to_ids (v, ids, kind): the special tokens alone, around ids
## already checked (1×n):
##   "source": <eos> appended (unless it already ends with <eos>)
##   "prefix": <bos> prepended (unless it already starts with <bos>)
##   "target": the bare words (a leading <bos>, trailing <eos> removed)
##   any other kind: the ids as given
function ids = to_ids (v, ids, kind, fname)
  if (nargin == 4)
    try
      ids = attn_encode (v, ids);
    catch err
      error (err.identifier, "%s", regexprep (err.message, '^attn_encode:', [fname ":"]));
    end_try_catch
  endif
  switch (kind)
    case "source"
      if (v.eos && (isempty (ids) || ids(end) != v.eos))
        ids(end+1) = v.eos;
      endif
    case "prefix"
      if (isempty (ids) || ids(1) != v.bos)
        ids = [v.bos, ids];
      endif
    case "target"
      if (! isempty (ids) && ids(1) == v.bos)
        ids(1) = [];
      endif
      if (! isempty (ids) && ids(end) == v.eos)
        ids(end) = [];
      endif
  endswitch
endfunction

%!shared v
%! v = attn_vocab ("la rive");
%!assert (to_ids (v, "la rive", "source", "f"), [5 6 4])
%!assert (to_ids (v, "la rive <eos>", "source", "f"), [5 6 4])
%!assert (to_ids (v, "la", "prefix", "f"), [3 5])
%!assert (to_ids (v, "<bos> la rive <eos>", "target", "f"), [5 6])
%!assert (to_ids (v, [3 5 6 4], "target"), [5 6])
%!assert (to_ids (v, [5 6], "as given"), [5 6])
%!error <f: unknown word> to_ids (attn_vocab ("a", {}), "b", "source", "f")
%!error <^f: SENTENCE is not UTF-8 text> to_ids (v, "\xFF", "source", "f")
