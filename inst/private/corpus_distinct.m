## [ex, seen] = corpus_distinct (gen, N, seen, caller)
## N examples with distinct keys drawn from the generator GEN, none of whose
## keys is in SEEN (a cellstr column).  GEN () returns a 1×k cell row whose
## first entry is the key string; EX is N×k in generation order and SEEN
## comes back with the new keys appended.  Gives up with an error after 50
## rounds (the generator cannot produce N distinct examples).
function [ex, seen] = corpus_distinct (gen, N, seen, caller)
  ex = cell (0, 1);
  for round = 1:50
    m = N - size (ex, 1) + 10;
    new = cell (m, 1);
    for i = 1:m
      new{i} = gen ();
    endfor
    ex = vertcat (ex, new{:});
    [~, first] = unique (ex(:,1), "first");
    keep = sort (first);
    ex = ex(keep(! ismember (ex(keep,1), seen)), :);
    if (size (ex, 1) >= N)
      break;
    endif
  endfor
  if (size (ex, 1) < N)
    error ("attention:size",
           "%s: cannot find %d distinct examples (found %d); lower the count or relax the options",
           caller, N, size (ex, 1));
  endif
  ex = ex(1:N,:);
  seen = [seen; ex(:,1)];
endfunction
