## [state, probs, A, work] = decode_step (m, state, token, x): one decoder
## step on the state of decode_start: the row of `token` goes through the
## causal stack and the head.  probs 1×V: the next-token distribution;
## A m×h×L: the new row's cross-attention weights per head and layer (h = 0
## without cross-attention); work = [encoder passes, stack rows] spent.
## With the cache only the new row is computed, through the same sublayer
## (norm placement) as the whole pass, its self-attention reading the
## cached keys and values; x (1×d), when given, is the input row itself
## (the pooled-prefix source row).  Without the cache the whole model reruns
## on every id so far (the reference the cache is tested against).
function [state, probs, A, work] = decode_step (m, state, token, x = [])
  nl = numel (m.decoder);
  cross = isfield (m.decoder, "cross");
  h = 0;
  if (cross)
    h = m.decoder(1).cross.heads;
  endif
  A = zeros (numel (state.src), h, nl);
  if (! state.cache)
    state.ids(end+1,1) = token;
    n = numel (state.ids);
    tr = model_forward (m, struct ("src", state.src, "src_allow", true (size (state.src)),
                                   "tgt_in", state.ids, "tgt_allow", true (n, 1)));
    probs = tr.probs(end,:);
    for l = 1:nl * cross
      A(:,:,l) = reshape (tr.decoder(l).cross.A(end,:,:), [], h);
    endfor
    work = [isfield(tr, "encoded"), n + prefix_rows(m)];
    return;
  endif
  t = state.t + 1;
  if (isempty (x))
    x = input_row (m, state, token, m.tgt_pos(t,:));
  endif
  norm = m.config.norm;
  for l = 1:nl
    p = m.decoder(l);
    K = state.K{l};
    V = state.V{l};
    [x, S] = sublayer (x, struct (), p, "self", norm, @(z) attend_row (z, p.self, K, V, true));
    state.K{l} = S.self.K;
    state.V{l} = S.self.V;
    if (cross)
      K = state.cross_K{l};
      V = state.cross_V{l};
      [x, S] = sublayer (x, S, p, "cross", norm, @(z) attend_row (z, p.cross, K, V, false));
      A(:,:,l) = S.cross.A;
    endif
    if (isfield (p, "ffn"))
      x = sublayer (x, S, p, "ffn", norm, @(z) ffn_forward (z, p.ffn));
    endif
  endfor
  if (strcmp (norm, "pre"))
    x = layer_norm (x, m.decoder_norm);
  endif
  probs = softmax_rows (x * m.W_vocab + m.b_vocab);
  state.t = t;
  work = [0, 1];
endfunction

## the input row of a target token at position row pos (1×d), by family
function x = input_row (m, state, token, pos)
  e = m.tgt_embed(token,:);
  switch (field_or_empty (m.config, "family"))
    case "pooled-add"                   # e_t + u + p_t
      x = e + state.u + pos;
    case "pooled-concat"                # [e_t, c]*W_F + p_t
      x = [e, state.c] * m.W_F + pos;
    otherwise
      x = e + pos;
  endswitch
endfunction

## one query row z (1×d) against cached keys K and values V (heads as
## pages), as an attention block for sublayer: [z + delta, T] with T.delta,
## T.A (keys×h) and the caches T.K, T.V; own: append z's key and value first
## (self-attention) rather than only read them (cross-attention)
function [y, T] = attend_row (z, B, K, V, own)
  if (own)
    K(end+1,:,:) = reshape (z * B.W_K, 1, [], B.heads);
    V(end+1,:,:) = reshape (z * B.W_V, 1, [], B.heads);
  endif
  [M, A] = attn_sdpa (reshape (z * B.W_Q, 1, [], B.heads), K, V);
  T.delta = reshape (M, 1, []) * B.W_O;
  T.A = reshape (A, [], B.heads);
  T.K = K;
  T.V = V;
  y = z + T.delta;
endfunction
