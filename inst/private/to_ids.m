## ids = to_ids (v, sentence, kind, fname [, side, k]): a sentence's ids
## (1×n) in vocabulary v, with the special tokens its role (kind) asks
## for; errors name the calling function fname and are raised from it
## (public_error).  This is where the text of every sentence argument
## enters (attn_encode checks its UTF-8): attn_forward, attn_loss,
## attn_batch, attn_train, the decoders.  SIDE ("source" or "target") says
## which of the model's vocabularies v is and K > 0 which sentence of a
## batch this is: an unknown word's message names both.
## ids = to_ids (v, ids, kind): the special tokens alone, around ids
## already checked (1×n), or around each of a 1×N cell of id rows (a cell
## back, the whole corpus at once):
##   "source": <eos> appended (unless it already ends with <eos>)
##   "prefix": <bos> prepended (unless it already starts with <bos>)
##   "target": the bare words (a leading <bos>, trailing <eos> removed)
##   any other kind: the ids as given
function ids = to_ids (v, ids, kind, fname, side = "", k = 0)
  if (nargin >= 4)
    try
      ids = attn_encode (v, ids);
    catch err
      msg = regexprep (err.message, '^attn_encode:', [fname ":"]);
      if (k > 0)
        msg = regexprep (msg, '\(position (\d+)\)', sprintf ('(position $1 of %s sentence %d)', side, k));
      endif
      if (! isempty (side))
        msg = strrep (msg, "not in the vocabulary of",
                      sprintf ("not in the %s vocabulary (M.%s_vocab) of", side,
                               merge (strcmp (side, "source"), "src", "tgt")));
      endif
      public_error (err.identifier, msg);
    end_try_catch
  endif
  many = iscell (ids);
  if (many)                                   # all rows side by side
    n = cellfun ("numel", ids);
    f = [zeros(1, 0), ids{:}];
  else
    n = numel (ids);
    f = ids;
  endif
  last = cumsum (n);                          # where each sentence ends in f
  first = last - n + 1;
  has = n > 0;
  switch (kind)
    case {"source", "prefix"}                 # a token added after last, or before first
      source = kind(1) == "s";
      if (source)
        token = v.eos;
        at = last;
        place = 0.5;
      else
        token = v.bos;
        at = first;
        place = -0.5;
      endif
      add = ! has;
      add(has) = f(at(has)) != token;
      add &= ! (source && token == 0);      # no <eos>: nothing to append
      [~, order] = sort ([1:numel(f), at(add) + place]);    # stable: sentences keep their order
      f = [f, token + zeros(1, nnz (add))](order);
      n += add;
    case "target"
      lead = false (size (n));
      lead(has) = f(first(has)) == v.bos;
      rest = n - lead;
      trail = false (size (n));
      trail(rest > 0) = f(last(rest > 0)) == v.eos;
      keep = true (size (f));
      keep([first(lead), last(trail)]) = false;
      f = f(:, keep);                         # a row, even from a scalar
      n = rest - trail;
  endswitch
  ids = f;
  if (many)
    ids = mat2cell (reshape (f, 1, []), 1, n);
  endif
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
## every kind on a cell of sentences against the rule spelled out sentence
## by sentence, with empty sentences, sentences of specials alone and a
## vocabulary without <eos> or <bos>
%!function ids = by_rule (v, ids, kind)
%!  if (strcmp (kind, "source") && v.eos && (isempty (ids) || ids(end) != v.eos))
%!    ids(end+1) = v.eos;
%!  elseif (strcmp (kind, "prefix") && (isempty (ids) || ids(1) != v.bos))
%!    ids = [v.bos, ids];
%!  elseif (strcmp (kind, "target"))
%!    if (! isempty (ids) && ids(1) == v.bos)
%!      ids(1) = [];
%!    endif
%!    if (! isempty (ids) && ids(end) == v.eos)
%!      ids(end) = [];
%!    endif
%!  endif
%!endfunction
%!test
%! for w = {v, attn_vocab("la rive", {"<pad>", "<unk>"})}
%!   V = numel (w{1}.words);
%!   rand ("seed", 3);
%!   C = arrayfun (@(k) randi (V, 1, k), [0 1 2 5 0 0 1 3], "UniformOutput", false);
%!   C(end+1:end+5) = {[3 4], [4 3], 3, 4, [3 5 4]};
%!   for kind = {"source", "prefix", "target", "as given"}
%!     want = cellfun (@(c) by_rule (w{1}, c, kind{1}), C, "UniformOutput", false);
%!     assert (isequal (to_ids (w{1}, C, kind{1}), want), kind{1});
%!     assert (isequal (cellfun (@(c) to_ids (w{1}, c, kind{1}), C, "UniformOutput", false), want));
%!   endfor
%! endfor
%! assert (isequal (to_ids (v, {}, "source"), cell (1, 0)));
