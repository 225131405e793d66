## Every kind of bad input to the MEX gateways raises an error with an
## identifier attention:<what> (doc/ARCHITECTURE.md), and the message names
## the argument.  Good inputs: Q 3×2, K 4×2, V 4×5; X 4×3 with a 2-head block.

%!shared Q, K, V, X, B, D, E, Bc, T, Tc, dY
%! Q = rand (3, 2);  K = rand (4, 2);  V = rand (4, 5);
%! X = rand (4, 3);
%! B = struct ("W_Q", rand (3, 4), "W_K", rand (3, 4), "W_V", rand (3, 2),
%!             "W_O", rand (2, 3), "heads", 2);
%! D = rand (2, 3);  E = rand (5, 6);
%! Bc = struct ("W_Q", rand (3, 4), "W_K", rand (6, 4), "W_V", rand (6, 2),
%!              "W_O", rand (2, 3), "heads", 2);
%! [~, T] = attn_self (X, B);
%! [~, Tc] = attn_cross (D, E, Bc);
%! dY = rand (4, 3);

%!function err = caught (f)
%!  err = [];
%!  try
%!    f ();
%!  catch err
%!  end_try_catch
%!endfunction

## Checks the identifier and that the message contains every word given.
%!function check_error (f, id, varargin)
%!  err = caught (f);
%!  assert (! isempty (err), "no error raised");
%!  assert (err.identifier, id);
%!  for w = varargin
%!    assert (! isempty (strfind (err.message, w{1})),
%!            sprintf ("message '%s' lacks '%s'", err.message, w{1}));
%!  endfor
%!endfunction

