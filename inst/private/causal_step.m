## [x, K, V, A, A_cross] = causal_step (x, p, K, V, norm, cross_K, cross_V):
## one new row x (1×d) through one layer p of a causal stack (masked
## self-attention, then the FFN if p has one), reading the cached keys K and
## values V of the earlier rows (t×dk×h, t×dv×h) and appending its own.
## Same arithmetic as the layer in encoder_stack with attn_masked, for
## incremental decoding.  With cross_K, cross_V (m×dk×h, m×dv×h: the cached
## encoder keys and values), p is a decoder layer and its cross-attention
## runs between the two.  A (t+1)×h, A_cross m×h: the new row's weights.
function [x, K, V, A, A_cross] = causal_step (x, p, K, V, norm, cross_K, cross_V)
  B = p.self;
  z = sub_in (x, norm, p, "norm_self");
  K(end+1,:,:) = reshape (z * B.W_K, 1, [], B.heads);
  V(end+1,:,:) = reshape (z * B.W_V, 1, [], B.heads);
  [delta, A] = attend (z, B, K, V);
  x = sub_out (x, z, delta, norm, p, "norm_self");
  if (nargin > 5)
    z = sub_in (x, norm, p, "norm_cross");
    [delta, A_cross] = attend (z, p.cross, cross_K, cross_V);
    x = sub_out (x, z, delta, norm, p, "norm_cross");
  endif
  if (isfield (p, "ffn"))
    z = sub_in (x, norm, p, "norm_ffn");
    [~, T] = ffn_forward (z, p.ffn);
    x = sub_out (x, z, T.delta, norm, p, "norm_ffn");
  endif
endfunction

## one query row z against keys and values, heads as pages:
## delta = message*W_O (1×d) and the weights A (keys×h)
function [delta, A] = attend (z, B, K, V)
  [M, A] = attn_sdpa (reshape (z * B.W_Q, 1, [], B.heads), K, V);
  delta = reshape (M, 1, []) * B.W_O;
  A = reshape (A, [], B.heads);
endfunction

## the sublayer's input: LN (x) before a pre-norm sublayer, x otherwise
function z = sub_in (x, norm, p, name)
  z = x;
  if (strcmp (norm, "pre"))
    z = layer_norm (x, p.(name));
  endif
endfunction

## the residual sum, normalised after a post-norm sublayer
function y = sub_out (x, z, delta, norm, p, name)
  if (strcmp (norm, "post"))
    y = layer_norm (z + delta, p.(name));
  else
    y = x + delta;
  endif
endfunction
