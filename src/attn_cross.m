## -*- texinfo -*-
## @deftypefn  {} {@var{Y} =} attn_cross (@var{D}, @var{E}, @var{B})
## @deftypefnx {} {@var{Y} =} attn_cross (@var{D}, @var{E}, @var{B}, @var{key_allow})
## @deftypefnx {} {[@var{Y}, @var{T}] =} attn_cross (@dots{})
## @deftypefnx {} {[@var{Y}, @var{T}] =} attn_cross (@var{D}, @var{E}, @var{B}, @var{key_allow}, @var{mode})
## @deftypefnx {} {[@var{Y}, @var{T}] =} attn_cross (@var{D}, @var{E}, @var{B}, @var{key_allow}, @var{mode}, @var{cache})
## Cross-attention block: decoder rows read the source.  The decoder's
## rows ask, the encoded source answers.
##
## Queries come from the decoder rows @var{D}, keys and values from the
## encoder's output @var{E} (the "memory", computed once per source
## sentence).  No causal mask: every decoder row may read the whole source.
## With @var{B} the block struct, and head j using columns
## (j-1)·dk+1 @dots{} j·dk of @var{Q} and @var{K} (and by dv of @var{V}):
##
## @example
## @group
## Q = D*W_Q;   K = E*W_K;   V = E*W_V
## scores_j  = Q_j*K_j' / sqrt (dk)      # n×m, -Inf where not allowed
## A_j       = softmax (scores_j, 2)     # the alignment
## message   = [A_1*V_1, ..., A_h*V_h]
## delta     = message*W_O
## Y         = D + delta                 # the decoder's residual stream
## @end group
## @end example
##
## Shapes (tokens are rows; a batch is the third dimension):
##
## @table @asis
## @item @var{D}
## n×d×Bt: n decoder rows of width d.
## @item @var{E}
## m×d_src×Bt: m encoded source tokens of width d_src (may differ from d).
## @item @var{B}
## struct with fields @code{W_Q} (d×h·dk), @code{W_K} (d_src×h_kv·dk),
## @code{W_V} (d_src×h_kv·dv), @code{W_O} (h·dv×d) and @code{heads} (h,
## dividing the columns of @code{W_Q}).
## Optional fields (absent or @code{[]}: off): the biases @code{b_Q}
## (1×h·dk), @code{b_K} (1×h_kv·dk), @code{b_V} (1×h_kv·dv) and @code{b_O}
## (1×d), added to Q, K, V and delta (@code{Q = D*W_Q + b_Q}, @dots{});
## @code{kv_heads} (h_kv, dividing h; without it h_kv = h), grouped-query
## attention: query head j reads K/V head ceil (j/(h/h_kv)).  A cross
## block has no rotary positions (@code{rope_base} is an
## @code{attention:rope} error): the source rows are not positions of the
## decoder's sequence.
## @item @var{key_allow}
## logical m×Bt: @code{true} marks a real source token, @code{false}
## padding.  Omitted or @code{[]}: every source token is real.
## @item @var{Y}
## n×d×Bt.
## @end table
##
## A decoder row whose source is all padding gets weights 0 and message 0,
## so its row of @var{Y} equals its row of @var{D} (plus @code{b_O}); never
## NaN.
##
## The trace @var{T} holds every matrix of the pass:
##
## @multitable @columnfractions 0.17 0.23 0.60
## @headitem field @tab shape @tab meaning
## @item @code{kind} @tab string @tab @qcode{"cross"}
## @item @code{heads} @tab scalar @tab h
## @item @code{D} @tab n×d×Bt @tab the decoder rows
## @item @code{E} @tab m×d_src×Bt @tab the encoded source
## @item @code{key_allow} @tab m×Bt or [] @tab the key mask given
## @item @code{Q} @tab n×h·dk×Bt @tab @code{D*W_Q + b_Q}
## @item @code{K} @tab m×h_kv·dk×Bt @tab @code{E*W_K + b_K}
## @item @code{V} @tab m×h_kv·dv×Bt @tab @code{E*W_V + b_V}
## @item @code{scores} @tab n×m×h×Bt @tab @code{Q_j*K_j'/sqrt(dk)},
## @code{-Inf} where not allowed
## @item @code{A} @tab n×m×h×Bt @tab row softmax of the scores (the
## weights α): row i shows where decoder row i looked
## @item @code{message} @tab n×h·dv×Bt @tab the heads' @code{A_j*V_j} side
## by side (m_i)
## @item @code{delta} @tab n×d×Bt @tab @code{message*W_O + b_O} (Δe_i)
## @item @code{out} @tab n×d×Bt @tab @code{D + delta}, equal to @var{Y}
## @end multitable
##
## @var{cache} (after @var{mode}; @code{[]} for none) holds keys and values
## already computed: a struct with @code{K} (t×h_kv·dk×Bt) and @code{V}
## (t×h·dv×Bt), e.g.@: the trace @var{T} of an earlier call.  The rows of
## @var{E} (m×d_src×Bt, m may be 0) add their keys and values after them,
## @var{key_allow} (if given) is (t+m)×Bt.  A decoder computes the keys and
## values of the encoded source once and passes them at every later step
## with an @var{E} of no rows.  Such a trace is not one @code{attn_backward}
## differentiates.
##
## @var{mode} (after @var{key_allow}, which may be @code{[]}) chooses the
## trace: @qcode{"full"} (the default) returns every field above;
## @qcode{"lean"} returns only what @code{attn_backward} reads
## (@code{kind}, @code{heads}, @code{D}, @code{E}, @code{key_allow}, @code{Q}, @code{K},
## @code{V}, @code{A}, @code{message}) and @code{delta} (what a pre-norm
## residual adds), each equal to the same field of the full trace, for
## training where nothing inspects the scores: the scores are never stored
## (the softmax runs in place) and @code{out} is not copied.  @var{Y} and
## the gradients of @code{attn_backward} are the same in both modes.
## @qcode{"step"} returns what a decoding step reads: @code{kind},
## @code{heads}, @code{D}, @code{E}, @code{key_allow}, @code{K} and @code{V}
## (the next step's cache) and @code{delta}, each equal to the same field
## of the full trace; @code{Q}, the weights and the message live only
## during the call, and @var{Y} is the same.
##
## @code{attn_backward (dY, T, B)} differentiates the block from this trace
## (gradients @code{dD} and @code{dE}).
##
## @var{D}, @var{E} and the weights of @var{B} (and a cache) are all double,
## or all single: then the single kernels run (BLAS sgemm) and @var{Y} and
## every array of @var{T} are single (a model of @code{attn_cast}).
##
## Errors, by identifier: @code{attention:nargin}, @code{attention:nargout}
## (argument counts); @code{attention:type} (@var{D}, @var{E} or a weight
## not a real full double or single array, @var{B} not a struct, @var{key_allow} not
## logical); @code{attention:field} (a field of @var{B} missing);
## @code{attention:size} (@var{E} with another batch size than @var{D}, a
## weight whose shape disagrees, or @w{dk = 0}; when the rows of @var{D} or
## @var{E} match the rows of the weight they meet, the message says that
## tokens are rows and the input looks transposed); @code{attention:heads}
## (@code{heads} or @code{kv_heads} not a positive integer, @code{heads}
## not dividing h·dk, @code{kv_heads} not dividing @code{heads} or h_kv·dv);
## @code{attention:rope} (@var{B} has a @code{rope_base});
## @code{attention:mask} (@var{key_allow} not m×Bt);
## @code{attention:nonfinite} (NaN or Inf in an input);
## @code{attention:overflow} (a score or a result beyond the range of its type:
## Inf or NaN from finite inputs); @code{attention:type} (@var{cache} not []
## or a struct); @code{attention:option} (@var{mode} not @qcode{"full"},
## @qcode{"lean"} or @qcode{"step"}); @code{attention:toolarge} (sizes
## beyond what BLAS addresses, or more memory than the machine has).
##
## Seed 004: translating "the black cat", the decoder has written "le" and
## asks for a noun (and a bit of the adjective).  The source's keys are its
## roles det, adj, noun, end (scaled by 2); @code{W_V} turns each role into
## the one-hot French word of its source word:
##
## @example
## @group
## french = @{"le", "chat", "noir", "<end>"@};
## E = 2 * eye (4);                    # the, black, cat, end
## values = [1 0 0 0; 0 0 1 0; 0 1 0 0; 0 0 0 1];
## B = struct ("W_Q", eye (4), "W_K", eye (4), "W_V", values / 2,
##             "W_O", zeros (4), "heads", 1);
## [Y, T] = attn_cross ([0 1 2 0], E, B);
## printf ("%.2f ", T.A); printf ("\n")
##   @print{} 0.08 0.22 0.61 0.08
## [~, k] = max (T.message);
## french@{k@}
##   @result{} ans = chat
## @end group
## @end example
##
## @seealso{attn_self, attn_masked, attn_backward, attn_sdpa}
## @end deftypefn

