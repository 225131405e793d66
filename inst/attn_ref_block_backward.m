## -*- texinfo -*-
## @deftypefn {} {@var{G} =} attn_ref_block_backward (@var{dY}, @var{T}, @var{B})
## Gradients of an attention block, in plain Octave.  The readable
## definition that attn_backward is tested against.
##
## @var{dY} = dL/dY is n×d×Bt; @var{T} is the trace of @code{attn_ref_block}
## (the fields used: @code{kind}, @code{X} or @code{D} and @code{E},
## @code{Q}, @code{K}, @code{V}, @code{A}, @code{message}); @var{B} the block.
## @var{G} has @code{W_Q}, @code{W_K}, @code{W_V}, @code{W_O} (summed over
## the batch) and @code{dX} (self, masked; query and key/value paths and the
## residual added) or @code{dD}, @code{dE} (cross).
##
## @example
## @group
## dmessage = dY*W_O';          G.W_O = message'*dY;
## [dQ, dK, dV] per head from attn_ref_sdpa_backward
## G.W_Q = Xq'*dQ;  G.W_K = Xkv'*dK;  G.W_V = Xkv'*dV;
## dXq = dY + dQ*W_Q';          dXkv = dK*W_K' + dV*W_V';
## @end group
## @end example
## @seealso{attn_ref_block, attn_ref_sdpa_backward}
## @end deftypefn

function G = attn_ref_block_backward (dY, T, B)
  if (strcmp (T.kind, "cross"))
    Xq = T.D;
    Xkv = T.E;
  else
    Xq = T.X;
    Xkv = T.X;
  endif
  [n, ~, Bt] = size (Xq);
  m = rows (Xkv);
  h = B.heads;
  dk = columns (B.W_Q) / h;
  dv = columns (B.W_V) / h;

  ## out = Xq + message*W_O
  G.W_O = stack_rows (T.message)' * stack_rows (dY);
  dmessage = unstack_rows (stack_rows (dY) * B.W_O', n);

  ## message = heads' A_j*V_j side by side
  [dQ, dK, dV] = attn_ref_sdpa_backward (reshape (dmessage, n, dv, h, Bt),
                                    reshape (T.Q, n, dk, h, Bt),
                                    reshape (T.K, m, dk, h, Bt),
                                    reshape (T.V, m, dv, h, Bt), T.A);
  dQ = stack_rows (reshape (dQ, n, h * dk, Bt));
  dK = stack_rows (reshape (dK, m, h * dk, Bt));
  dV = stack_rows (reshape (dV, m, h * dv, Bt));

  ## Q = Xq*W_Q, K = Xkv*W_K, V = Xkv*W_V
  G.W_Q = stack_rows (Xq)' * dQ;
  G.W_K = stack_rows (Xkv)' * dK;
  G.W_V = stack_rows (Xkv)' * dV;
  dXq = dY + unstack_rows (dQ * B.W_Q', n);
  dXkv = unstack_rows (dK * B.W_K' + dV * B.W_V', m);

  if (strcmp (T.kind, "cross"))
    G.dD = dXq;
    G.dE = dXkv;
  else
    G.dX = dXq + dXkv;
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
