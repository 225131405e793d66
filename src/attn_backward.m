## -*- texinfo -*-
## @deftypefn {} {@var{G} =} attn_backward (@var{dY}, @var{T}, @var{B})
## Gradients of an attention block, from its forward trace.
##
## @var{T} is the trace returned by @code{[Y, T] = attn_self (X, B, @dots{})},
## @code{attn_masked} or @code{attn_cross}, and @var{B} the same block
## struct; @var{dY} = dL/dY is the gradient of a scalar loss L with respect
## to the block's output (n×d×Bt, the shape of @var{Y}).  Each step undoes
## one line of the forward pass, per head j:
##
## @example
## @group
## dmessage = dY*W_O'                     # from delta = message*W_O
## dA_j     = dmessage_j*V_j'             # from message_j = A_j*V_j
## dV_j     = A_j'*dmessage_j
## dS_j     = A_j .* (dA_j - sum (dA_j .* A_j, 2))   # row softmax
## dQ_j     = dS_j*K_j / sqrt (dk)        # from scores_j
## dK_j     = dS_j'*Q_j / sqrt (dk)
## G.W_Q = X_q'*dQ;   G.W_K = X_kv'*dK;   G.W_V = X_kv'*dV
## G.W_O = message'*dY
## dX_q  = dY + dQ*W_Q'                   # residual path and queries
## dX_kv = dK*W_K' + dV*W_V'              # keys and values
## @end group
## @end example
##
## X_q are the query rows (@code{T.X}, or @code{T.D} for cross-attention)
## and X_kv the key/value rows (@code{T.X}, or @code{T.E}).
##
## The optional fields of @var{B} (see @code{attn_self}) add their steps:
## with biases, @code{G.b_O = sum (dY)} over every row of the batch, and
## @code{G.b_Q}, @code{G.b_K}, @code{G.b_V} the sums of the rows of dQ,
## dK, dV; with @code{kv_heads}, the dK and dV of a K/V head are the sums
## over the query heads that read it; with @code{rope_base}, dQ and dK are
## turned back (by minus each row's angle) before the products with X.
##
## @var{G} is a struct:
##
## @table @code
## @item W_Q, W_K, W_V, W_O
## dL/dW, the shapes of the fields of @var{B}, summed over the batch.
## @item b_Q, b_K, b_V, b_O
## (those @var{B} has) dL/db, 1×the columns of the weight, summed over
## every row of the batch.
## @item dX
## (@code{attn_self}, @code{attn_masked}) n×d×Bt: dL/dX = dX_q + dX_kv,
## through the queries, keys, values and the residual path (so @code{dY}
## itself is part of it).
## @item dD, dE
## (@code{attn_cross}) n×d×Bt and m×d_src×Bt: dL/dD = dX_q (queries and
## residual) and dL/dE = dX_kv (keys and values).
## @end table
##
## The mask is read from the weights: disallowed pairs have @code{A = 0}
## and receive no gradient; a query with no allowed key passes only the
## residual @code{dY}.
##
## Errors, by identifier: @code{attention:nargin}, @code{attention:nargout}
## (argument counts); @code{attention:type} (@var{dY} not a real full double or single
## array, @var{T} or @var{B} not a struct); @code{attention:field} (a field
## of @var{T} or @var{B} missing, or @code{T.kind} not @qcode{"self"},
## @qcode{"masked"} or @qcode{"cross"}); @code{attention:size} (@var{dY}, a
## trace field or a weight whose shape disagrees with the forward pass);
## @code{attention:heads}; @code{attention:rope} (@code{rope_base} with a
## cross trace, or a bad @code{rope_base}); @code{attention:trace} (@var{T} not made with
## this @var{B}: @code{T.heads} differs from @code{B.heads}, or the first
## row of @code{T.Q}, @code{T.K}, @code{T.V} or @code{T.delta} differs from
## that row of the product it holds, e.g.@: @code{T.X*B.W_Q + B.b_Q}, beyond
## rounding); @code{attention:nonfinite};
## @code{attention:overflow} (a gradient beyond the range of its type);
## @code{attention:toolarge}.
##
## The gradient of L = sum (Y(:)) for a masked block, checked against
## central differences for @code{W_Q}:
##
## @example
## @group
## X = [1 0; 0 1; 1 1];
## B = struct ("W_Q", [1 2; 0 1], "W_K", [1 0; 1 1], "W_V", [0 1; 1 0],
##             "W_O", [1 0; 0 2], "heads", 1);
## [Y, T] = attn_masked (X, B);
## G = attn_backward (ones (size (Y)), T, B);
## fieldnames (G)'
##   @result{} ans =
##   @{
##     [1,1] = W_Q
##     [1,2] = W_K
##     [1,3] = W_V
##     [1,4] = W_O
##     [1,5] = dX
##   @}
## L = @@(W_Q) sum (attn_masked (X, setfield (B, "W_Q", W_Q))(:));
## fd = zeros (2);
## for k = 1:4
##   e = zeros (2);  e(k) = 1e-6;
##   fd(k) = (L (B.W_Q + e) - L (B.W_Q - e)) / 2e-6;
## endfor
## max (abs (fd(:) - G.W_Q(:))) < 1e-8
##   @result{} ans = 1
## @end group
## @end example
##
## @seealso{attn_self, attn_masked, attn_cross, attn_sdpa_backward}
## @end deftypefn

