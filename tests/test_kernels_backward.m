## The MEX kernels' backward passes: against the plain-Octave reference
## (1e-12) and against central finite differences of the MEX forward pass
## (relative 1e-7, step 1e-6) for every input and weight.

%!test
%! ## attn_sdpa_backward against attn_ref_sdpa_backward
%! randn ("state", 21);  rand ("state", 21);
%! cases = kernel_cases ("sdpa");
%! for c = 1:rows (cases)
%!   [Q, K, V, allow] = kernel_sdpa_inputs (cases(c,:));
%!   [M, A] = attn_ref_sdpa (Q, K, V, allow);
%!   dM = randn (size (M));
%!   [dQ_ref, dK_ref, dV_ref] = attn_ref_sdpa_backward (dM, Q, K, V, A);
%!   [dQ, dK, dV] = attn_sdpa_backward (dM, Q, K, V, A);
%!   ref_assert_close (dQ, dQ_ref, 1e-12);
%!   ref_assert_close (dK, dK_ref, 1e-12);
%!   ref_assert_close (dV, dV_ref, 1e-12);
%! endfor

%!test
%! ## attn_backward against attn_ref_block_backward, on the MEX's own trace
%! randn ("state", 22);  rand ("state", 22);
%! cases = kernel_cases ("block");
%! for c = 1:rows (cases)
%!   kind = cases{c,1};
%!   [B, Xq, Xkv, key_allow, dY] = kernel_block_inputs (cases(c,:));
%!   [~, T_ref] = attn_ref_block (kind, Xq, Xkv, B, key_allow);
%!   [~, T] = mex_block (kind, Xq, Xkv, B, key_allow);
%!   ref_assert_close (attn_backward (dY, T, B), attn_ref_block_backward (dY, T_ref, B), 1e-12);
%! endfor

%!test
%! ## attn_sdpa_backward against finite differences of attn_sdpa
%! randn ("state", 23);  rand ("state", 23);
%! cases = kernel_cases ("sdpa");
%! for c = [2 4 7 9]             # shared, paged, causal n < m, fully masked rows
%!   [Q, K, V, allow] = kernel_sdpa_inputs (cases(c,:));
%!   [M, A] = attn_sdpa (Q, K, V, allow);
%!   dM = randn (size (M));
%!   [dQ, dK, dV] = attn_sdpa_backward (dM, Q, K, V, A);
%!   loss = @(q, k, v) sum (dM(:) .* reshape (attn_sdpa (q, k, v, allow), [], 1));
%!   ref_assert_close (dQ, ref_findiff (@(q) loss (q, K, V), Q), 1e-7);
%!   ref_assert_close (dK, ref_findiff (@(k) loss (Q, k, V), K), 1e-7);
%!   ref_assert_close (dV, ref_findiff (@(v) loss (Q, K, v), V), 1e-7);
%! endfor

%!test
%! ## attn_backward against finite differences of the MEX blocks: W_Q, W_K,
%! ## W_V, W_O and dX (self, masked) or dD, dE (cross), every case
%! randn ("state", 24);  rand ("state", 24);
%! cases = kernel_cases ("block");
%! for c = 1:rows (cases)
%!   kind = cases{c,1};
%!   [B, Xq, Xkv, key_allow, dY] = kernel_block_inputs (cases(c,:));
%!   [~, T] = mex_block (kind, Xq, Xkv, B, key_allow);
%!   G = attn_backward (dY, T, B);
%!   G_fd = ref_block_findiff (@mex_block, kind, Xq, Xkv, B, key_allow, dY);
%!   ref_assert_close (G, G_fd, 1e-7);
%!   if (strcmp (kind, "cross"))
%!     assert (sort (fieldnames (G)), sort ({"W_Q"; "W_K"; "W_V"; "W_O"; "dD"; "dE"}));
%!   else
%!     assert (sort (fieldnames (G)), sort ({"W_Q"; "W_K"; "W_V"; "W_O"; "dX"}));
%!   endif
%! endfor
