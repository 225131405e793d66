## [found, value] = memo (table, key): the value stored last under KEY in
## the cache TABLE, found false (and value []) when it has none.
## memo (table, key, value): store VALUE under KEY.
## The one place where the package keeps results from call to call, so
## that what was checked or sorted once is not done again; each table
## keeps its last few keys, the newest first:
##   "configs"       a model's config key (check_model): its checked
##                   config, schema and the schema's row groups (8 kept)
##   "last model"    the last model check_model passed (key ""): its
##                   checked config, schema and the model itself, or its
##                   config and vocabularies (1 kept)
##   "vocabularies"  a word list that passed check_vocab (2 kept)
##   "sorted words"  a word list and its sorted order (attn_encode; 4 kept)
## A key is a string or a cellstr, compared exactly.
function [found, value] = memo (table, key, value)
  persistent store = struct ("configs", {cell(0, 2)}, "last_model", {cell(0, 2)},
                             "vocabularies", {cell(0, 2)}, "sorted_words", {cell(0, 2)});
  persistent keep = struct ("configs", 8, "last_model", 1, "vocabularies", 2,
                            "sorted_words", 4);
  name = strrep (table, " ", "_");
  T = store.(name);
  if (nargin == 3)
    store.(name) = [{key, value}; T(1:min (end, keep.(name) - 1),:)];
    return;
  endif
  found = true;
  for k = 1:rows (T)
    if (same (T{k,1}, key))
      value = T{k,2};
      return;
    endif
  endfor
  found = false;
  value = [];
endfunction

function tf = same (a, b)
  if (ischar (a))
    tf = ischar (b) && strcmp (a, b);
  else
    tf = iscellstr (b) && numel (a) == numel (b) && all (strcmp (a, b));
  endif
endfunction

%!test
%! [found, v] = memo ("sorted words", {"memo-test", "b"});
%! assert (! found && isempty (v));
%! memo ("sorted words", {"memo-test", "b"}, 42);
%! [found, v] = memo ("sorted words", {"memo-test", "b"});
%! assert (found && v == 42);
%! assert (! memo ("sorted words", {"memo-test"}));
%! ## the oldest key goes when the table is full
%! for i = 1:4
%!   memo ("sorted words", {sprintf("other-%d", i)}, i);
%! endfor
%! assert (! memo ("sorted words", {"memo-test", "b"}));
