## [state, probs, A] = decode_step (m, state, token): one decoder step on
## the cache of decode_start: the row of `token` at position state.t + 1
## goes through every decoder layer, reading the cached self-attention keys
## and values (its own appended first) and the cached cross K, V.
## probs 1×V: the next-token distribution; A m×h×L: this row's cross
## weights in every head and layer.
function [state, probs, A] = decode_step (m, state, token)
  if (! strcmp (family_kind (m), "encoder-decoder"))
    [state, probs, A] = family_decode_step (m, state, token);   # attn_family
    return;
  endif
  norm = m.config.norm;
  t = state.t + 1;
  x = m.tgt_embed(token,:) + m.tgt_pos(t,:);
  nl = numel (m.decoder);
  A = zeros (rows (state.encoded), m.decoder(1).cross.heads, nl);
  for l = 1:nl
    p = m.decoder(l);
    ## masked self-attention: the new row reads the prefix and itself
    z = step_in (x, norm, p, "norm_self");
    [state.self_K{l}, state.self_V{l}] = append_kv (state.self_K{l}, state.self_V{l}, z, p.self);
    x = step_out (x, z, attend (z, p.self, state.self_K{l}, state.self_V{l}), norm, p, "norm_self");
    ## cross-attention on the cached encoder keys and values
    z = step_in (x, norm, p, "norm_cross");
    [delta, A(:,:,l)] = attend (z, p.cross, state.cross_K{l}, state.cross_V{l});
    x = step_out (x, z, delta, norm, p, "norm_cross");
    if (isfield (p, "ffn"))
      z = step_in (x, norm, p, "norm_ffn");
      [~, T] = ffn_forward (z, p.ffn);
      x = step_out (x, z, T.delta, norm, p, "norm_ffn");
    endif
  endfor
  if (strcmp (norm, "pre"))
    x = layer_norm (x, m.decoder_norm);
  endif
  probs = softmax_rows (x * m.W_vocab + m.b_vocab);
  state.t = t;
endfunction

## The sublayer's input row: x, or LN (x) with pre-norm.
function z = step_in (x, norm, p, name)
  z = x;
  if (strcmp (norm, "pre"))
    z = layer_norm (x, p.(name));
  endif
endfunction

## The sublayer's output row (see sublayer.m): LN (z + delta) with
## post-norm, x + delta otherwise.
function y = step_out (x, z, delta, norm, p, name)
  if (strcmp (norm, "post"))
    y = layer_norm (z + delta, p.(name));
  else
    y = x + delta;
  endif
endfunction

function [K, V] = append_kv (K, V, z, B)
  K(end+1,:,:) = reshape (z * B.W_K, 1, [], B.heads);
  V(end+1,:,:) = reshape (z * B.W_V, 1, [], B.heads);
endfunction

## One query row against cached keys and values, heads as pages:
## delta = message*W_O (1×d) and the weights A (keys×h).
function [delta, A] = attend (z, B, K, V)
  [M, A] = attn_sdpa (reshape (z * B.W_Q, 1, [], B.heads), K, V);
  delta = reshape (M, 1, []) * B.W_O;
  A = reshape (A, [], B.heads);
endfunction