## ---- attn_sdpa
%!error id=attention:nargin attn_sdpa ()
%!error id=attention:nargin attn_sdpa (Q, K)
%!error id=attention:nargin attn_sdpa (Q, K, V, true (3, 4), 1)
%!error id=attention:nargout [a, b, c, d] = attn_sdpa (Q, K, V)
%!error id=attention:type attn_sdpa (single (1), 1, 1)
%!error id=attention:type attn_sdpa (Q, int32 (K), V)
%!error id=attention:type attn_sdpa (Q, K, V + 1i)
%!error id=attention:type attn_sdpa (sparse (Q), K, V)
%!error id=attention:type attn_sdpa (Q, K, true (4, 5))
%!error id=attention:type attn_sdpa ({Q}, K, V)
%!error id=attention:size attn_sdpa (Q, rand (4, 3), V)
%!error id=attention:size attn_sdpa (Q, K, rand (3, 5))
## a query given as a column: the message says queries are rows, and how to
## fix it, not that K is wrong
%!error <attn_sdpa: Q is a column \(3x1\), but queries are rows: one query of width 3 is a 1x3 row \(Q = q'\), to match the keys, the rows of K \(4x3\)> attn_sdpa ([1; 2; 3], rand (4, 3), rand (4, 2))
%!error <attn_sdpa: Q and K must have the same number of columns \(dk, the width of a query and of a key; tokens are rows\); Q is 1x3, K is 3x4> attn_sdpa ([1 2 3], rand (3, 4), rand (3, 2))
%!error <the trailing dimensions of Q \(one page per head and batch item\)> attn_sdpa (rand (3, 2, 2), rand (4, 2, 3), rand (4, 5, 3))
%!test
%! err = [];
%! try
%!   attn_sdpa ([1; 2; 3], rand (4, 3), rand (4, 2));
%! catch err
%! end_try_catch
%! assert (err.identifier, "attention:size");
%!error id=attention:size attn_sdpa (rand (3, 2, 2), rand (4, 2, 3), rand (4, 5, 3))
%!error id=attention:size attn_sdpa (rand (3, 2, 2), rand (4, 2, 2), rand (4, 5, 3))
%!error id=attention:mask attn_sdpa (Q, K, V, true (4, 3))
%!error id=attention:mask attn_sdpa (Q, K, V, true (3, 4, 2))
%!error id=attention:mask attn_sdpa (Q, K, V, "causl")
%!error id=attention:type attn_sdpa (Q, K, V, ones (3, 4))
%!error id=attention:type attn_sdpa (Q, K, V, sparse (true (3, 4)))
%!error id=attention:nonfinite attn_sdpa ([NaN 1; Q(2:3,:)], K, V)
%!error id=attention:nonfinite attn_sdpa (Q, [Inf 1; K(2:4,:)], V)
%!error id=attention:nonfinite attn_sdpa (Q, K, [-Inf 1 1 1 1; V(2:4,:)])
%!error id=attention:overflow attn_sdpa ([1e200 1e200], [1e200 1e200], 1)
%!error id=attention:overflow attn_sdpa ([1e200 -1e200], [1e200 1e200], 1)

%!test
%! check_error (@() attn_sdpa (Q, rand (4, 3), V), "attention:size", "K", "4x3");
%! check_error (@() attn_sdpa (Q, K, V, true (4, 3)), "attention:mask", "allow", "4x3");
%! check_error (@() attn_sdpa (Q, K, single (V)), "attention:type", "V", "single");
%! check_error (@() attn_sdpa (Q, K, V, "causl"), "attention:mask", "allow", "causl");

## ---- attn_sdpa_backward
%!error id=attention:nargin attn_sdpa_backward (Q, K, V, V)
%!error id=attention:nargin attn_sdpa_backward (rand (3, 5), Q, K, V, rand (3, 4), 1)
%!error id=attention:nargout [a, b, c, d] = attn_sdpa_backward (rand (3, 5), Q, K, V, rand (3, 4))
%!error id=attention:type attn_sdpa_backward (single (rand (3, 5)), Q, K, V, rand (3, 4))
%!error id=attention:type attn_sdpa_backward (rand (3, 5), Q, K, V, true (3, 4))
%!error id=attention:size attn_sdpa_backward (rand (3, 4), Q, K, V, rand (3, 4))
%!error id=attention:size attn_sdpa_backward (rand (3, 5), Q, K, V, rand (4, 3))
%!error id=attention:size attn_sdpa_backward (rand (3, 5), Q, K, rand (3, 5), rand (3, 4))
%!error id=attention:nonfinite attn_sdpa_backward ([NaN(1, 5); rand(2, 5)], Q, K, V, rand (3, 4))

%!test
%! check_error (@() attn_sdpa_backward (rand (3, 4), Q, K, V, rand (3, 4)),
%!              "attention:size", "dM", "3x4");

## ---- attn_self and attn_masked (same gateway rules)
%!error id=attention:nargin attn_self (X)
%!error id=attention:nargin attn_self (X, B, true (4, 1), "lean", [], 1)
%!error id=attention:option attn_self (X, B, true (4, 1), 1)
%!error id=attention:nargout [a, b, c] = attn_self (X, B)
%!error id=attention:type attn_self (single (X), B)
%!error id=attention:type attn_self (X + 1i, B)
%!error id=attention:type attn_self (sparse (X), B)
%!error id=attention:type attn_self (X, {B})
%!error id=attention:type attn_self (X, setfield (B, "W_Q", single (B.W_Q)))
%!error id=attention:field attn_self (X, rmfield (B, "W_Q"))
%!error id=attention:field attn_self (X, rmfield (B, "heads"))
%!error id=attention:field attn_masked (X, rmfield (B, "W_O"))
%!error id=attention:heads attn_self (X, setfield (B, "heads", 0))
%!error id=attention:heads attn_self (X, setfield (B, "heads", 1.5))
%!error id=attention:heads attn_self (X, setfield (B, "heads", 3))
%!error id=attention:heads attn_masked (X, setfield (B, "heads", -2))
%!error id=attention:heads attn_self (X, setfield (B, "heads", [2 2]))
%!error id=attention:heads attn_self (X, setfield (B, "heads", "2"))
%!error id=attention:heads attn_self (X, setfield (B, "heads", NaN))
%!error id=attention:type attn_self (X, [B, B])
%!error id=attention:type attn_self (X, setfield (B, "W_Q", sparse (B.W_Q)))
%!error id=attention:size attn_self (rand (4, 2), B)
%!error id=attention:size attn_self (X, setfield (B, "W_K", rand (2, 4)))
%!error id=attention:size attn_self (X, setfield (B, "W_K", rand (3, 6)))
%!error id=attention:size attn_self (X, setfield (B, "W_O", rand (4, 3)))
%!error id=attention:size attn_masked (X, setfield (B, "W_O", rand (2, 4)))
%!error id=attention:mask attn_self (X, B, true (3, 1))
%!error id=attention:mask attn_masked (X, B, true (4, 2))
%!error id=attention:mask attn_self (rand (4, 3, 2), B, true (4, 1))
%!error id=attention:type attn_self (X, B, ones (4, 1))
%!error id=attention:type attn_masked (X, B, "causal")
%!error id=attention:nonfinite attn_self ([NaN 1 1; X(2:4,:)], B)
%!error id=attention:nonfinite attn_masked (X, setfield (B, "W_V", [Inf 1; rand(2, 2)]))
%!error id=attention:overflow attn_self (X, setfield (setfield (B, "W_Q", 1e200 * B.W_Q), "W_K", 1e200 * B.W_K))

%!test
%! check_error (@() attn_self (X, rmfield (B, "W_K")), "attention:field", "B", "W_K");
%! check_error (@() attn_self (X, B, true (3, 1)), "attention:mask", "key_allow", "3x1");
%! check_error (@() attn_masked (rand (4, 2), B), "attention:size", "W_Q", "3x4");
%! check_error (@() attn_self (X, setfield (B, "heads", 3)), "attention:heads", "heads");

## tokens as columns: the rows of X match the rows of B.W_Q, its columns do not
%!error <X is 3x4 and B.W_Q has 3 rows: tokens are rows> attn_self (X', B)
%!error id=attention:size attn_masked (permute (rand (4, 3, 2), [2 1 3]), B)
%!error <E is 6x5 and B.W_K has 6 rows: tokens are rows> attn_cross (D, E', Bc)
%!error <D is 3x2 and B.W_Q has 3 rows: tokens are rows> attn_cross (D', E, Bc)
%!test
%! check_error (@() attn_self (X', B), "attention:size", "looks transposed", "X'");
%! ## a width that fits neither way keeps the plain message
%! check_error (@() attn_self (rand (2, 5), B), "attention:size", "B.W_Q", "3x4");

## the value of a bad heads field is shown
%!error <B.heads must be a positive integer scalar; got 2.5> attn_self (X, setfield (B, "heads", 2.5))
%!error <got -2> attn_masked (X, setfield (B, "heads", -2))

%!error id=attention:nargin attn_cross (D, E)
%!error id=attention:nargin attn_cross (D, E, Bc, true (5, 1), "full", [], 1)
%!error id=attention:option attn_cross (D, E, Bc, true (5, 1), 1)
%!error id=attention:nargout [a, b, c] = attn_cross (D, E, Bc)
%!error id=attention:type attn_cross (D, single (E), Bc)
%!error id=attention:type attn_cross (D, E, "Bc")
%!error id=attention:field attn_cross (D, E, rmfield (Bc, "W_V"))
%!error id=attention:heads attn_cross (D, E, setfield (Bc, "heads", 4))
%!error id=attention:size attn_cross (D, rand (5, 3), Bc)
%!error id=attention:size attn_cross (rand (2, 4), E, Bc)
%!error id=attention:size attn_cross (rand (2, 3, 2), rand (5, 6, 3), Bc)
%!error id=attention:mask attn_cross (D, E, Bc, true (2, 1))
%!error id=attention:type attn_cross (D, E, Bc, int8 ([1 1 1 1 1]'))
%!error id=attention:nonfinite attn_cross (D, [NaN(1, 6); rand(4, 6)], Bc)

%!test
%! check_error (@() attn_cross (D, rand (5, 3), Bc), "attention:size", "W_K", "6x4");
%! check_error (@() attn_cross (D, E, Bc, true (2, 1)), "attention:mask", "key_allow", "2x1");

## ---- attn_backward
%!error id=attention:nargin attn_backward (dY, T)
%!error id=attention:nargin attn_backward (dY, T, B, 1)
%!error id=attention:nargout [a, b] = attn_backward (dY, T, B)
%!error id=attention:type attn_backward (single (dY), T, B)
%!error id=attention:type attn_backward (dY, 1, B)
%!error id=attention:size attn_backward (rand (4, 2), T, B)
%!error id=attention:size attn_backward (rand (3, 3), Tc, Bc)
%!error id=attention:size attn_backward (dY, T, Bc)
%!error id=attention:field attn_backward (dY, rmfield (T, "A"), B)
%!error id=attention:field attn_backward (dY, rmfield (T, "X"), B)
%!error id=attention:field attn_backward (rand (2, 3), rmfield (Tc, "E"), Bc)
%!error id=attention:field attn_backward (dY, T, rmfield (B, "W_O"))
%!error id=attention:size attn_backward (dY, setfield (T, "A", rand (4, 4)), B)
%!error id=attention:size attn_backward (dY, setfield (T, "Q", rand (4, 3)), B)
%!error id=attention:nonfinite attn_backward (dY, setfield (T, "A", NaN (4, 4, 2)), B)
%!error id=attention:nonfinite attn_backward ([NaN 1 1; dY(2:4,:)], T, B)

## A weight holding NaN or Inf is named, whichever row it meets: the
## gateways find it after the core saw a non-finite result (every block
## kind, forward and backward; one row whose input is 0 where the bad
## weight multiplies it; a step with a K/V cache).
%!test
%! for w = {"W_Q", "W_K", "W_V", "W_O"}
%!   for bad = [NaN, Inf, -Inf]
%!     name = ["B." w{1}];
%!     Bb = B;  Bb.(w{1})(1,2) = bad;
%!     Bcb = Bc;  Bcb.(w{1})(1,2) = bad;
%!     check_error (@() attn_self (X, Bb), "attention:nonfinite", name);
%!     check_error (@() attn_masked (X, Bb), "attention:nonfinite", name);
%!     check_error (@() attn_cross (D, E, Bcb), "attention:nonfinite", name);
%!     check_error (@() attn_self ([0 0 0], Bb), "attention:nonfinite", name);
%!     check_error (@() attn_cross ([0 0 0], zeros (1, 6), Bcb), "attention:nonfinite", name);
%!     [~, Tm] = attn_masked (X(1:3,:), B, [], "lean");
%!     check_error (@() attn_masked (zeros (1, 3), Bb, [], "lean", Tm),
%!                  "attention:nonfinite", name);
%!     check_error (@() attn_backward (dY, T, Bb), "attention:nonfinite", name);
%!     check_error (@() attn_backward (rand (2, 3), Tc, Bcb), "attention:nonfinite", name);
%!   endfor
%! endfor

## An input holding NaN or Inf is named the same way: the gateways scan the
## rows, dY and the trace's arrays only after the core saw a non-finite
## result (the entry may sit in any item, in a key row the mask hides, or
## where it meets a 0).
%!test
%! allow = logical ([1 1 1 0]');
%! for bad = [NaN, Inf, -Inf]
%!   Xb = X;  Xb(4,2) = bad;
%!   check_error (@() attn_self (Xb, B, allow), "attention:nonfinite", "X must be finite");
%!   check_error (@() attn_masked (Xb, B, allow), "attention:nonfinite", "X must be finite");
%!   Eb = E;  Eb(5,1) = bad;
%!   check_error (@() attn_cross (D, Eb, Bc, logical ([1 1 1 1 0]')), "attention:nonfinite",
%!                "E must be finite");
%!   Db = zeros (2, 3);  Db(2,3) = bad;
%!   check_error (@() attn_cross (Db, E, Bc), "attention:nonfinite", "D must be finite");
%!   dYb = dY;  dYb(3,1) = bad;
%!   check_error (@() attn_backward (dYb, T, B), "attention:nonfinite", "dY must be finite");
%!   for f = {"X", "Q", "K", "V", "A", "message"}
%!     Tb = T;  Tb.(f{1})(end) = bad;
%!     check_error (@() attn_backward (dY, Tb, B), "attention:nonfinite",
%!                  ["T." f{1} " must be finite"]);
%!   endfor
%!   for f = {"D", "E"}
%!     Tb = Tc;  Tb.(f{1})(end) = bad;
%!     check_error (@() attn_backward (rand (2, 3), Tb, Bc), "attention:nonfinite",
%!                  ["T." f{1} " must be finite"]);
%!   endfor
%! endfor

## A K/V cache holding NaN or Inf where a query reads it is named too: the
## core tests only the key and value rows a step computes, and the score or
## message the bad entry makes sends the gateway to the cache (masked and
## cross-attention steps, a key row of the cache or one computed now).
%!test
%! [~, Tm] = attn_masked (X(1:3,:), B, [], "lean");
%! [~, Tx] = attn_cross (D(1,:), E, Bc, [], "lean");
%! for f = {"K", "V"}
%!   for bad = [NaN, Inf, -Inf]
%!     Tb = Tm;  Tb.(f{1})(2,1) = bad;
%!     check_error (@() attn_masked (X(4,:), B, [], "lean", Tb), "attention:nonfinite",
%!                  ["cache." f{1} " must be finite"]);
%!     Tb = Tx;  Tb.(f{1})(3,2) = bad;
%!     check_error (@() attn_cross (D(2,:), E(1:0,:), Bc, [], "lean", Tb),
%!                  "attention:nonfinite", ["cache." f{1} " must be finite"]);
%!   endfor
%!   Xb = X;  Xb(4,1) = NaN;
%!   check_error (@() attn_masked (Xb(4,:), B, [], "lean", Tm), "attention:nonfinite",
%!                "X must be finite");
%! endfor

## The core's test of its results reads eight entries at a time, then the
## rest one by one: a bad entry in a run of eight and in the rest, of any
## sign, in long and short rows, double and single.
%!test
%! rand ("state", 9);
%! for n = [7 8 9 21]
%!   for at = unique ([1, min(8, n), n])
%!     for bad = [NaN, Inf, -Inf]
%!       Xl = rand (n, 3, 2);  Xl(at,2,2) = bad;
%!       check_error (@() attn_self (Xl, B), "attention:nonfinite", "X must be finite");
%!       Bs = structfun (@single, rmfield (B, "heads"), "UniformOutput", false);
%!       check_error (@() attn_self (single (Xl), setfield (Bs, "heads", 2)),
%!                    "attention:nonfinite", "X must be finite");
%!       [~, Tl] = attn_self (rand (n, 3, 2), B);
%!       Tl.V(at,1,2) = bad;
%!       check_error (@() attn_backward (rand (n, 3, 2), Tl, B), "attention:nonfinite",
%!                    "T.V must be finite");
%!     endfor
%!   endfor
%! endfor

## the trace must come from the block given: its heads and weights
%!error <T.heads = 2 but B.heads = 1> attn_backward (dY, T, setfield (B, "heads", 1))
%!error id=attention:trace attn_backward (dY, T, setfield (B, "W_Q", B.W_Q + 1))
%!error <T.K\(1,2,1\)> attn_backward (dY, T, setfield (B, "W_K", B.W_K + [0 1 0 0]))
%!error <T.V\(1,1,1\).*T.X\(1,:,1\)\*B.W_V> attn_backward (dY, T, setfield (B, "W_V", -B.W_V))
%!error <T.delta\(1,1,1\).*T.message\(1,:,1\)\*B.W_O> attn_backward (dY, T, setfield (B, "W_O", 2 * B.W_O))
%!error <T.E\(1,:,1\)\*B.W_K> attn_backward (rand (2, 3), Tc, setfield (Bc, "W_K", 2 * Bc.W_K))
%!error id=attention:trace attn_backward (dY, setfield (T, "Q", T.Q + 1), B)
%!error id=attention:field attn_backward (dY, rmfield (T, "heads"), B)
%!test
%! ## the same weights with other heads: every shape agrees, the trace does not
%! [~, T1] = attn_self (X, setfield (B, "heads", 1));
%! check_error (@() attn_backward (dY, T1, B), "attention:trace", "T.heads = 1",
%!              "B.heads = 2", "trace of the forward pass");
%! ## weights equal up to rounding pass
%! G = attn_backward (dY, T, setfield (B, "W_Q", B.W_Q * (1 + eps)));
%! assert (size (G.W_Q), size (B.W_Q));

%!test
%! check_error (@() attn_backward (rand (4, 2), T, B), "attention:size", "dY", "4x2");
%! check_error (@() attn_backward (dY, rmfield (T, "A"), B), "attention:field", "T", "A");

## a zero key width leaves 1/sqrt(dk) undefined
%!error <at least one column> attn_sdpa (ones (2, 0), ones (3, 0), ones (3, 2))
%!error id=attention:size attn_self (rand (4, 3), struct ("W_Q", zeros (3, 0), "W_K", zeros (3, 0), "W_V", rand (3, 2), "W_O", rand (2, 3), "heads", 1))

%!test
%! ## no query rows, or no keys (every row fully masked: weights 0, message 0)
%! [M, A] = attn_sdpa (zeros (0, 2), rand (3, 2), rand (3, 5));
%! assert (size (M), [0 5]);
%! [M, A] = attn_sdpa (rand (2, 2), zeros (0, 2), zeros (0, 5));
%! assert (M, zeros (2, 5));
%! assert (size (A), [2 0]);

%!test
%! ## empty sizes never crash: either a result or attention:size
%! cases = {@() attn_sdpa (zeros (0, 2), K, V), @() attn_sdpa (Q, zeros (0, 2), zeros (0, 5)),
%!          @() attn_self (zeros (0, 3), B), @() attn_cross (D, zeros (0, 6), Bc)};
%! for c = 1:numel (cases)
%!   err = caught (cases{c});
%!   assert (isempty (err) || strcmp (err.identifier, "attention:size"));
%! endfor