%!test
%! ## seed 004: the query for "a noun, and a bit of the adjective" puts 0.61
%! ## on "cat", whose value is the one-hot "chat"
%! E = 2 * eye (4);
%! values = [1 0 0 0; 0 0 1 0; 0 1 0 0; 0 0 0 1];   # le, noir, chat, <end>
%! B = struct ("W_Q", eye (4), "W_K", eye (4), "W_V", values / 2,
%!             "W_O", zeros (4), "heads", 1);
%! [Y, T] = attn_cross ([0 1 2 0], E, B);
%! w = exp ([0 1 2 0]) / sum (exp ([0 1 2 0]));
%! assert (T.scores, [0 1 2 0], 1e-15);
%! assert (T.A, w, 1e-15);
%! assert (T.message, w * values, 1e-15);
%! [~, k] = max (T.message);
%! assert (k, 2);                                  # "chat"
%! assert (Y, [0 1 2 0]);                          # W_O = 0: nothing added

%!test
%! ## the decoder rows read the encoder rows; padded source tokens get no weight
%! D = randn (3, 4, 2);  E = randn (5, 2, 2);
%! B = struct ("W_Q", randn (4, 2), "W_K", randn (2, 2), "W_V", randn (2, 3),
%!             "W_O", randn (3, 4), "heads", 1);
%! allow = logical ([1 1 1 1 1; 1 1 0 0 0])';
%! Y = attn_cross (D, E, B, allow);
%! for b = 1:2
%!   keys = find (allow(:,b));
%!   S = D(:,:,b) * B.W_Q * (E(keys,:,b) * B.W_K)' / sqrt (2);
%!   W = exp (S - max (S, [], 2));
%!   W = W ./ sum (W, 2);
%!   assert (Y(:,:,b), D(:,:,b) + W * E(keys,:,b) * B.W_V * B.W_O, 1e-13);
%! endfor

