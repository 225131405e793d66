## ids = sentences_ids (v, sentences, kind, fname): to_ids of every sentence
## of the 1×N cell SENTENCES, as a 1×N cell of id rows.  The words of all
## the string sentences are looked up in one call and id rows are checked
## all at once, so a corpus costs one vocabulary search, not one per
## sentence.  Anything the fast path does not take (a cell array of words,
## an unknown word without <unk>, a bad id) goes through to_ids sentence by
## sentence, which raises the same errors in the same order.
function ids = sentences_ids (v, sentences, kind, fname)
  check_vocab (v, fname);
  text = cellfun ("ischar", sentences) & cellfun ("rows", sentences) <= 1;
  numeric = cellfun ("isnumeric", sentences) & cellfun ("isreal", sentences);
  ids = false;
  if (all (text | numeric))
    ids = encode_all (v, sentences, text, numeric);
  endif
  if (iscell (ids))
    ids = cellfun (@(x) to_ids (v, x, kind), ids, "UniformOutput", false);
  else
    ids = cellfun (@(s) to_ids (v, s, kind, fname), sentences, "UniformOutput", false);
  endif
endfunction

## The ids of every sentence (a cell), or false when one needs to_ids.
## attn_encode looks up the words of all string sentences together and
## checks all id rows together; any error sends the caller to to_ids.
function ids = encode_all (v, sentences, text, numeric)
  rows = cellfun (@(s) double (s(:)'), sentences(numeric), "UniformOutput", false);
  try
    words = regexp (sentences(text), '\S+', "match");     # fails on bytes not UTF-8
    found = attn_encode (v, [words{:}]);
    attn_encode (v, [rows{:}]);
  catch
    ids = false;
    return;
  end_try_catch
  ids = cell (size (sentences));
  ids(text) = mat2cell (found, 1, cellfun ("numel", words));
  ids(numeric) = rows;
endfunction
