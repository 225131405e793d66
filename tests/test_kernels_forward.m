## The MEX kernels' forward passes against the plain-Octave reference in
## tests/reference/ (written separately from the formulas): outputs and every
## trace field agree to 1e-12 on the random cases of kernel_cases.

%!test
%! ## attn_sdpa: M, A, S for every case, with and without the allow argument
%! randn ("state", 11);  rand ("state", 11);
%! cases = kernel_cases ("sdpa");
%! for c = 1:rows (cases)
%!   [Q, K, V, allow] = kernel_sdpa_inputs (cases(c,:));
%!   [M_ref, A_ref, S_ref] = attn_ref_sdpa (Q, K, V, allow);
%!   if (isempty (allow))
%!     [M, A, S] = attn_sdpa (Q, K, V);
%!   else
%!     [M, A, S] = attn_sdpa (Q, K, V, allow);
%!   endif
%!   ref_assert_close (M, M_ref, 1e-12);
%!   ref_assert_close (A, A_ref, 1e-12);
%!   ref_assert_close (S, S_ref, 1e-12);
%! endfor

%!test
%! ## attn_sdpa with one output returns the message alone
%! randn ("state", 12);
%! Q = randn (3, 2);  K = randn (4, 2);  V = randn (4, 5);
%! assert (attn_sdpa (Q, K, V), attn_ref_sdpa (Q, K, V), 1e-12);

%!test
%! ## attn_self, attn_masked, attn_cross: Y and every trace field
%! randn ("state", 13);  rand ("state", 13);
%! fields = {"kind", "heads", "key_allow", "Q", "K", "V", "scores", "A", ...
%!           "message", "delta", "out"};
%! cases = kernel_cases ("block");
%! for c = 1:rows (cases)
%!   kind = cases{c,1};
%!   [B, Xq, Xkv, key_allow] = kernel_block_inputs (cases(c,:));
%!   [Y_ref, T_ref] = attn_ref_block (kind, Xq, Xkv, B, key_allow);
%!   [Y, T] = mex_block (kind, Xq, Xkv, B, key_allow);
%!   ref_assert_close (Y, Y_ref, 1e-12);
%!   if (strcmp (kind, "cross"))
%!     ref_assert_close (T, T_ref, 1e-12, [fields, {"D", "E"}]);
%!   else
%!     ref_assert_close (T, T_ref, 1e-12, [fields, {"X"}]);
%!   endif
%! endfor

%!test
%! ## the key mask is optional: omitted equals all true
%! randn ("state", 14);
%! B = ref_rand_block (4, 4, 2, 2, 3);
%! B_cross = ref_rand_block (4, 3, 2, 2, 3);
%! X = randn (3, 4, 2);  E = randn (5, 3, 2);
%! assert (attn_self (X, B), attn_self (X, B, true (3, 2)), 1e-12);
%! assert (attn_masked (X, B), attn_masked (X, B, true (3, 2)), 1e-12);
%! assert (attn_cross (X, E, B_cross), attn_cross (X, E, B_cross, true (5, 2)), 1e-12);
%! assert (attn_cross (X, E, B_cross), attn_ref_block ("cross", X, E, B_cross), 1e-12);

%!test
%! ## results of 1 MiB or more are arrays Octave makes and the gateway fills
%! ## in place: a traced causal block with a key mask, its gradients, and
%! ## attn_sdpa's three outputs, against the reference
%! randn ("state", 19);  rand ("state", 19);
%! n = 1024;  d = 16;  h = 4;
%! B = ref_rand_block (d, d, h, 4, 4);
%! X = randn (n, d);
%! key_allow = rand (n, 1) > 0.1;
%! [Y_ref, T_ref] = attn_ref_block ("masked", X, [], B, key_allow);
%! [Y, T] = attn_masked (X, B, key_allow);
%! assert (numel (T.A) * 8 >= 32 * 2^20);
%! ref_assert_close (Y, Y_ref, 1e-12);
%! ref_assert_close (T, T_ref, 1e-12, {"Q", "K", "V", "scores", "A", "message", "out"});
%! dY = randn (n, d);
%! ref_assert_close (attn_backward (dY, T, B), attn_ref_block_backward (dY, T_ref, B), 1e-12);
%! Q = randn (2048, 3);  K = randn (2048, 3);  V = randn (2048, 2);
%! [M_ref, A_ref, S_ref] = attn_ref_sdpa (Q, K, V, "causal");
%! [M, A, S] = attn_sdpa (Q, K, V, "causal");
%! ref_assert_close (M, M_ref, 1e-12);
%! ref_assert_close (A, A_ref, 1e-12);
%! ref_assert_close (S, S_ref, 1e-12);
