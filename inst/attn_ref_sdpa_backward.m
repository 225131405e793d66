## -*- texinfo -*-
## @deftypefn {} {[@var{dQ}, @var{dK}, @var{dV}] =} attn_ref_sdpa_backward (@var{dM}, @var{Q}, @var{K}, @var{V}, @var{A})
## Gradients of dot-product attention, in plain Octave.  The readable
## definition that attn_sdpa_backward is tested against.
##
## @var{dM} = dL/dM is n×dv×P@dots{}; @var{Q}, @var{K}, @var{V}, @var{A} are
## the inputs and weights of the forward call @code{attn_ref_sdpa}.  Returns
## dL/dQ, dL/dK, dL/dV with the shapes of @var{Q}, @var{K}, @var{V}.
##
## @example
## @group
## dA = dM*V';                         % from M = A*V
## dV = A'*dM;
## dS = A .* (dA - sum (dA.*A, 2));    % through the row softmax
## dQ = dS*K/sqrt(dk);                 % from S = Q*K'/sqrt(dk)
## dK = dS'*Q/sqrt(dk);
## @end group
## @end example
##
## Disallowed entries have A = 0, hence dS = 0: the mask needs no argument.
## @seealso{attn_ref_sdpa}
## @end deftypefn

function [dQ, dK, dV] = attn_ref_sdpa_backward (dM, Q, K, V, A)
  dk = columns (Q);
  P = prod (size (Q)(3:end));
  dQ = zeros (size (Q));
  dK = zeros (size (K));
  dV = zeros (size (V));
  for p = 1:P
    Ap = A(:,:,p);
    dA = dM(:,:,p) * V(:,:,p)';
    dV(:,:,p) = Ap' * dM(:,:,p);
    dS = Ap .* (dA - sum (dA .* Ap, 2)) / sqrt (dk);
    dQ(:,:,p) = dS * K(:,:,p);
    dK(:,:,p) = dS' * Q(:,:,p);
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
