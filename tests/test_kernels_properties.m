## Properties of attention that hold whatever the numbers, checked on the MEX
## kernels: one key, V = I, causality, row sums, fully masked rows, batch
## independence, mask polarity, head slicing, large scores.

%!test
%! ## one key: every query's message is that key's value, weight 1
%! randn ("state", 31);
%! V = randn (1, 4);
%! [M, A] = attn_sdpa (randn (3, 2), randn (1, 2), V);
%! assert (A, ones (3, 1));
%! assert (M, repmat (V, 3, 1), 1e-15);
%! B = ref_rand_block (3, 5, 2, 2, 3);
%! E = randn (1, 5);
%! [~, T] = attn_cross (randn (4, 3), E, B);
%! assert (T.message, repmat (E * B.W_V, 4, 1), 1e-14);

%!test
%! ## V = I: the message is the weight matrix itself
%! randn ("state", 32);
%! [M, A] = attn_sdpa (randn (3, 4), randn (5, 4), eye (5));
%! assert (M, A, 1e-15);
%! [M, A] = attn_sdpa (randn (4, 2), randn (4, 2), eye (4), "causal");
%! assert (M, A, 1e-15);

%!test
%! ## causal: row i puts zero weight on every key j > i, and row 1 reads key 1
%! randn ("state", 33);
%! [~, A] = attn_sdpa (randn (5, 3), randn (5, 3), randn (5, 2), "causal");
%! assert (triu (A, 1), zeros (5));
%! assert (A(1,1), 1);
%! [~, T] = attn_masked (randn (6, 4, 2), ref_rand_block (4, 4, 2, 2, 2));
%! for p = 1:4
%!   assert (triu (T.A(:,:,p), 1), zeros (6));
%!   assert (all (isinf (T.scores(:,:,p)(logical (triu (ones (6), 1))))));
%! endfor

