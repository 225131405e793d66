## Numerical edge cases of the MEX kernels, each with the rule it shows:
##
## - scores of +-1e300 are finite: softmax subtracts the row maximum, so
##   exp never overflows; weights are exact 0/1 or equal shares, no NaN.
## - all-equal scores give uniform weights 1/m (message = mean of V rows).
## - a query with no allowed key gets weights 0, message 0, out = its input
##   row, and its gradient is the residual's dY alone.
## - a single key gets weight 1; n, m or d of 1 match the plain-Octave
##   reference (tests/reference) like any other shape.
## - scores that overflow the double range, and any other Inf or NaN a
##   kernel would return from finite inputs, raise attention:overflow
##   instead of coming back as numbers.
##
## The long-sequence check (n = m = 4096, h = 8) is not here: it runs as
## `make longseq` (tests/stress/longseq.m) and reports its peak memory.

%!function B = eye_block (d, h)
%!  B = struct ("W_Q", eye (d), "W_K", eye (d), "W_V", eye (d),
%!              "W_O", eye (d), "heads", h);
%!endfunction

%!function id = error_id (f)
%!  id = "";
%!  try
%!    f ();
%!  catch err
%!    id = err.identifier;
%!  end_try_catch
%!endfunction

## ---- scores of +-1e300

%!test
%! b = 1e150;                   # dk = 1: scores = q*k = +-1e300
%! Q = [b; -b; b];  K = [b; -b; b];  V = [1 10; 2 20; 3 30];
%! [M, A, S] = attn_sdpa (Q, K, V);
%! assert (S([1 4]), [b*b, -b*b]);
%! assert (abs (S(1) / 1e300 - 1) < 1e-15);
%! assert (all (isfinite ([A(:); M(:); S(:)])));
%! ## row 1 scores [1e300 -1e300 1e300]: equal shares of keys 1 and 3
%! assert (A(1,:), [0.5 0 0.5]);
%! ## row 2 scores [-1e300 1e300 -1e300]: all weight on key 2
%! assert (A(2,:), [0 1 0]);
%! assert (M(2,:), V(2,:));
%! assert (M(1,:), (V(1,:) + V(3,:)) / 2, 1e-14);

## the same through a block: X*W_Q = 1e150, scores 1e300
%!test
%! B = struct ("W_Q", 1e150, "W_K", 1e150, "W_V", 1, "W_O", 1, "heads", 1);
%! X = [1; -1];
%! [Y, T] = attn_self (X, B);
%! assert (T.A, [1 0; 0 1]);
%! assert (Y, X + X);
%! G = attn_backward ([1; 1], T, B);
%! assert (all (isfinite ([G.W_Q; G.W_K; G.W_V; G.W_O; G.dX])));

## ---- all-equal scores

%!test
%! V = [1 2; 3 5; 8 13; 21 34];
%! [M, A] = attn_sdpa (zeros (3, 2), rand (4, 2), V);
%! assert (A, repmat (1/4, 3, 4), eps);
%! assert (M, repmat (mean (V), 3, 1), 1e-14);

