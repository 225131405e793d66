## state = decode_start (m, src, fed, cache): the decoder state of a
## generating model (encoder-decoder, pooled-add, pooled-concat,
## pooled-prefix, decoder-only) before its first step, after reading the
## target-side ids fed (1×n, <bos> and the prompt but its last token).
## src m×1 source ids (m = 0 for decoder-only).
## cache true: the encoder runs once here and the state holds what every
## later row reads:
##   K{l}, V{l}      self-attention keys and values of the rows so far,
##                   layer l (t×dk×h, t×dv×h), one row appended per step
##   cross_K{l}, cross_V{l}  cross-attention keys and values of the encoded
##                   source (m×dk×h, m×dv×h; encoder-decoder)
##   c (1×d), u (1×d)  the pooled source and c*W_u (pooled models)
##   t               rows in the causal stack (the pooled-prefix source row
##                   included): the next row sits at position t + 1
## cache false: the state only collects the ids; each decode_step reruns the
## whole model on them.  state.work = [encoder passes, stack rows] spent.
function state = decode_start (m, src, fed, cache)
  state = struct ("cache", cache, "src", src, "ids", zeros (0, 1), "t", 0,
                  "K", {{}}, "V", {{}}, "cross_K", {{}}, "cross_V", {{}},
                  "c", [], "u", [], "work", [0, 0]);
  if (cache)
    nl = numel (m.decoder);
    for l = 1:nl
      S = m.decoder(l).self;
      state.K{l} = zeros (0, columns (S.W_K) / S.heads, S.heads);
      state.V{l} = zeros (0, columns (S.W_V) / S.heads, S.heads);
    endfor
    if (! strcmp (family_kind (m), "decoder-only"))
      allow = true (numel (src), 1);
      E = model_encode (m, src, allow).encoded;
      state.work(1) = 1;
      if (isfield (m.decoder, "cross"))           # encoder-decoder
        for l = 1:nl
          B = m.decoder(l).cross;
          state.cross_K{l} = reshape (E * B.W_K, rows (E), [], B.heads);
          state.cross_V{l} = reshape (E * B.W_V, rows (E), [], B.heads);
        endfor
      else                                        # pooled context
        state.c = mean_pool (E, allow);
        switch (m.config.family)
          case "pooled-add"
            state.u = state.c * m.W_u;
          case "pooled-prefix"                    # the source row, position 1
            [state, ~, ~, w] = decode_step (m, state, [], state.c * m.W_P + m.tgt_pos(1,:));
            state.work += w;
        endswitch
      endif
    endif
  endif
  for token = fed
    if (cache)
      [state, ~, ~, w] = decode_step (m, state, token);
      state.work += w;
    else
      state.ids(end+1,1) = token;             # read with the next step's pass
    endif
  endfor
endfunction
