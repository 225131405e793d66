## -*- texinfo -*-
## @deftypefn  {} {@var{dQ} =} attn_sdpa_backward (@var{dM}, @var{Q}, @var{K}, @var{V}, @var{A})
## @deftypefnx {} {[@var{dQ}, @var{dK}, @var{dV}] =} attn_sdpa_backward (@dots{})
## Gradients of scaled dot-product attention.
##
## Given @var{dM} = dL/dM, the gradient of a scalar loss L with respect to
## the messages @code{M = attn_sdpa (Q, K, V, allow)}, and the weights
## @var{A} that call returned, computes the gradients with respect to
## @var{Q}, @var{K} and @var{V}, each step undoing one line of the forward
## pass:
##
## @example
## @group
## dV = A'*dM                       # from M = A*V
## dA = dM*V'
## dS = A .* (dA - sum (dA .* A, 2))  # from the row softmax
## dQ = dS*K / sqrt (dk)            # from S = Q*K'/sqrt(dk)
## dK = dS'*Q / sqrt (dk)
## @end group
## @end example
##
## The mask needs no argument: disallowed pairs have @code{A = 0}, so their
## @code{dS} is 0, and a query with no allowed key gets zero gradient.
##
## Shapes, as in @code{attn_sdpa}: @var{Q} n×dk×P@dots{}, @var{K}
## m×dk×P@dots{}, @var{V} m×dv×P@dots{}, @var{A} n×m×P@dots{},
## @var{dM} n×dv×P@dots{}; @var{dQ}, @var{dK} and @var{dV} have the shapes
## of @var{Q}, @var{K} and @var{V}.  Pages P@dots{} are independent.
##
## Errors, by identifier: @code{attention:nargin}, @code{attention:nargout},
## @code{attention:type} (not a real full double or single array),
## @code{attention:size} (shapes that disagree, or @w{dk = 0}),
## @code{attention:nonfinite} (NaN or Inf), @code{attention:overflow} (a
## gradient beyond the range of its type), @code{attention:toolarge}.
##
## Seed 004's query again, with L the weight on "black" (V = I makes the
## message equal to the weights); the gradient agrees with central
## differences:
##
## @example
## @group
## q = [0 1 2 0];
## K = 2 * eye (4);
## V = eye (4);
## [M, A] = attn_sdpa (q, K, V);
## dM = [0 1 0 0];                  # L = M(2)
## dq = attn_sdpa_backward (dM, q, K, V, A);
## printf ("%.4f ", dq); printf ("\n")
##   @print{} -0.0185 0.1741 -0.1370 -0.0185
## L = @@(q) attn_sdpa (q, K, V)(2);
## h = 1e-6;
## e = @@(i) h * (1:4 == i);
## fd = arrayfun (@@(i) (L (q + e(i)) - L (q - e(i))) / (2*h), 1:4);
## max (abs (fd - dq)) < 1e-8
##   @result{} ans = 1
## @end group
## @end example
##
## @seealso{attn_sdpa, attn_backward}
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
%! ## every gradient against central differences of the forward pass
%! Q = randn (3, 2);  K = randn (4, 2);  V = randn (4, 3);  W = randn (3, 3);
%! [~, A] = attn_sdpa (Q, K, V);
%! [dQ, dK, dV] = attn_sdpa_backward (W, Q, K, V, A);
%! assert (dQ, numgrad (@(x) attn_sdpa (x, K, V), Q, W), 1e-8);
%! assert (dK, numgrad (@(x) attn_sdpa (Q, x, V), K, W), 1e-8);
%! assert (dV, numgrad (@(x) attn_sdpa (Q, K, x), V, W), 1e-8);

%!test
%! ## masked pairs (A = 0) get no gradient; the causal first row reads key 1 only
%! Q = randn (3, 2);  K = randn (3, 2);  V = randn (3, 2);
%! [~, A] = attn_sdpa (Q, K, V, "causal");
%! [dQ, dK] = attn_sdpa_backward ([1 0; 0 0; 0 0], Q, K, V, A);
%! assert (dQ, zeros (3, 2));   # one allowed key: its weight is 1 whatever Q
%! assert (dK, zeros (3, 2));

%!error id=attention:size attn_sdpa_backward (rand (3, 4), rand (3, 2), rand (4, 2), rand (4, 5), rand (3, 4))
%!error id=attention:nargin attn_sdpa_backward (rand (3, 5), rand (3, 2), rand (4, 2), rand (4, 5))
