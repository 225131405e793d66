## [state, probs, A] = decode_step (m, state, token): one decoder step on
## the cache of decode_start: the row of `token` at position state.t + 1
## goes through every decoder layer (causal_step), reading the cached
## self-attention keys and values (its own appended first) and the cached
## cross K, V.
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
    [x, state.self_K{l}, state.self_V{l}, ~, A(:,:,l)] = ...
      causal_step (x, m.decoder(l), state.self_K{l}, state.self_V{l}, norm,
                   state.cross_K{l}, state.cross_V{l});
  endfor
  if (strcmp (norm, "pre"))
    x = layer_norm (x, m.decoder_norm);
  endif
  probs = softmax_rows (x * m.W_vocab + m.b_vocab);
  state.t = t;
endfunction
