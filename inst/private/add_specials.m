## ids = add_specials (v, ids, kind): the special tokens a sentence's role
## asks for, around its ids (1×n) in vocabulary v:
##   "source": <eos> appended (unless it already ends with <eos>)
##   "prefix": <bos> prepended (unless it already starts with <bos>)
##   "target": the bare words (a leading <bos>, trailing <eos> removed)
##   any other kind: the ids as given
function ids = add_specials (v, ids, kind)
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
