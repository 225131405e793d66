## ids = to_ids (v, sentence, kind, fname): a sentence's ids (1×n) in
## vocabulary v, with the special tokens its role asks for:
##   "source": <eos> appended (unless it already ends with <eos>)
##   "prefix": <bos> prepended (unless it already starts with <bos>)
##   "target": the bare words (a leading <bos>, trailing <eos> removed)
function ids = to_ids (v, sentence, kind, fname)
  try
    ids = attn_encode (v, sentence);
  catch err
    error (err.identifier, "%s", strrep (err.message, "attn_encode", fname));
  end_try_catch
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
