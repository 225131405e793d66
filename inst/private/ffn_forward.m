## [Y, T] = ffn_forward (X, P, c, mode): position-wise feed-forward
## sublayer with its residual, the same convention as the attention blocks:
##   pre = X*W_1 + b_1  (n×d_ff×Bt),  hidden = act (pre),
##   delta = hidden*W_2 + b_2  (n×d×Bt),  Y = X + delta,
## act the activation c.activation names (the model's config; activation).
## A gated FFN (P has W_3: config ffn_gated) multiplies by a second
## projection, up = X*W_3 + b_3, hidden = act (pre) .* up (SwiGLU with
## silu).  The biases are there when P has them (config ffn_bias).
## T: X, pre, up (gated), hidden, delta, out; mode "lean" (default "full")
## leaves out `out`, as the kernels' lean trace, and Y is then made only
## when asked.  The FFN works on every row alone, so it runs on the rows
## stacked as one (n·Bt)×d matrix (stack_rows) and only delta is unstacked;
## the lean trace (read only by layer_stack_backward's ffn_backward) keeps
## X, pre, up and hidden stacked, the full one has every array n×·×Bt.
function [Y, T] = ffn_forward (X, P, c, mode = "full")
  n = rows (X);
  Xs = stack_rows (X);
  pre = affine (Xs, P, "W_1", "b_1");
  hidden = activation (c.activation, pre);
  gated = isfield (P, "W_3");
  if (gated)
    up = affine (Xs, P, "W_3", "b_3");
    hidden .*= up;
  endif
  delta = unstack_rows (affine (hidden, P, "W_2", "b_2"), n);
  full = strcmp (mode, "full");
  if (isargout (1) || full)
    Y = X + delta;
  endif
  if (nargout > 1)
    if (full)
      T = struct ("X", X, "pre", unstack_rows (pre, n));
      if (gated)
        T.up = unstack_rows (up, n);
      endif
      [T.hidden, T.delta, T.out] = deal (unstack_rows (hidden, n), delta, Y);
    else
      T = struct ("X", Xs, "pre", pre);
      if (gated)
        T.up = up;
      endif
      [T.hidden, T.delta] = deal (hidden, delta);
    endif
  endif
endfunction

## X*P.(W) + P.(b), or X*P.(W) when P has no such bias
function Y = affine (X, P, W, b)
  if (isfield (P, b))
    Y = attn_rows (X, P.(W), P.(b));
  else
    Y = attn_rows (X, P.(W));
  endif
endfunction

%!test
%! ## against the formula, page by page; the lean trace leaves out `out`
%! randn ("state", 2);
%! X = randn (3, 4, 2);
%! P = struct ("W_1", randn (4, 5), "b_1", randn (1, 5), "W_2", randn (5, 4), "b_2", randn (1, 4));
%! c.activation = "relu";
%! [Y, T] = ffn_forward (X, P, c);
%! for b = 1:2
%!   assert (Y(:,:,b), X(:,:,b) + max (X(:,:,b) * P.W_1 + P.b_1, 0) * P.W_2 + P.b_2, 1e-13);
%! endfor
%! assert (T.out, Y);
%! [~, L] = ffn_forward (X, P, c, "lean");
%! S = rmfield (T, "out");
%! for f = {"X", "pre", "hidden"}
%!   S.(f{1}) = stack_rows (S.(f{1}));
%! endfor
%! assert (L, S);

%!test
%! ## a gated FFN without biases (SwiGLU), against the formula and finite
%! ## differences through ffn_backward (layer_stack_backward's test covers
%! ## the plain one)
%! randn ("state", 3);
%! X = randn (3, 4, 2);
%! P = struct ("W_1", randn (4, 5), "W_3", randn (4, 5), "W_2", randn (5, 4));
%! c.activation = "silu";
%! silu = @(z) z ./ (1 + exp (-z));
%! Y = ffn_forward (X, P, c);
%! for b = 1:2
%!   x = X(:,:,b);
%!   assert (Y(:,:,b), x + (silu (x * P.W_1) .* (x * P.W_3)) * P.W_2, 1e-13);
%! endfor
