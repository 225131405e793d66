## -*- texinfo -*-
## @deftypefn {} {[@var{dQ}, @var{dK}, @var{dV}, @var{dA}, @var{dscores}] =} attn_ref_sdpa_backward (@var{dM}, @var{Q}, @var{K}, @var{V}, @var{A})
## Gradients of dot-product attention, in plain Octave.  The readable
## definition that attn_sdpa_backward is tested against.
##
## @var{dM} = dL/dM is n×dv×P@dots{}; @var{Q}, @var{K}, @var{V}, @var{A} are
## the inputs and weights of the forward call @code{attn_ref_sdpa}.  Returns
## dL/dQ, dL/dK, dL/dV with the shapes of @var{Q}, @var{K}, @var{V}, and
## dL/dA and dL/dscores (n×m×P@dots{}, the shape of @var{A}) on the way.
##
## @example
## @group
## dA = dM*V';                         % from M = A*V
## dV = A'*dM;
## dscores = A .* (dA - sum (dA.*A, 2));   % through the row softmax
## dQ = dscores*K/sqrt(dk);            % from scores = Q*K'/sqrt(dk)
## dK = dscores'*Q/sqrt(dk);
## @end group
## @end example
##
## Disallowed entries have A = 0, hence dscores = 0: the mask needs no
## argument.
## @seealso{attn_ref_sdpa}
## @end deftypefn

function [dQ, dK, dV, dA, dscores] = attn_ref_sdpa_backward (dM, Q, K, V, A)
  dk = columns (Q);
  P = prod (size (Q)(3:end));
  dQ = zeros (size (Q));
  dK = zeros (size (K));
  dV = zeros (size (V));
  [dA, dscores] = deal (zeros (size (A)));
  for p = 1:P
    Ap = A(:,:,p);
    dA(:,:,p) = dM(:,:,p) * V(:,:,p)';
    dV(:,:,p) = Ap' * dM(:,:,p);
    dscores(:,:,p) = Ap .* (dA(:,:,p) - sum (dA(:,:,p) .* Ap, 2));
    dQ(:,:,p) = dscores(:,:,p) * K(:,:,p) / sqrt (dk);
    dK(:,:,p) = dscores(:,:,p)' * Q(:,:,p) / sqrt (dk);
  endfor
endfunction

%!test
%! ## agrees with central finite differences, masked and paged
%! rand ("state", 1);  randn ("state", 1);
%! n = 3;  m = 4;  dk = 2;  dv = 3;
%! Q = randn (n, dk, 2);  K = randn (m, dk, 2);  V = randn (m, dv, 2);
%! allow = rand (n, m) > 0.3;  allow(1,:) = false;   # row 1 fully masked
%! R = randn (n, dv, 2);
%! [~, A] = attn_ref_sdpa (Q, K, V, allow);
%! [dQ, dK, dV] = attn_ref_sdpa_backward (R, Q, K, V, A);
%! loss = @(q, k, v) sum (R(:) .* reshape (attn_ref_sdpa (q, k, v, allow), [], 1));
%! h = 1e-6;
%! assert (ref_findiff (@(q) loss (q, K, V), Q, h), dQ, 1e-8);
%! assert (ref_findiff (@(k) loss (Q, k, V), K, h), dK, 1e-8);
%! assert (ref_findiff (@(v) loss (Q, K, v), V, h), dV, 1e-8);

%!test
%! ## dA and dscores against finite differences of L = sum (R .* M), M = A*V
%! ## with A = softmax (scores), taken as functions of A and of the scores
%! randn ("state", 3);
%! Q = randn (3, 2);  K = randn (4, 2);  V = randn (4, 2);  R = randn (3, 2);
%! [M, A, S] = attn_ref_sdpa (Q, K, V);
%! [~, ~, ~, dA, dscores] = attn_ref_sdpa_backward (R, Q, K, V, A);
%! soft = @(s) exp (s - max (s, [], 2)) ./ sum (exp (s - max (s, [], 2)), 2);
%! assert (dA, ref_findiff (@(a) sum (sum (R .* (a * V))), A), 1e-8);
%! assert (dscores, ref_findiff (@(s) sum (sum (R .* (soft (s) * V))), S), 1e-8);
