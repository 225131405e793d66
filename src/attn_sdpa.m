## -*- texinfo -*-
## @deftypefn  {} {@var{M} =} attn_sdpa (@var{Q}, @var{K}, @var{V})
## @deftypefnx {} {@var{M} =} attn_sdpa (@var{Q}, @var{K}, @var{V}, @var{allow})
## @deftypefnx {} {[@var{M}, @var{A}, @var{S}] =} attn_sdpa (@dots{})
## Scaled dot-product attention on given Q, K and V.  The queries, keys
## and values have one token per row.
##
## Each query row of @var{Q} is compared with every key row of @var{K}; the
## weights say how much of each value row of @var{V} the query's message
## takes:
##
## @example
## @group
## S = Q*K' / sqrt (dk)      # scores, -Inf where not allowed
## A = softmax (S, 2)        # weights: each row sums to 1
## M = A*V                   # messages
## @end group
## @end example
##
## Tokens are rows.  Shapes:
##
## @table @asis
## @item @var{Q}
## n×dk×P@dots{}: n queries of width dk.
## @item @var{K}
## m×dk×P@dots{}: m keys.
## @item @var{V}
## m×dv×P@dots{}: one value per key; dv may differ from dk.
## @item @var{S}, @var{A}
## n×m×P@dots{}: one row per query, one column per key.
## @item @var{M}
## n×dv×P@dots{}.
## @end table
##
## Trailing dimensions P@dots{} (any number, e.g.@: heads×batch) index
## independent problems, "pages"; they must agree for @var{Q}, @var{K} and
## @var{V}.
##
## @var{allow} (default: every pair allowed) is either
## @itemize
## @item a logical n×m matrix, shared by every page, or n×m×P@dots{}, one
## per page: @code{true} means query i may attend to key j;
## @item the string @qcode{"causal"}: query i stands at key position
## m-n+i and reads keys j <= m-n+i (with n = m, keys j <= i), as in masked
## decoder self-attention.
## @end itemize
## A query with no allowed key gets weights 0 and message 0, never NaN.
## The softmax subtracts each row's largest score first, so large scores do
## not overflow.
##
## @var{Q}, @var{K} and @var{V} are double, or all three single: then the
## single kernels run (BLAS sgemm) and the results are single (a model of
## @code{attn_cast}).
##
## Errors, by identifier: @code{attention:nargin}, @code{attention:nargout}
## (argument counts); @code{attention:type} (not a real full double or single array,
## or @var{allow} not logical); @code{attention:size} (shapes that disagree,
## or @w{dk = 0}); @code{attention:mask} (@var{allow} of the wrong size, or
## a string other than @qcode{"causal"}); @code{attention:nonfinite} (NaN or
## Inf in @var{Q}, @var{K} or @var{V}); @code{attention:overflow} (a score
## or a result beyond the range of its type: Inf or NaN from finite inputs);
## @code{attention:toolarge} (a dimension beyond what BLAS addresses, or
## more memory than the machine has).
##
## Seed 004's cross-attention step: the decoder's query asks for "a noun,
## and a bit of the adjective"; the keys are the roles det, adj, noun, end
## of "the black cat", scaled by 2:
##
## @example
## @group
## q = [0 1 2 0];
## K = 2 * eye (4);
## V = eye (4);
## [M, A, S] = attn_sdpa (q, K, V);
## disp (q * K')
##   @print{}    0   2   4   0
## disp (S)
##   @print{}    0   1   2   0
## printf ("%.2f ", A); printf ("\n")
##   @print{} 0.08 0.22 0.61 0.08
## @end group
## @end example
##
## A causal mask over three tokens: row i has no weight on keys j > i.
##
## @example
## @group
## X = [1 0; 0 1; 1 1];
## [~, A] = attn_sdpa (X, X, X, "causal");
## printf ("%.4f %.4f %.4f\n", A')
##   @print{} 1.0000 0.0000 0.0000
##   @print{} 0.3302 0.6698 0.0000
##   @print{} 0.2483 0.2483 0.5035
## @end group
## @end example
##
## @seealso{attn_sdpa_backward, attn_self, attn_masked, attn_cross}
## @end deftypefn

%!test
%! ## seed 004's numbers: scores q*k'/sqrt(4) = [0 1 2 0], weights their
%! ## plain softmax, the message those weights times the values
%! q = [0 1 2 0];  K = 2 * eye (4);  V = [1 0 0; 0 0 1; 0 1 0; 1 1 1];
%! [M, A, S] = attn_sdpa (q, K, V);
%! w = exp ([0 1 2 0]) / sum (exp ([0 1 2 0]));
%! assert (S, [0 1 2 0], 1e-15);
%! assert (A, w, 1e-15);
%! assert (M, w * V, 1e-15);
%! assert (round (100 * A), [8 22 61 8]);

%!test
%! ## causal: row i reads keys j <= i; pages are independent problems
%! Q = randn (4, 3, 2);  K = randn (4, 3, 2);  V = randn (4, 2, 2);
%! [M, A] = attn_sdpa (Q, K, V, "causal");
%! for p = 1:2
%!   S = Q(:,:,p) * K(:,:,p)' / sqrt (3);
%!   S(triu (true (4), 1)) = -Inf;
%!   W = exp (S - max (S, [], 2));
%!   W = W ./ sum (W, 2);
%!   assert (A(:,:,p), W, 1e-14);
%!   assert (M(:,:,p), W * V(:,:,p), 1e-14);
%! endfor

%!test
%! ## a query with no allowed key gets weights 0 and message 0, not NaN
%! [M, A] = attn_sdpa (rand (2, 2), rand (3, 2), rand (3, 4),
%!                     logical ([1 0 1; 0 0 0]));
%! assert (A(2,:), zeros (1, 3));
%! assert (M(2,:), zeros (1, 4));
%! assert (A(1,2), 0);
%! assert (sum (A(1,:)), 1, 1e-15);

%!error id=attention:size attn_sdpa (rand (3, 2), rand (4, 3), rand (4, 5))
%!error id=attention:mask attn_sdpa (rand (3, 2), rand (4, 2), rand (4, 5), "future")
%!error id=attention:nonfinite attn_sdpa ([NaN 1], [1 1], 1)
