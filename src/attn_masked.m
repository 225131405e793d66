## -*- texinfo -*-
## @deftypefn  {} {@var{Y} =} attn_masked (@var{X}, @var{B})
## @deftypefnx {} {@var{Y} =} attn_masked (@var{X}, @var{B}, @var{key_allow})
## @deftypefnx {} {[@var{Y}, @var{T}] =} attn_masked (@dots{})
## @deftypefnx {} {[@var{Y}, @var{T}] =} attn_masked (@var{X}, @var{B}, @var{key_allow}, @var{mode})
## @deftypefnx {} {[@var{Y}, @var{T}] =} attn_masked (@var{X}, @var{B}, @var{key_allow}, @var{mode}, @var{cache})
## Masked (causal) decoder self-attention block.  Token i reads tokens
## j <= i only.
##
## The same operation as @code{attn_self}, with a causal mask: while the
## decoder writes, a target word may look at the words already written but
## not at the ones to come.  With @var{B} the block struct, and head j using
## columns (j-1)·dk+1 @dots{} j·dk of @var{Q} and @var{K} (and by dv of
## @var{V}):
##
## @example
## @group
## Q = X*W_Q;   K = X*W_K;   V = X*W_V
## scores_j  = Q_j*K_j' / sqrt (dk)      # -Inf where j > i or not allowed
## A_j       = softmax (scores_j, 2)     # zero above the diagonal
## message   = [A_1*V_1, ..., A_h*V_h]
## delta     = message*W_O
## Y         = X + delta                 # the residual stream
## @end group
## @end example
##
## Shapes (tokens are rows; a batch is the third dimension):
##
## @table @asis
## @item @var{X}
## n×d×Bt: Bt target sequences of n tokens of width d.
## @item @var{B}
## struct with fields @code{W_Q} (d×h·dk), @code{W_K} (d×h_kv·dk),
## @code{W_V} (d×h_kv·dv), @code{W_O} (h·dv×d) and @code{heads} (h,
## dividing the columns of @code{W_Q}).
## Optional fields (absent or @code{[]}: off): the biases @code{b_Q}
## (1×h·dk), @code{b_K} (1×h_kv·dk), @code{b_V} (1×h_kv·dv) and @code{b_O}
## (1×d), added to Q, K, V and delta (@code{Q = X*W_Q + b_Q}, @dots{});
## @code{kv_heads} (h_kv, dividing h; without it h_kv = h), grouped-query
## attention: query head j reads K/V head ceil (j/(h/h_kv));
## @code{rope_base} (a scalar > 0, e.g.@: 10000, with dk even), rotary
## positions (below).
## @item @var{key_allow}
## logical n×Bt: @code{true} marks a real token, @code{false} padding; it
## combines with the causal mask (both must allow a pair).  Omitted or
## @code{[]}: every token is real.
## @item @var{Y}
## n×d×Bt.
## @end table
##
## A query with no allowed key (e.g.@: a padding token in first position)
## gets weights 0 and message 0, so its row of @var{Y} equals its row of
## @var{X} (plus @code{b_O}); never NaN.
##
## With @code{rope_base}, Q and K are turned by position after the biases
## (the rotate-half layout of Llama): in each head, entry i (0-based,
## i < dk/2) of the row at position p (0-based) pairs with entry i + dk/2
## and the pair turns by the angle p·rope_base^(-2i/dk):
## [x_i, x_(i+dk/2)] becomes [x_i·cos - x_(i+dk/2)·sin, x_(i+dk/2)·cos +
## x_i·sin].  A score then depends on the two rows and their distance.
## @code{T.Q} and @code{T.K} hold the turned rows.  With @var{cache} (t
## rows), row i of @var{X} is at position t+i-1, and the cache holds
## turned keys.
##
## The trace @var{T} holds every matrix of the pass:
##
## @multitable @columnfractions 0.17 0.21 0.62
## @headitem field @tab shape @tab meaning
## @item @code{kind} @tab string @tab @qcode{"masked"}
## @item @code{heads} @tab scalar @tab h
## @item @code{X} @tab n×d×Bt @tab the input rows
## @item @code{key_allow} @tab n×Bt or [] @tab the key mask given
## @item @code{Q} @tab n×h·dk×Bt @tab @code{X*W_Q + b_Q}, turned with
## @code{rope_base}
## @item @code{K} @tab n×h_kv·dk×Bt @tab @code{X*W_K + b_K}, turned with
## @code{rope_base}
## @item @code{V} @tab n×h_kv·dv×Bt @tab @code{X*W_V + b_V}
## @item @code{scores} @tab n×n×h×Bt @tab @code{Q_j*K_j'/sqrt(dk)},
## @code{-Inf} above the diagonal and where not allowed
## @item @code{A} @tab n×n×h×Bt @tab row softmax of the scores (the
## weights α), lower triangular
## @item @code{message} @tab n×h·dv×Bt @tab the heads' @code{A_j*V_j} side
## by side (m_i)
## @item @code{delta} @tab n×d×Bt @tab @code{message*W_O + b_O} (Δe_i)
## @item @code{out} @tab n×d×Bt @tab @code{X + delta}, equal to @var{Y}
## @end multitable
##
## @var{cache} (after @var{mode}; @code{[]} for none) makes the call one
## step of a decoder that writes a row at a time: a struct with @code{K}
## (t×h_kv·dk×Bt) and @code{V} (t×h_kv·dv×Bt), the keys and values of t earlier
## rows (the trace @var{T} of the call before will do).  @var{X} then holds
## the rows t+1 @dots{} t+n: their keys and values are appended to the
## cache (@code{T.K}, @code{T.V} are (t+n)×@dots{}), row i reads keys
## j <= t+i, and @var{key_allow} (if given) is (t+n)×Bt.  The rows are
## those of the whole pass on all t+n rows.  Such a trace is not one
## @code{attn_backward} differentiates.
##
## @var{mode} (after @var{key_allow}, which may be @code{[]}) chooses the
## trace: @qcode{"full"} (the default) returns every field above;
## @qcode{"lean"} returns only what @code{attn_backward} reads
## (@code{kind}, @code{heads}, @code{X}, @code{key_allow}, @code{Q}, @code{K},
## @code{V}, @code{A}, @code{message}) and @code{delta} (what a pre-norm
## residual adds), each equal to the same field of the full trace, for
## training where nothing inspects the scores: the scores are never stored
## (the softmax runs in place) and @code{out} is not copied.  @var{Y} and the gradients of
## @code{attn_backward} are the same in both modes.
## @qcode{"step"} returns what a decoding step reads: @code{kind},
## @code{heads}, @code{X}, @code{key_allow}, @code{K} and @code{V}
## (the next step's cache) and @code{delta}, each equal to the same field
## of the full trace; @code{Q}, the weights and the message live only
## during the call, and @var{Y} is the same.
##
## @code{attn_backward (dY, T, B)} differentiates the block from this trace.
##
## The rows and the weights of @var{B} (and a cache) are all double, or all
## single: then the single kernels run (BLAS sgemm) and @var{Y} and every
## array of @var{T} are single (a model of @code{attn_cast}).
##
## Errors, by identifier: @code{attention:nargin}, @code{attention:nargout}
## (argument counts); @code{attention:type} (@var{X} or a weight not a real
## full double or single array, @var{B} not a struct, @var{key_allow} not logical);
## @code{attention:field} (a field of @var{B} missing);
## @code{attention:size} (a weight whose shape disagrees with @var{X} or the
## other weights, or @w{dk = 0}; when the rows of @var{X} match the rows of
## @code{W_Q}, the message says that tokens are rows and @var{X} looks
## transposed); @code{attention:heads} (@code{heads} or @code{kv_heads} not
## a positive integer, @code{heads} not dividing h·dk, @code{kv_heads} not
## dividing @code{heads} or h_kv·dv); @code{attention:rope}
## (@code{rope_base} not a finite scalar > 0, or dk odd); @code{attention:mask}
## (@var{key_allow} not n×Bt); @code{attention:nonfinite} (NaN or Inf in
## @var{X} or a weight); @code{attention:overflow} (a score or a result
## beyond the range of its type: Inf or NaN from finite inputs);
## @code{attention:type} (@var{cache} not [] or a struct);
## @code{attention:option} (@var{mode} not @qcode{"full"}, @qcode{"lean"}
## or @qcode{"step"}); @code{attention:toolarge} (sizes beyond what BLAS
## addresses, or more memory than the machine has).
##
## The first token can only read itself; the last reads all three:
##
## @example
## @group
## X = [1 0; 0 1; 1 1];
## B = struct ("W_Q", eye (2), "W_K", eye (2), "W_V", eye (2),
##             "W_O", eye (2), "heads", 1);
## [Y, T] = attn_masked (X, B);
## printf ("%.4f %.4f %.4f\n", T.A')
##   @print{} 1.0000 0.0000 0.0000
##   @print{} 0.3302 0.6698 0.0000
##   @print{} 0.2483 0.2483 0.5035
## isequal (Y(1,:), X(1,:) + X(1,:)*B.W_V*B.W_O)
##   @result{} ans = 1
## @end group
## @end example
##
## @seealso{attn_self, attn_cross, attn_backward, attn_sdpa}
## @end deftypefn

