## rows = embed_forward (table, pos, ids, c): token lookup plus position
## vector.  table V×d, pos L×d, ids n×Bt -> rows n×d×Bt; rows(i,:,b) =
## s*table(ids(i,b),:) + pos(i,:), s = sqrt (d) when the config c asks for
## embed_scale, else 1.  The lookup takes the n·Bt rows at once, then
## lays them out n×d×Bt (a third of the time of an index per entry).
function rows = embed_forward (table, pos, ids, c)
  d = columns (table);
  [n, Bt] = size (ids);
  if (n == 1)                                 # a decoding step's: a transpose
    rows = reshape (table(ids,:).', 1, d, Bt);
  else
    rows = permute (reshape (table(ids,:), n, Bt, d), [1 3 2]);
  endif
  if (c.embed_scale)
    rows *= sqrt (d);
  endif
  if (! isempty (pos))                       # none with rotary positions
    rows += pos(1:n,:);
  endif
endfunction

%!test
%! ## every row is its token's table row plus its position's
%! table = magic (5)(:,1:3);  pos = 10 * (1:6)' + (1:3);  ids = [2 2; 4 2; 1 5];
%! c.embed_scale = false;
%! Y = embed_forward (table, pos, ids, c);
%! for b = 1:2
%!   assert (Y(:,:,b), table(ids(:,b),:) + pos(1:3,:));
%! endfor
%! assert (size (embed_forward (table, pos, [3; 1], c)), [2 3]);
%! ## one row an item (a decoding step)
%! Y1 = embed_forward (table, pos, ids(3,:), c);
%! assert (size (Y1), [1 3 2]);
%! assert (Y1(1,:,2), table(5,:) + pos(1,:));
%! ## scaled by sqrt (d)
%! Y = embed_forward (table, pos, ids, struct ("embed_scale", true));
%! assert (Y(:,:,2), sqrt (3) * table(ids(:,2),:) + pos(1:3,:), 1e-12);
