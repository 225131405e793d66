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
## when asked.
function [Y, T] = ffn_forward (X, P, c, mode = "full")
  pre = affine (X, P, "W_1", "b_1");
  hidden = activation (c.activation, pre);
  if (isfield (P, "W_3"))
    up = affine (X, P, "W_3", "b_3");
    hidden .*= up;
  endif
  delta = affine (hidden, P, "W_2", "b_2");
  full = strcmp (mode, "full");
  if (isargout (1) || full)
    Y = X + delta;
  endif
  if (nargout > 1)
    T = struct ("X", X, "pre", pre);
    if (isfield (P, "W_3"))
      T.up = up;
    endif
    [T.hidden, T.delta] = deal (hidden, delta);
    if (full)
      T.out = Y;
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
%! assert (L, rmfield (T, "out"));

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