%!test
%! ## token i reads tokens j <= i: a plain causal softmax, head by head
%! X = randn (5, 4);
%! B = struct ("W_Q", randn (4, 6), "W_K", randn (4, 6), "W_V", randn (4, 4),
%!             "W_O", randn (4, 4), "heads", 2);
%! [Y, T] = attn_masked (X, B);
%! msg = zeros (5, 4);
%! for j = 1:2
%!   S = X * B.W_Q(:, 3*j-2:3*j) * (X * B.W_K(:, 3*j-2:3*j))' / sqrt (3);
%!   S(triu (true (5), 1)) = -Inf;
%!   W = exp (S - max (S, [], 2));
%!   W = W ./ sum (W, 2);
%!   assert (T.A(:,:,j), W, 1e-14);
%!   msg(:, 2*j-1:2*j) = W * X * B.W_V(:, 2*j-1:2*j);
%! endfor
%! assert (Y, X + msg * B.W_O, 1e-13);

%!test
%! ## the numbers printed above: the first token reads only itself
%! X = [1 0; 0 1; 1 1];
%! B = struct ("W_Q", eye (2), "W_K", eye (2), "W_V", eye (2),
%!             "W_O", eye (2), "heads", 1);
%! [~, T] = attn_masked (X, B);
%! e = exp (1 / sqrt (2));
%! assert (T.A(1,:), [1 0 0]);
%! assert (T.A(2,:), [1 e 0] / (1 + e), 1e-15);

