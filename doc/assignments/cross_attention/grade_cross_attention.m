## Grader for the assignment "write cross-attention" (see handout.md).
## Submission: my_cross_attention.m
## Forbidden: attn_cross, attn_sdpa, attn_softmax
## Forbidden: attn_ref_block, attn_ref_sdpa
##
##   attn_grade ("grade_cross_attention.m", "my/work/folder")
## runs every test and prints "k of N tests, p of P points".  Each test
## compares your function with the package's kernel attn_cross (through
## attn_compare) or with numbers printed in seed 004; a failing test names
## the first wrong matrix in the order of the computation (Q, K, V,
## scores, A, message, delta, out), its first wrong element with both
## values, and the other matrices that differ.

%!function [D, E, B] = random_case (n, m, d, d_src, h, dk, dv, seed)
%!  randn ("state", seed);
%!  D = randn (n, d);
%!  E = randn (m, d_src);
%!  B = struct ("W_Q", randn (d, h * dk) / sqrt (d), "W_K", randn (d_src, h * dk) / sqrt (d_src),
%!              "W_V", randn (d_src, h * dv), "W_O", randn (h * dv, d) / sqrt (h * dv), "heads", h);
%!endfunction

%!function check (D, E, B, varargin)
%!  [Y, T] = my_cross_attention (D, E, B, varargin{:});
%!  [Y_ref, T_ref] = attn_cross (D, E, B, varargin{:});
%!  attn_compare (T_ref, T, 1e-12, "fields", {"Q", "K", "V", "scores", "A", "message", "delta", "out"});
%!  attn_compare (Y_ref, Y, 1e-12, "name", "Y");
%!endfunction

## one head, the seed 000 shape: 3 target rows read 4 source rows, width 3
%!test
%! [D, E, B] = random_case (3, 4, 3, 3, 1, 3, 3, 1);
%! check (D, E, B);

## several heads; dk, dv and d all different; source width differs too (2 points)
%!test
%! [D, E, B] = random_case (5, 7, 6, 4, 2, 3, 5, 2);
%! check (D, E, B);
%! [D, E, B] = random_case (2, 3, 8, 8, 4, 2, 2, 3);
%! check (D, E, B);

## rectangular both ways: more queries than keys
%!test
%! [D, E, B] = random_case (6, 2, 4, 5, 1, 4, 3, 4);
%! check (D, E, B);

## large scores, 1e3 and more: no overflow, no NaN (2 points)
%!test
%! B = struct ("W_Q", 2000 * eye (2), "W_K", eye (2), "W_V", eye (2), "W_O", eye (2), "heads", 1);
%! check ([1 0; 0 1], [1 0; 0 1], B);
%! [D, E, B] = random_case (3, 4, 4, 4, 2, 2, 2, 5);
%! B.W_Q *= 1000;
%! check (D, E, B);

## padding: masked source keys get weight 0 and score -Inf (2 points)
%!test
%! [D, E, B] = random_case (3, 5, 4, 4, 2, 2, 3, 5);
%! check (D, E, B, logical ([1 1 0 1 0]'));
%! [D, E, B] = random_case (4, 3, 4, 4, 1, 4, 4, 6);
%! check (D, E, B, logical ([0 1 1]'));

## no allowed key at all: weights 0, message 0, out = D, never NaN (2 points)
%!test
%! [D, E, B] = random_case (2, 3, 4, 4, 1, 4, 4, 6);
%! [Y, T] = my_cross_attention (D, E, B, false (3, 1));
%! attn_compare (zeros (2, 3), T.A, 0, "name", "A");
%! attn_compare (zeros (2, 4), T.message, 0, "name", "message");
%! attn_compare (D, Y, 0, "name", "Y");
%! check (D, E, B, false (3, 1));

## seed 004: the query [0 1 2 0] after "le" against the role keys 2*I
%!test
%! ## one-hot values (le, chat, noir, chien, blanc, <eos>); scaled scores
%! ## [0 1 2 0], weights [0.08 0.22 0.61 0.08], and the message puts 0.61
%! ## on "chat"
%! W_V = zeros (4, 6);
%! W_V([1 2 3 4], [1 3 2 6]) = eye (4);   # the black cat <eos> -> le noir chat <eos>
%! B = struct ("W_Q", eye (4), "W_K", 2 * eye (4), "W_V", W_V, "W_O", zeros (6, 4), "heads", 1);
%! [Y, T] = my_cross_attention ([0 1 2 0], eye (4), B);
%! attn_compare ([0 1 2 0], T.scores, 1e-12, "name", "scores");
%! assert (round (100 * T.A) / 100, [0.08 0.22 0.61 0.08]);
%! assert (round (100 * T.message(2)) / 100, 0.61);
%! [~, best] = max (T.message);
%! assert (best, 2);
