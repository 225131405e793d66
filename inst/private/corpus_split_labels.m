## S = corpus_split_labels (sz, heldout)
## Label every cell of an array of size SZ (e.g. nouns×adjectives, one cell
## per word combination) with its split: 1 train, 2 validation, 3 test; a
## random fraction HELDOUT of the cells goes to validation and as many to
## test.  Uses the caller's random state.
function S = corpus_split_labels (sz, heldout)
  n = prod (sz);
  nh = round (heldout * n);
  S = ones (sz);
  order = randperm (n);
  S(order(1:nh)) = 2;
  S(order(nh+1:2*nh)) = 3;
endfunction
