## [state, probs, A] = family_decode_step (m, state, token): feed one target
## token to a decoder-only or pooled-context model (attn_family) and get
## the next-token probabilities (1×V), like decode_step.  Only the new row is
## computed; earlier rows' keys and values come from the cache.
## A: m×0×nl for pooled models (no cross-attention: nothing reads the
## source rows), [] for decoder-only.
function [state, probs, A] = family_decode_step (m, state, token)
  t = state.t + 1;
  pos = m.tgt_pos(t + state.offset,:);
  e = m.tgt_embed(token,:);
  switch (m.config.family)
    case "pooled-add"
      x = e + state.u + pos;
    case "pooled-concat"
      x = [e, state.c] * m.W_F + pos;
    otherwise
      x = e + pos;
  endswitch
  [state, x] = run_row (m, state, x);
  state.t = t;
  if (strcmp (m.config.norm, "pre"))
    x = layer_norm (x, m.decoder_norm);
  endif
  probs = softmax_rows (x * m.W_vocab + m.b_vocab);
  A = [];
  if (isfield (state, "encoded"))
    A = zeros (rows (state.encoded), 0, numel (m.decoder));
  endif
endfunction
