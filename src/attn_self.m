## -*- texinfo -*-
## @deftypefn  {} {@var{Y} =} attn_self (@var{X}, @var{B})
## @deftypefnx {} {@var{Y} =} attn_self (@var{X}, @var{B}, @var{key_allow})
## @deftypefnx {} {[@var{Y}, @var{T}] =} attn_self (@dots{})
## @deftypefnx {} {[@var{Y}, @var{T}] =} attn_self (@var{X}, @var{B}, @var{key_allow}, @var{mode})
## Encoder self-attention block: tokens read each other.  Every token
## reads every (allowed) token of the same sequence.
##
## Queries, keys and values all come from the rows of @var{X}.  With
## @var{B} the block struct, and head j using columns (j-1)·dk+1 @dots{} j·dk
## of @var{Q} and @var{K} (and the same slicing by dv of @var{V}):
##
## @example
## @group
## Q = X*W_Q;   K = X*W_K;   V = X*W_V
## scores_j  = Q_j*K_j' / sqrt (dk)      # -Inf where not allowed
## A_j       = softmax (scores_j, 2)
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
## n×d×Bt: Bt sequences of n tokens of width d.
## @item @var{B}
## struct with fields @code{W_Q} (d×h·dk), @code{W_K} (d×h_kv·dk),
## @code{W_V} (d×h_kv·dv), @code{W_O} (h·dv×d) and @code{heads} (h,
## dividing the columns of @code{W_Q}); dk, dv and d are independent.
## Optional fields (absent or @code{[]}: off): the biases @code{b_Q}
## (1×h·dk), @code{b_K} (1×h_kv·dk), @code{b_V} (1×h_kv·dv) and @code{b_O}
## (1×d), added to Q, K, V and delta (@code{Q = X*W_Q + b_Q}, @dots{});
## @code{kv_heads} (h_kv, dividing h; without it h_kv = h), grouped-query
## attention: query head j reads K/V head ceil (j/(h/h_kv));
## @code{rope_base} (a scalar > 0, e.g.@: 10000, with dk even), rotary
## positions (below).
## @item @var{key_allow}
## logical n×Bt: @code{true} marks a real token, @code{false} padding that
## no query may read.  Omitted or @code{[]}: every token is real.
## @item @var{Y}
## n×d×Bt.
## @end table
##
## A query whose keys are all padding gets weights 0 and message 0, so its
## row of @var{Y} equals its row of @var{X} (plus @code{b_O}); never NaN.
##
## With @code{rope_base}, Q and K are turned by position after the biases
## (the rotate-half layout of Llama): in each head, entry i (0-based,
## i < dk/2) of the row at position p (0-based) pairs with entry i + dk/2
## and the pair turns by the angle p·rope_base^(-2i/dk):
## [x_i, x_(i+dk/2)] becomes [x_i·cos - x_(i+dk/2)·sin, x_(i+dk/2)·cos +
## x_i·sin].  A score then depends on the two rows and their distance.
## @code{T.Q} and @code{T.K} hold the turned rows.
##
## The trace @var{T} holds every matrix of the pass, named as in the course:
##
## @multitable @columnfractions 0.17 0.21 0.62
## @headitem field @tab shape @tab meaning
## @item @code{kind} @tab string @tab @qcode{"self"}
## @item @code{heads} @tab scalar @tab h
## @item @code{X} @tab n×d×Bt @tab the input rows
## @item @code{key_allow} @tab n×Bt or [] @tab the key mask given
## @item @code{Q} @tab n×h·dk×Bt @tab @code{X*W_Q + b_Q}, turned with
## @code{rope_base}
## @item @code{K} @tab n×h_kv·dk×Bt @tab @code{X*W_K + b_K}, turned with
## @code{rope_base}
## @item @code{V} @tab n×h_kv·dv×Bt @tab @code{X*W_V + b_V}
## @item @code{scores} @tab n×n×h×Bt @tab @code{Q_j*K_j'/sqrt(dk)},
## @code{-Inf} where not allowed
## @item @code{A} @tab n×n×h×Bt @tab row softmax of the scores (the
## weights α)
## @item @code{message} @tab n×h·dv×Bt @tab the heads' @code{A_j*V_j} side
## by side (m_i)
## @item @code{delta} @tab n×d×Bt @tab @code{message*W_O + b_O} (Δe_i)
## @item @code{out} @tab n×d×Bt @tab @code{X + delta}, equal to @var{Y}
## @end multitable
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
## @code{attention:option} (@var{mode} not @qcode{"full"}, @qcode{"lean"}
## or @qcode{"step"}); @code{attention:toolarge} (sizes beyond what BLAS
## addresses, or more memory than the machine has).
##
## Three tokens of width 2 with identity weights: each token attends most
## to itself and to the token it shares a direction with.
##
## @example
## @group
## X = [1 0; 0 1; 1 1];
## B = struct ("W_Q", eye (2), "W_K", eye (2), "W_V", eye (2),
##             "W_O", eye (2), "heads", 1);
## [Y, T] = attn_self (X, B);
## printf ("%.2f %.2f %.2f\n", T.A')
##   @print{} 0.40 0.20 0.40
##   @print{} 0.20 0.40 0.40
##   @print{} 0.25 0.25 0.50
## isequal (Y, T.out, X + T.delta)
##   @result{} ans = 1
## @end group
## @end example
##
## Two heads over a batch of two sentences, the second with two padding
## tokens that no query reads:
##
## @example
## @group
## X = rand (4, 3, 2);
## B = struct ("W_Q", rand (3, 4), "W_K", rand (3, 4), "W_V", rand (3, 6),
##             "W_O", rand (6, 3), "heads", 2);
## key_allow = logical ([1 1 1 1; 1 1 0 0])';
## [Y, T] = attn_self (X, B, key_allow);
## size (T.scores)
##   @result{} ans =
##        4   4   2   2
## size (T.message)
##   @result{} ans =
##        4   6   2
## all (T.A(:, 3:4, :, 2)(:) == 0)
##   @result{} ans = 1
## @end group
## @end example
##
## @seealso{attn_masked, attn_cross, attn_backward, attn_sdpa}
## @end deftypefn

