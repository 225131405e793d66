## rows = embed_forward (table, pos, ids): token lookup plus position vector.
## table V×d, pos L×d, ids n×Bt -> rows n×d×Bt; rows(i,:,b) =
## table(ids(i,b),:) + pos(i,:).
function rows = embed_forward (table, pos, ids)
  n = rows (ids);
  rows = unstack_rows (table(ids(:),:), n) + pos(1:n,:);
endfunction
