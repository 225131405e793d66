## Tests of the plain-Octave reference in tests/reference/ itself, so that it
## can be trusted as the yardstick for the MEX kernels: its gradients against
## central finite differences, its masking rules by hand.

%!test
%! ## block gradients of every weight and input agree with finite differences
%! randn ("state", 7);  rand ("state", 7);
%! cases = kernel_cases ("block");
%! for c = [2 5 8 9]       # every kind, several heads, key masks, batches, n > m
%!   kind = cases{c,1};
%!   [B, Xq, Xkv, key_allow, dY] = kernel_block_inputs (cases(c,:));
%!   [~, T] = attn_ref_block (kind, Xq, Xkv, B, key_allow);
%!   G = attn_ref_block_backward (dY, T, B);
%!   G_fd = ref_block_findiff (@attn_ref_block, kind, Xq, Xkv, B, key_allow, dY);
%!   ref_assert_close (G, G_fd, 1e-7);
%! endfor

%!test
%! ## a fully padded batch item: weights 0, message 0, out = input, no NaN,
%! ## and its gradient is the residual path alone
%! randn ("state", 8);
%! B = ref_rand_block (3, 3, 1, 2, 2);
%! X = randn (2, 3, 2);
%! [Y, T] = attn_ref_block ("self", X, [], B, logical ([1 1; 0 0]'));
%! assert (T.A(:,:,1,2), zeros (2));
%! assert (T.message(:,:,2), zeros (2));
%! assert (Y(:,:,2), X(:,:,2));
%! assert (all (isfinite ([T.A(:); T.message(:); Y(:)])));
%! dY = randn (2, 3, 2);
%! G = attn_ref_block_backward (dY, T, B);
%! assert (G.dX(:,:,2), dY(:,:,2));

%!test
%! ## causal rule written out for n = m = 3, and query position m-n+i for n < m
%! [~, A] = attn_ref_sdpa (randn (3, 2), randn (3, 2), randn (3, 2), "causal");
%! assert (A != 0, logical (tril (ones (3))));
%! [~, A] = attn_ref_sdpa (randn (2, 2), randn (4, 2), randn (4, 2), "causal");
%! assert (A != 0, logical ([1 1 1 0; 1 1 1 1]));
