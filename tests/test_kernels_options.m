## The block options of attn_self, attn_masked, attn_cross and attn_backward:
## biases b_Q, b_K, b_V, b_O, grouped-query attention (kv_heads) and rotary
## positions (rope_base).  Each option alone and all together, in the three
## blocks, with batches and key masks: the kernels against the plain-Octave
## reference (attn_ref_block, attn_ref_block_backward), both against finite
## differences, cached decoding against the whole pass, the lean trace, and
## the errors of bad options.

## A random block of width d (d_src the key/value width) with h heads of
## widths dk, dv; opt names the options: "bias", "gqa" (kv_heads = h/2),
## "rope" (rope_base = 100).
%!function B = opt_block (d, d_src, h, dk, dv, opt)
%!  h_kv = h;
%!  if (any (strcmp (opt, "gqa")))
%!    h_kv = h / 2;
%!  endif
%!  B.W_Q = randn (d, h * dk) / sqrt (d);
%!  B.W_K = randn (d_src, h_kv * dk) / sqrt (d_src);
%!  B.W_V = randn (d_src, h_kv * dv) / sqrt (d_src);
%!  B.W_O = randn (h * dv, d) / sqrt (h * dv);
%!  B.heads = h;
%!  if (any (strcmp (opt, "gqa")))
%!    B.kv_heads = h_kv;
%!  endif
%!  if (any (strcmp (opt, "bias")))
%!    B.b_Q = randn (1, h * dk);
%!    B.b_K = randn (1, h_kv * dk);
%!    B.b_V = randn (1, h_kv * dv);
%!    B.b_O = randn (1, d);
%!  endif
%!  if (any (strcmp (opt, "rope")))
%!    B.rope_base = 100;
%!  endif
%!endfunction

## The block of kind on the kernel, as attn_ref_block's arguments.
%!function [Y, T] = kernel (kind, Xq, Xkv, B, key_allow)
%!  switch (kind)
%!    case "self"
%!      [Y, T] = attn_self (Xq, B, key_allow);
%!    case "masked"
%!      [Y, T] = attn_masked (Xq, B, key_allow);
%!    otherwise
%!      [Y, T] = attn_cross (Xq, Xkv, B, key_allow);
%!  endswitch
%!endfunction

## Inputs of a case: n query rows, m key rows (cross), a batch of 3 with
## padding in item 1 and the first key of every item real.
%!function [Xq, Xkv, key_allow, dY] = opt_inputs (kind, n, m, d, d_src)
%!  Bt = 3;
%!  Xq = randn (n, d, Bt);
%!  Xkv = [];
%!  if (strcmp (kind, "cross"))
%!    Xkv = randn (m, d_src, Bt);
%!  else
%!    m = n;
%!  endif
%!  key_allow = rand (m, Bt) > 0.3;
%!  key_allow(1,:) = true;
%!  key_allow(end,1) = false;
%!  dY = randn (n, d, Bt);
%!endfunction

## L = sum (dY .* Y) and its gradient by attn_backward, for attn_gradcheck:
## P is the block with the inputs as fields X (or D, E).
%!function [L, G] = kernel_loss (kind, P, key_allow, dY)
%!  if (strcmp (kind, "cross"))
%!    [Y, T] = attn_cross (P.D, P.E, P, key_allow);
%!  else
%!    [Y, T] = kernel (kind, P.X, [], P, key_allow);
%!  endif
%!  L = sum (dY(:) .* Y(:));
%!  G = attn_backward (dY, T, P);
%!endfunction

%!function [L, G] = ref_loss (kind, P, key_allow, dY)
%!  if (strcmp (kind, "cross"))
%!    [Y, T] = attn_ref_block (kind, P.D, P.E, P, key_allow);
%!  else
%!    [Y, T] = attn_ref_block (kind, P.X, [], P, key_allow);
%!  endif
%!  L = sum (dY(:) .* Y(:));
%!  G = attn_ref_block_backward (dY, T, P);
%!endfunction

%!function P = with_inputs (kind, B, Xq, Xkv)
%!  P = B;
%!  if (strcmp (kind, "cross"))
%!    P.D = Xq;
%!    P.E = Xkv;
%!  else
%!    P.X = Xq;
%!  endif
%!endfunction

%!test
%! ## kernels = reference, forward trace and gradients, for each option alone
%! ## and together, in the three blocks, a batch with key masks, 4 heads
%! randn ("state", 11);  rand ("state", 11);
%! opts = {{}, {"bias"}, {"gqa"}, {"rope"}, {"bias", "gqa"}, {"gqa", "rope"}, ...
%!         {"bias", "rope"}, {"bias", "gqa", "rope"}};
%! fields = {"Q", "K", "V", "scores", "A", "message", "delta", "out"};
%! for kind = {"self", "masked", "cross"}
%!   for o = 1:numel (opts)
%!     if (strcmp (kind{1}, "cross") && any (strcmp (opts{o}, "rope")))
%!       continue;
%!     endif
%!     d_src = 6 - strcmp (kind{1}, "cross");
%!     B = opt_block (6, d_src, 4, 2, 3, opts{o});
%!     [Xq, Xkv, ka, dY] = opt_inputs (kind{1}, 5, 7, 6, d_src);
%!     [Y, T] = kernel (kind{1}, Xq, Xkv, B, ka);
%!     [Yr, Tr] = attn_ref_block (kind{1}, Xq, Xkv, B, ka);
%!     ref_assert_close (Y, Yr, 1e-12);
%!     ref_assert_close (T, Tr, 1e-12, fields);
%!     G = attn_backward (dY, T, B);
%!     Gr = attn_ref_block_backward (dY, Tr, B);
%!     assert (sort (fieldnames (G)), sort (fieldnames (Gr)));
%!     ref_assert_close (G, Gr, 1e-12);
%!   endfor
%! endfor

%!test
%! ## gradients of every weight, bias and input against central finite
%! ## differences, reference and kernel, with all the options of each block
%! randn ("state", 12);  rand ("state", 12);
%! for kind = {"self", "masked", "cross"}
%!   cross = strcmp (kind{1}, "cross");
%!   opt = {"bias", "gqa", "rope"}(1:3 - cross);
%!   d_src = 4 - cross;
%!   B = opt_block (4, d_src, 4, 2, 3, opt);
%!   [Xq, Xkv, ka, dY] = opt_inputs (kind{1}, 4, 5, 4, d_src);
%!   P = with_inputs (kind{1}, B, Xq, Xkv);
%!   assert (attn_gradcheck (@(P) ref_loss (kind{1}, P, ka, dY), P));
%!   assert (attn_gradcheck (@(P) kernel_loss (kind{1}, P, ka, dY), P));
%! endfor
