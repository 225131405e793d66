## words = tok_vocab (vocab, where): the tokens of a decoded JSON vocabulary
## (vocab.json, tokenizer.json's model.vocab: a struct whose field names
## are the tokens, values their 0-based ids) in id order (1×V cell), after
## checking that the ids are 0 to V-1, each once: an attention:file error
## "WHERE: ..." otherwise.
function words = tok_vocab (vocab, where)
  if (! (isstruct (vocab) && isscalar (vocab)))
    error ("attention:file", "%s: the vocabulary must be a JSON object", where);
  endif
  words = fieldnames (vocab)';
  ids = struct2cell (vocab)';
  V = numel (words);
  if (! (all (cellfun ("isclass", ids, "double")) && all (cellfun ("numel", ids) == 1)
         && isequal (sort ([ids{:}]), 0:V-1)))
    error ("attention:file", "%s: the ids of the vocabulary must be the numbers 0 to %d, each once",
           where, V - 1);
  endif
  words([ids{:}] + 1) = words;
endfunction

%!assert (tok_vocab (struct ("b", 1, "a", 0), "v"), {"a", "b"})
%!error <v: the ids of the vocabulary must be the numbers 0 to 1> tok_vocab (struct ("b", 1, "a", 1), "v")
%!error <v: the ids> tok_vocab (struct ("b", 1, "a", "0"), "v")
%!error <v: the ids> tok_vocab (struct ("b", 1, "a", [0 2]), "v")
%!error <v: the vocabulary must be a JSON object> tok_vocab ([1 2], "v")