## Central differences of L = sum (W(:) .* f(x)(:)) with respect to x.
%!function g = numgrad (f, x, W)
%!  g = zeros (size (x));
%!  h = 1e-6;
%!  for k = 1:numel (x)
%!    e = zeros (size (x));
%!    e(k) = h;
%!    g(k) = (sum (W(:) .* f (x + e)(:)) - sum (W(:) .* f (x - e)(:))) / (2*h);
%!  endfor
%!endfunction

%!test
%! ## self-attention, two heads, a batch of two: gradients of every weight
%! ## and of X against central differences
%! X = randn (3, 4, 2);
%! B = struct ("W_Q", randn (4, 4), "W_K", randn (4, 4), "W_V", randn (4, 2),
%!             "W_O", randn (2, 4), "heads", 2);
%! dY = randn (3, 4, 2);
%! [~, T] = attn_self (X, B);
%! G = attn_backward (dY, T, B);
%! for f = {"W_Q", "W_K", "W_V", "W_O"}
%!   fd = numgrad (@(w) attn_self (X, setfield (B, f{1}, w)), B.(f{1}), dY);
%!   assert (G.(f{1}), fd, 1e-7);
%! endfor
%! assert (G.dX, numgrad (@(x) attn_self (x, B), X, dY), 1e-7);

%!test
%! ## cross-attention: dD through queries and the residual, dE through keys
%! ## and values
%! D = randn (2, 3);  E = randn (4, 2);
%! B = struct ("W_Q", randn (3, 2), "W_K", randn (2, 2), "W_V", randn (2, 2),
%!             "W_O", randn (2, 3), "heads", 1);
%! dY = randn (2, 3);
%! [~, T] = attn_cross (D, E, B);
%! G = attn_backward (dY, T, B);
%! assert (G.dD, numgrad (@(x) attn_cross (x, E, B), D, dY), 1e-7);
%! assert (G.dE, numgrad (@(x) attn_cross (D, x, B), E, dY), 1e-7);

%!error <T.heads = 2 but B.heads = 1> [~, T] = attn_self (eye (2), struct ("W_Q", eye (2), "W_K", eye (2), "W_V", eye (2), "W_O", eye (2), "heads", 2)); attn_backward (eye (2), T, struct ("W_Q", eye (2), "W_K", eye (2), "W_V", eye (2), "W_O", eye (2), "heads", 1))
%!error <T must be the trace of the forward pass with this block B> [~, T] = attn_self (eye (2), struct ("W_Q", eye (2), "W_K", eye (2), "W_V", eye (2), "W_O", eye (2), "heads", 1)); attn_backward (eye (2), T, struct ("W_Q", 2 * eye (2), "W_K", eye (2), "W_V", eye (2), "W_O", eye (2), "heads", 1))

%!test
%! ## bias gradients: G.b_O is the sum of dY's rows, G.b_V the sum of dV's
%! ## (V = X*W_V + b_V: G.W_V = X'*dV); fields in the order W, b, dX
%! X = randn (3, 2, 2);  dY = randn (3, 2, 2);
%! B = struct ("W_Q", randn (2, 2), "W_K", randn (2, 2), "W_V", randn (2, 2),
%!             "W_O", randn (2, 2), "heads", 1, "b_V", randn (1, 2),
%!             "b_O", randn (1, 2));
%! [~, T] = attn_self (X, B);
%! G = attn_backward (dY, T, B);
%! assert (fieldnames (G)', {"W_Q", "W_K", "W_V", "W_O", "b_V", "b_O", "dX"});
%! assert (G.b_O, sum (sum (dY, 3), 1), 1e-14);
%! ## X's second column is all ones, so G.W_V(2,:) = ones'*dV = G.b_V
%! X(:,2,:) = 1;
%! [~, T] = attn_self (X, B);
%! G = attn_backward (dY, T, B);
%! assert (G.b_V, G.W_V(2,:), 1e-13);