## The block written out in plain Octave, head by head and item by item.
%!function Y = plain_self (X, B, key_allow)
%!  [n, d, Bt] = size (X);
%!  h = B.heads;  dk = columns (B.W_Q) / h;  dv = columns (B.W_V) / h;
%!  Y = X;
%!  for b = 1:Bt
%!    x = X(:,:,b);  msg = zeros (n, h * dv);
%!    for j = 1:h
%!      ck = (j-1)*dk+1 : j*dk;  cv = (j-1)*dv+1 : j*dv;
%!      S = (x * B.W_Q(:,ck)) * (x * B.W_K(:,ck))' / sqrt (dk);
%!      S(:, ! key_allow(:,b)) = -Inf;
%!      W = exp (S - max (S, [], 2));
%!      msg(:,cv) = (W ./ sum (W, 2)) * (x * B.W_V(:,cv));
%!    endfor
%!    Y(:,:,b) = x + msg * B.W_O;
%!  endfor
%!endfunction

%!test
%! ## two heads (dk = 2, dv = 3), a batch of two, padding in the second item
%! X = randn (4, 3, 2);
%! B = struct ("W_Q", randn (3, 4), "W_K", randn (3, 4), "W_V", randn (3, 6),
%!             "W_O", randn (6, 3), "heads", 2);
%! key_allow = logical ([1 1 1 1; 1 1 1 0])';
%! [Y, T] = attn_self (X, B, key_allow);
%! assert (Y, plain_self (X, B, key_allow), 1e-13);
%! assert (T.out, Y);
%! assert (T.Q(:,:,2), X(:,:,2) * B.W_Q, 1e-14);
%! assert (squeeze (sum (T.A, 2)), ones (4, 2, 2), 1e-14);
%! assert (T.A(:,4,:,2), zeros (4, 1, 2));
%! assert (attn_self (X, B, key_allow), Y);

%!test
%! ## identity weights: each token's row of weights, as printed above
%! X = [1 0; 0 1; 1 1];
%! B = struct ("W_Q", eye (2), "W_K", eye (2), "W_V", eye (2),
%!             "W_O", eye (2), "heads", 1);
%! [Y, T] = attn_self (X, B);
%! S = X * X' / sqrt (2);
%! assert (T.A, exp (S) ./ sum (exp (S), 2), 1e-15);
%! assert (Y, X + T.A * X, 1e-15);

%!error <tokens are rows> attn_self (randn (4, 3), struct ("W_Q", eye (4), "W_K", eye (4), "W_V", eye (4), "W_O", eye (4), "heads", 1))
%!error <got 2.5> attn_self (eye (4), struct ("W_Q", eye (4), "W_K", eye (4), "W_V", eye (4), "W_O", eye (4), "heads", 2.5))
%!error id=attention:mask attn_self (eye (4), struct ("W_Q", eye (4), "W_K", eye (4), "W_V", eye (4), "W_O", eye (4), "heads", 1), true (3, 1))

%!test
%! ## the lean trace: the fields attn_backward reads and delta, each equal to the full
%! ## trace's, and the same gradients
%! X = randn (4, 3, 2);
%! B = struct ("W_Q", randn (3, 4), "W_K", randn (3, 4), "W_V", randn (3, 2),
%!             "W_O", randn (2, 3), "heads", 2);
%! [Y, T] = attn_self (X, B);
%! [Yl, L] = attn_self (X, B, [], "lean");
%! assert (fieldnames (L)', {"kind", "heads", "X", "key_allow", "Q", "K", ...
%!                           "V", "A", "message", "delta"});
%! assert (Yl, Y);
%! for f = fieldnames (L)'
%!   assert (L.(f{1}), T.(f{1}));
%! endfor
%! dY = randn (size (Y));
%! assert (attn_backward (dY, L, B), attn_backward (dY, T, B));
%! [~, F] = attn_self (X, B, [], "full");
%! assert (F, T);

%!error id=attention:option attn_self (eye (2), struct ("W_Q", eye (2), "W_K", eye (2), "W_V", eye (2), "W_O", eye (2), "heads", 1), [], "slim")

%!test
%! ## kv_heads = 1: both query heads read the one K/V head, the same as two
%! ## heads with the K/V columns repeated; b_Q and b_V shift Q and V
%! X = randn (4, 3, 2);
%! B = struct ("W_Q", randn (3, 4), "W_K", randn (3, 2), "W_V", randn (3, 3),
%!             "W_O", randn (6, 3), "heads", 2, "kv_heads", 1,
%!             "b_Q", randn (1, 4), "b_V", randn (1, 3));
%! [Y, T] = attn_self (X, B);
%! B2 = setfield (setfield (B, "W_K", B.W_K(:,[1 2 1 2])), "W_V", B.W_V(:,[1:3 1:3]));
%! B2 = setfield (setfield (rmfield (B2, "kv_heads"), "b_V", B.b_V([1:3 1:3])), "b_Q", B.b_Q);
%! assert (Y, attn_self (X, B2), 1e-13);
%! assert (size (T.K), [4 2 2]);
%! assert (T.Q(:,:,2), X(:,:,2) * B.W_Q + B.b_Q, 1e-14);
%! assert (T.V(:,:,1), X(:,:,1) * B.W_V + B.b_V, 1e-14);
