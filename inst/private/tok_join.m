## text = tok_join (flat, nbytes, ids, space): the texts of tokens IDS
## joined, token k's text being flat(offset(k)+1 : offset(k)+nbytes(k))
## (all tokens' texts side by side in one char row), with a space before
## each token where the logical row SPACE says.  One gather for the whole
## text: the decoders of every tokenizer.
function text = tok_join (flat, nbytes, ids, space)
  offset = cumsum (nbytes) - nbytes;
  len = nbytes(ids);
  total = len + space;
  start = cumsum (total) - total + space;          # bytes before each token's text
  [owner, within] = tok_repeat (len);             # the token of each byte, its place
  within += 1;
  text = repmat (" ", 1, sum (total));
  text(start(owner) + within) = flat(offset(ids(owner)) + within);
endfunction

%!assert (tok_join ("abcde", [2 0 3], [1 3 1 2], [false true true true]), "ab cde ab ")
%!assert (tok_join ("abc", [1 2], [2 2], [false false]), "bcbc")