%!error <E is 2x5 and B.W_K has 2 rows: tokens are rows> attn_cross (randn (3, 4), randn (2, 5), struct ("W_Q", randn (4, 2), "W_K", randn (2, 2), "W_V", randn (2, 3), "W_O", randn (3, 4), "heads", 1))
%!error id=attention:size attn_cross (randn (3, 4, 2), randn (5, 2, 3), struct ("W_Q", randn (4, 2), "W_K", randn (2, 2), "W_V", randn (2, 3), "W_O", randn (3, 4), "heads", 1))

%!test
%! ## keys and values given: the rows of the pass that computes them itself
%! randn ("state", 3);
%! D = randn (2, 4, 3);  E = randn (5, 3, 3);  allow = true (5, 3);  allow(4:5,2) = false;
%! B = struct ("W_Q", randn (4, 6), "W_K", randn (3, 6), "W_V", randn (3, 4),
%!             "W_O", randn (4, 4), "heads", 2);
%! [Y, T] = attn_cross (D, E, B, allow);
%! [Yc, Tc] = attn_cross (D, E(1:0,:,:), B, allow, "lean", T);
%! assert (isequal (Yc, Y) && isequal (Tc.A, T.A) && isequal (Tc.K, T.K));
%! [Y2, T2] = attn_cross (D, E(3:5,:,:), B, allow, "full", struct ("K", T.K(1:2,:,:), "V", T.V(1:2,:,:)));
%! assert (Y2, Y, 1e-14);
%! assert (T2.K, T.K, 1e-15);

%!error <cache.V must be> attn_cross (1, 1, struct ("W_Q", 1, "W_K", 1, "W_V", 1, "W_O", 1, "heads", 1), [], "lean", struct ("K", 1, "V", ones (2, 1)))

%!test
%! ## biases and kv_heads: K and V have h_kv·dk and h_kv·dv columns, and
%! ## delta = message*W_O + b_O
%! D = randn (2, 3);  E = randn (5, 4);
%! B = struct ("W_Q", randn (3, 4), "W_K", randn (4, 2), "W_V", randn (4, 1),
%!             "W_O", randn (2, 3), "heads", 2, "kv_heads", 1,
%!             "b_K", randn (1, 2), "b_O", randn (1, 3));
%! [Y, T] = attn_cross (D, E, B);
%! assert (T.K, E * B.W_K + B.b_K, 1e-14);
%! assert (size (T.V), [5 1]);
%! assert (T.delta, T.message * B.W_O + B.b_O, 1e-14);
%!error <for self and masked blocks> attn_cross (1, 1, struct ("W_Q", [1 1], "W_K", [1 1], "W_V", 1, "W_O", 1, "heads", 1, "rope_base", 100))