%!test
%! ## equal and huge: 1e300 in every entry is still a uniform row
%! [M, A] = attn_sdpa (1e150 * ones (2, 1), 1e150 * ones (5, 1), (1:5)');
%! assert (A, repmat (1/5, 2, 5), eps);
%! assert (M, [3; 3], 1e-14);

## ---- fully masked rows

%!test
%! Q = rand (3, 2);  K = rand (4, 2);  V = rand (4, 3);
%! allow = true (3, 4);
%! allow(2,:) = false;
%! [M, A, S] = attn_sdpa (Q, K, V, allow);
%! assert (A(2,:), zeros (1, 4));
%! assert (M(2,:), zeros (1, 3));
%! assert (S(2,:), -Inf (1, 4));
%! assert (all (isfinite ([A(:); M(:)])));
%! [dQ, dK, dV] = attn_sdpa_backward (ones (3, 3), Q, K, V, A);
%! assert (dQ(2,:), [0 0]);
%! assert (all (isfinite ([dQ(:); dK(:); dV(:)])));

## causal with more queries than keys: the first n - m queries read nothing
%!test
%! [M, A] = attn_sdpa (rand (5, 2), rand (2, 2), [7 1; 9 2], "causal");
%! assert (A(1:3,:), zeros (3, 2));
%! assert (M(1:3,:), zeros (3, 2));
%! assert (A(4,:), [1 0]);
%! assert (M(4,:), [7 1]);

## a batch item with no real key: out = X, gradient = the residual alone
%!test
%! X = rand (3, 2, 2);
%! B = struct ("W_Q", rand (2, 4), "W_K", rand (2, 4), "W_V", rand (2, 2),
%!             "W_O", rand (2, 2), "heads", 2);
%! key_allow = [true false true; false false false]';
%! [Y, T] = attn_self (X, B, key_allow);
%! assert (Y(:,:,2), X(:,:,2));
%! assert (T.A(:,:,:,2), zeros (3, 3, 2));
%! assert (T.message(:,:,2), zeros (3, 2));
%! dY = rand (3, 2, 2);
%! G = attn_backward (dY, T, B);
%! assert (G.dX(:,:,2), dY(:,:,2), 1e-15);

## masked block whose first key is padding: row 1 reads nothing
%!test
%! X = rand (4, 3);
%! [Y, T] = attn_masked (X, eye_block (3, 1), [false; true; true; true]);
%! assert (Y(1,:), X(1,:));
%! assert (T.A(1,:), zeros (1, 4));
%! assert (sum (T.A(2:4,:), 2), ones (3, 1), 1e-15);

## ---- a single key; n, m or d of 1

%!test
%! V = [4 -1 2];
%! [M, A] = attn_sdpa (rand (3, 2), rand (1, 2), V);
%! assert (A, ones (3, 1));
%! assert (M, repmat (V, 3, 1));

%!test
%! ## cross-attention to a one-token source: every query reads that token
%! D = rand (3, 2);  E = rand (1, 4);
%! B = struct ("W_Q", rand (2, 2), "W_K", rand (4, 2), "W_V", rand (4, 2),
%!             "W_O", rand (2, 2), "heads", 2);
%! [Y, T] = attn_cross (D, E, B);
%! assert (T.A, ones (3, 1, 2));
%! assert (Y, D + repmat (E * B.W_V * B.W_O, 3, 1), 1e-14);

%!test
%! ## shapes with a dimension of 1 against the plain-Octave reference
%! shapes = [1 1 1 1 1; 1 5 3 2 1; 5 1 3 3 2; 4 3 1 1 1; 3 4 1 2 2];
%! for s = shapes'
%!   [n, m, d, d_src, h] = num2cell (s'){:};
%!   B = struct ("W_Q", randn (d, 2*h), "W_K", randn (d_src, 2*h),
%!               "W_V", randn (d_src, h), "W_O", randn (h, d), "heads", h);
%!   D = randn (n, d);  E = randn (m, d_src);
%!   [Y, T] = attn_cross (D, E, B);
%!   [Yr, Tr] = attn_ref_block ("cross", D, E, B);
%!   ref_assert_close (Y, Yr, 1e-12);
%!   ref_assert_close (T, Tr, 1e-12, {"Q", "K", "V", "scores", "A", "message"});
%!   dY = randn (n, d);
%!   ref_assert_close (attn_backward (dY, T, B), attn_ref_block_backward (dY, Tr, B),
%!                     1e-12);
%!   if (n == m && d == d_src)
%!     B.W_K = B.W_K(1:d,:);
%!     for kind = {"self", "masked"}
%!       f = ["attn_" kind{1}];
%!       [Y, T] = feval (f, D, B);
%!       [Yr, Tr] = attn_ref_block (kind{1}, D, [], B);
%!       ref_assert_close (Y, Yr, 1e-12);
%!       ref_assert_close (attn_backward (dY, T, B),
%!                         attn_ref_block_backward (dY, Tr, B), 1e-12);
%!     endfor
%!   endif
%! endfor

## ---- overflow is reported, never returned

%!test
%! ## Q*K' = 1e400
%! assert (error_id (@() attn_sdpa (1e200, 1e200, 1)), "attention:overflow");
%! ## 1e308^2 - 1e308^2 = Inf - Inf
%! assert (error_id (@() attn_sdpa ([1e308 1e308], [1e308 -1e308], 1)),
%!         "attention:overflow");
%! B = struct ("W_Q", 1e160, "W_K", 1e160, "W_V", 1, "W_O", 1, "heads", 1);
%! assert (error_id (@() attn_self ([1; 1], B)), "attention:overflow");
%! assert (error_id (@() attn_masked ([1; 1], B)), "attention:overflow");

## finite scores, but message*W_O passes 1e308: Y would be Inf
%!test
%! B = struct ("W_Q", 1, "W_K", 1, "W_V", 1e300, "W_O", 1e300, "heads", 1);
%! assert (error_id (@() attn_self ([1; 2], B)), "attention:overflow");

## finite forward pass, gradients past 1e308: dV = A'*dM is fine but
## dA = dM*V' = 1e300*1e300 overflows
%!test
%! Q = [1; 2];  K = [1; -1];  V = [1e300; 1e300];
%! [M, A] = attn_sdpa (Q, K, V);
%! assert (error_id (@() attn_sdpa_backward ([1e300; 1e300], Q, K, V, A)),
%!         "attention:overflow");

%!test
%! B = struct ("W_Q", 1, "W_K", 1, "W_V", 1, "W_O", 1e300, "heads", 1);
%! [Y, T] = attn_self ([1; 2], B);
%! assert (error_id (@() attn_backward ([1e300; 1e300], T, B)),
%!         "attention:overflow");

## ---- empty batches return at once, however long
## (each item with no rows used to be visited: 2^40 items took days)
%!test
%! B = struct ("W_Q", rand (3, 4), "W_K", rand (3, 4), "W_V", rand (3, 2),
%!             "W_O", rand (2, 3), "heads", 2);
%! [Y, T] = attn_self (zeros (0, 3, 2^26), B);
%! assert (size (Y), [0 3 2^26]);
%! G = attn_backward (Y, T, B);
%! assert (G.W_Q, zeros (3, 4));
%! assert (G.W_O, zeros (2, 3));
%! [M, A] = attn_sdpa (zeros (0, 1, 2^26), zeros (0, 1, 2^26), zeros (0, 1, 2^26));
%! assert (size (M), [0 1 2^26]);
%! [dQ, dK, dV] = attn_sdpa_backward (M, zeros (0, 1, 2^26), zeros (0, 1, 2^26), zeros (0, 1, 2^26), A);
%! assert (size (dV), [0 1 2^26]);
