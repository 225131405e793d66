## -*- texinfo -*-
## @deftypefn  {} {@var{G} =} attn_ref_block_backward (@var{dY}, @var{T}, @var{B})
## @deftypefnx {} {[@var{G}, @var{D}] =} attn_ref_block_backward (@var{dY}, @var{T}, @var{B})
## Gradients of an attention block, in plain Octave.  The readable
## definition that attn_backward is tested against.
##
## @var{dY} = dL/dY is n×d×Bt; @var{T} is the trace of @code{attn_ref_block}
## (the fields used: @code{kind}, @code{X} or @code{D} and @code{E},
## @code{Q}, @code{K}, @code{V}, @code{A}, @code{message}); @var{B} the block,
## with the optional fields of @code{attn_ref_block}.
## @var{G} has @code{W_Q}, @code{W_K}, @code{W_V}, @code{W_O} (summed over
## the batch), the biases @var{B} has (@code{b_Q}, @code{b_K}, @code{b_V},
## @code{b_O}, summed over every row) and @code{dX} (self, masked; query and
## key/value paths and the residual added) or @code{dD}, @code{dE} (cross).
## @var{D} is the backward side of the trace: the gradient of the loss at
## every matrix of @var{T}, under the trace's own names and shapes (with
## the trace's @code{kind} and @code{heads}): @code{out} and @code{delta} (both @var{dY}), @code{message}, @code{A},
## @code{scores} (n×m×h×Bt), @code{Q}, @code{K}, @code{V} (of the rows the
## trace holds: after the biases and turns) and the inputs @code{X} or
## @code{D}, @code{E} (as in @var{G}).
##
## @example
## @group
## dmessage = dY*W_O';          G.W_O = message'*dY;  G.b_O = sum (dY);
## [dQ, dK, dV] per head from attn_ref_sdpa_backward; a K/V head's
## dK, dV are the sums over the query heads that read it; with rope_base
## dQ and dK turn back
## G.W_Q = Xq'*dQ;  G.W_K = Xkv'*dK;  G.W_V = Xkv'*dV;  G.b_Q = sum (dQ) ...
## dXq = dY + dQ*W_Q';          dXkv = dK*W_K' + dV*W_V';
## @end group
## @end example
## @seealso{attn_ref_block, attn_ref_sdpa_backward}
## @end deftypefn

function [G, D] = attn_ref_block_backward (dY, T, B)
  if (strcmp (T.kind, "cross"))
    Xq = T.D;
    Xkv = T.E;
  else
    Xq = T.X;
    Xkv = T.X;
  endif
  [n, m, Bt, h, h_kv, dk, dv] = block_sizes (B, Xq, Xkv);

  ## out = Xq + message*W_O + b_O
  G.W_O = stack_rows (T.message)' * stack_rows (dY);
  dmessage = unstack_rows (stack_rows (dY) * B.W_O', n);

  ## message = heads' A_j*V_kv(j) side by side: each query head's gradient
  ## of its K/V head, then the sums over the heads of a group (consecutive)
  kv = ceil ((1:h) / (h / h_kv));
  K = reshape (T.K, m, dk, h_kv, Bt);
  V = reshape (T.V, m, dv, h_kv, Bt);
  [dQ, dK, dV, dA, dscores] = attn_ref_sdpa_backward (reshape (dmessage, n, dv, h, Bt),
                                                      reshape (T.Q, n, dk, h, Bt),
                                                      K(:,:,kv,:), V(:,:,kv,:), T.A);
  dQ = reshape (dQ, n, h * dk, Bt);
  dK = reshape (sum (reshape (dK, m, dk, h / h_kv, h_kv, Bt), 3), m, h_kv * dk, Bt);
  dV = reshape (sum (reshape (dV, m, dv, h / h_kv, h_kv, Bt), 3), m, h_kv * dv, Bt);
  if (nargout > 1)
    D = struct ("kind", T.kind, "heads", h, "out", dY, "delta", dY, "message", dmessage,
                "A", dA, "scores", dscores, "Q", dQ, "K", dK, "V", dV);
  endif

  ## Q, K turned by position: their gradients turn back
  base = field_or_empty (B, "rope_base");
  if (! isempty (base))
    dQ = rope_rows (dQ, base, dk, -1);
    dK = rope_rows (dK, base, dk, -1);
  endif
  dQ = stack_rows (dQ);
  dK = stack_rows (dK);
  dV = stack_rows (dV);

  ## Q = Xq*W_Q + b_Q, K = Xkv*W_K + b_K, V = Xkv*W_V + b_V
  G.W_Q = stack_rows (Xq)' * dQ;
  G.W_K = stack_rows (Xkv)' * dK;
  G.W_V = stack_rows (Xkv)' * dV;
  bias_grad = {"b_Q", dQ; "b_K", dK; "b_V", dV; "b_O", stack_rows(dY)};
  for i = 1:4
    if (! isempty (field_or_empty (B, bias_grad{i,1})))
      G.(bias_grad{i,1}) = sum (bias_grad{i,2}, 1);
    endif
  endfor
  dXq = dY + unstack_rows (dQ * B.W_Q', n);
  dXkv = unstack_rows (dK * B.W_K' + dV * B.W_V', m);

  if (strcmp (T.kind, "cross"))
    G.dD = dXq;
    G.dE = dXkv;
  else
    G.dX = dXq + dXkv;
  endif
  if (nargout > 1)
    for f = {"dX", "dD", "dE"}
      if (isfield (G, f{1}))
        D.(f{1}(2:end)) = G.(f{1});
      endif
    endfor
  endif
endfunction

## Finite-difference checks of this function are in tests/test_kernels_reference.m.
%!test
%! ## zero weights: the block is the identity, so dX = dY and G.W_O = 0
%! B = struct ("W_Q", zeros (2), "W_K", zeros (2), "W_V", zeros (2),
%!             "W_O", zeros (2), "heads", 1);
%! dY = [1 2; 3 4];
%! [~, T] = attn_ref_block ("self", [5 6; 7 8], [], B);
%! G = attn_ref_block_backward (dY, T, B);
%! assert (G.dX, dY);
%! assert (G.W_O, zeros (2));

%!test
%! ## the backward side of the trace: each matrix's gradient against finite
%! ## differences of L = sum (R .* out) through that matrix alone
%! randn ("state", 9);
%! B = struct ("W_Q", randn (3, 4), "W_K", randn (3, 4), "W_V", randn (3, 2),
%!             "W_O", randn (2, 3), "heads", 2);
%! X = randn (4, 3);  R = randn (4, 3);
%! [Y, T] = attn_ref_block ("masked", X, [], B);
%! [G, D] = attn_ref_block_backward (R, T, B);
%! assert (D.X, G.dX);
%! assert (D.out, R);
%! ## from message on: out = X + message*W_O
%! assert (D.message, ref_findiff (@(M) sum (sum (R .* (X + M * B.W_O))), T.message), 1e-8);
%! ## A and V: message's head j is A(:,:,j)*V_j
%! msg = @(A, V) [A(:,:,1) * V(:,1), A(:,:,2) * V(:,2)];
%! assert (D.A, ref_findiff (@(A) sum (sum (R .* (X + msg (A, T.V) * B.W_O))), T.A), 1e-8);
%! assert (D.V, ref_findiff (@(V) sum (sum (R .* (X + msg (T.A, V) * B.W_O))), T.V), 1e-8);