%!test
%! ## padding in first position: that query has no allowed key, Y = X there
%! X = randn (3, 2);
%! B = struct ("W_Q", randn (2), "W_K", randn (2), "W_V", randn (2),
%!             "W_O", randn (2), "heads", 1);
%! Y = attn_masked (X, B, logical ([0; 1; 1]));
%! assert (Y(1,:), X(1,:));

%!error <tokens are rows> attn_masked (randn (2, 3), struct ("W_Q", eye (2), "W_K", eye (2), "W_V", eye (2), "W_O", eye (2), "heads", 1))
%!error id=attention:nargout [a, b, c] = attn_masked (1, struct ("W_Q", 1, "W_K", 1, "W_V", 1, "W_O", 1, "heads", 1))

%!test
%! ## a row at a time with the K/V cache gives the rows of the whole pass
%! randn ("state", 2);
%! X = randn (5, 4, 3);
%! B = struct ("W_Q", randn (4, 6), "W_K", randn (4, 6), "W_V", randn (4, 4),
%!             "W_O", randn (4, 4), "heads", 2);
%! [Y, T] = attn_masked (X, B);
%! [y, C] = attn_masked (X(1,:,:), B, [], "lean");
%! for i = 2:5
%!   [y(i,:,:), C] = attn_masked (X(i,:,:), B, [], "lean", C);
%! endfor
%! assert (y, Y, 1e-14);
%! assert (C.K, T.K, 1e-15);
%! assert (C.A, T.A(5,:,:,:), 1e-15);
%! [y2, C2] = attn_masked (X(4:5,:,:), B, [], "full", struct ("K", T.K(1:3,:,:), "V", T.V(1:3,:,:)));
%! assert (y2, Y(4:5,:,:), 1e-14);
%! assert (C2.A, T.A(4:5,:,:,:), 1e-15);

%!error id=attention:type attn_masked (1, struct ("W_Q", 1, "W_K", 1, "W_V", 1, "W_O", 1, "heads", 1), [], "lean", 3)
%!error <cache.K must be> attn_masked (1, struct ("W_Q", 1, "W_K", 1, "W_V", 1, "W_O", 1, "heads", 1), [], "lean", struct ("K", ones (1, 2), "V", 1))

%!test
%! ## rope_base: row 2 of Q and K (position 1) turned by the angles 1 and
%! ## rope_base^(-1/2) (dk = 4); row 1 (position 0) as it is
%! X = randn (2, 4);
%! B = struct ("W_Q", eye (4), "W_K", eye (4), "W_V", eye (4), "W_O", eye (4),
%!             "heads", 1, "rope_base", 100);
%! [~, T] = attn_masked (X, B);
%! a = [1, 0.1];
%! turned = [X(2,1:2) .* cos(a) - X(2,3:4) .* sin(a), ...
%!           X(2,3:4) .* cos(a) + X(2,1:2) .* sin(a)];
%! assert (T.Q, [X(1,:); turned], 1e-14);
%! assert (T.K, T.Q);
%!error id=attention:rope attn_masked (eye (3), struct ("W_Q", eye (3), "W_K", eye (3), "W_V", eye (3), "W_O", eye (3), "heads", 1, "rope_base", 100))