%!test
%! ## rows of A sum to 1; a row with no allowed key sums to 0, its message is
%! ## 0 and its out row is its input row, with no NaN anywhere
%! randn ("state", 34);
%! allow = logical ([1 0 1 0; 0 0 0 0; 0 1 0 0]);
%! [M, A, S] = attn_sdpa (randn (3, 2), randn (4, 2), randn (4, 3), allow);
%! assert (sum (A, 2), [1; 0; 1], 1e-15);
%! assert (M(2,:), zeros (1, 3));
%! assert (S(2,:), -Inf (1, 4));
%! assert (! any (isnan ([M(:); A(:)])));
%! B = ref_rand_block (3, 3, 2, 2, 2);
%! X = randn (4, 3, 2);
%! key_allow = logical ([0 0 0 0; 1 1 0 1]');      # item 1 is all padding
%! for kind = {"self", "masked"}
%!   [Y, T] = mex_block (kind{1}, X, [], B, key_allow);
%!   sums = sum (T.A, 2);
%!   assert (sums(:,:,:,1), zeros (4, 1, 2));
%!   assert (sums(:,:,:,2), ones (4, 1, 2), 1e-14);
%!   assert (T.message(:,:,1), zeros (4, 4));
%!   assert (Y(:,:,1), X(:,:,1));
%!   assert (! any (isnan ([Y(:); T.A(:); T.message(:)])));
%!   G = attn_backward (ones (4, 3, 2), T, B);
%!   assert (! any (isnan ([G.W_Q(:); G.W_K(:); G.W_V(:); G.W_O(:); G.dX(:)])));
%! endfor
%! [Y, T] = attn_cross (randn (2, 3), randn (3, 4), ref_rand_block (3, 4, 1, 2, 2),
%!                      false (3, 1));
%! assert (T.A, zeros (2, 3));
%! assert (Y, T.D);

%!test
%! ## batch items are independent: item b alone equals slice b of the batch,
%! ## forward and backward (weight gradients add up over the items)
%! randn ("state", 35);  rand ("state", 35);
%! cases = kernel_cases ("block");
%! for c = find ([cases{:,9}] > 1)
%!   kind = cases{c,1};
%!   [B, Xq, Xkv, key_allow, dY] = kernel_block_inputs (cases(c,:));
%!   [Y, T] = mex_block (kind, Xq, Xkv, B, key_allow);
%!   G = attn_backward (dY, T, B);
%!   W_sum = struct ("W_Q", 0, "W_K", 0, "W_V", 0, "W_O", 0);
%!   for b = 1:size (Xq, 3)
%!     item_kv = [];
%!     if (! isempty (Xkv))
%!       item_kv = Xkv(:,:,b);
%!     endif
%!     item_allow = [];
%!     if (! isempty (key_allow))
%!       item_allow = key_allow(:,b);
%!     endif
%!     [Yb, Tb] = mex_block (kind, Xq(:,:,b), item_kv, B, item_allow);
%!     assert (Yb, Y(:,:,b), 1e-14);
%!     assert (Tb.A, T.A(:,:,:,b), 1e-14);
%!     Gb = attn_backward (dY(:,:,b), Tb, B);
%!     if (strcmp (kind, "cross"))
%!       assert (Gb.dD, G.dD(:,:,b), 1e-13);
%!       assert (Gb.dE, G.dE(:,:,b), 1e-13);
%!     else
%!       assert (Gb.dX, G.dX(:,:,b), 1e-13);
%!     endif
%!     for f = fieldnames (W_sum)'
%!       W_sum.(f{1}) += Gb.(f{1});
%!     endfor
%!   endfor
%!   ref_assert_close (G, W_sum, 1e-13, fieldnames (W_sum));
%! endfor

%!test
%! ## mask polarity: false = may not attend.  A false key gets weight 0, and
%! ## its key and value rows cannot change anything
%! randn ("state", 36);
%! Q = randn (3, 2);  K = randn (4, 2);  V = randn (4, 3);
%! allow = true (3, 4);  allow(:,2) = false;
%! [M, A] = attn_sdpa (Q, K, V, allow);
%! assert (A(:,2), zeros (3, 1));
%! assert (all (A(:,[1 3 4])(:) > 0));
%! K(2,:) = 100;  V(2,:) = 100;
%! assert (attn_sdpa (Q, K, V, allow), M, 1e-14);
%! B = ref_rand_block (3, 2, 1, 2, 2);
%! E = randn (4, 2);
%! [~, T] = attn_cross (randn (2, 3), E, B, logical ([1 0 1 1]'));
%! assert (T.A(:,2), zeros (2, 1));
%! assert (all (T.A(:,[1 3 4])(:) > 0));

%!test
%! ## heads: head j reads columns (j-1)*dk+1 : j*dk, so an h-head block's
%! ## weights equal those of one-head blocks on the column slices
%! randn ("state", 37);
%! B = ref_rand_block (4, 5, 3, 2, 3);
%! D = randn (3, 4);  E = randn (6, 5);
%! [~, T] = attn_cross (D, E, B);
%! for j = 1:3
%!   qk = (j-1)*2+1 : j*2;
%!   v = (j-1)*3+1 : j*3;
%!   Bj = struct ("W_Q", B.W_Q(:,qk), "W_K", B.W_K(:,qk), "W_V", B.W_V(:,v),
%!                "W_O", B.W_O(v,:), "heads", 1);
%!   [~, Tj] = attn_cross (D, E, Bj);
%!   assert (T.A(:,:,j), Tj.A, 1e-14);
%!   assert (T.message(:,v), Tj.message, 1e-14);
%! endfor

%!test
%! ## large scores do not overflow the softmax: weights stay finite, rows sum to 1
%! [M, A] = attn_sdpa ([30 0], [30 0; 29 0; -30 0], eye (3));
%! assert (sum (A, 2), 1, 1e-15);
%! s = ([900 870 -900] - 900) / sqrt (2);      # shifted scaled scores
%! assert (A, exp (s) / sum (exp (s)), 1e-15);
%! assert (M, A, 1e-15);
