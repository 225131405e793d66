## [text, info] = generate (m, source, opts, pick, fname): left-to-right
## decoding of one source, one token per decoder step, the token chosen by
## pick (probs) (1×V -> id) until <eos> or opts.max_len tokens.
## opts.cache true: the encoder runs once and each step is one row through
## decode_step; false: every step reruns the whole model on the prefix.
function [text, info] = generate (m, source, opts, pick, fname)
  check_model (m, fname);
  v = m.tgt_vocab;
  src = to_ids (m.src_vocab, source, "source", fname)';
  check_lengths (m, struct ("src", src, "tgt_in", v.bos), fname);
  ## pooled-prefix (attn_family) spends position 1 on the source vector
  limit = min (opts.max_len, rows (m.tgt_pos) - prefix_rows (m));
  nl = numel (m.decoder);
  h = 0;                                  # pooled-context models: no cross block
  if (isfield (m.decoder, "cross"))
    h = m.decoder(1).cross.heads;
  endif
  info.source_labels = m.src_vocab.words(src');
  info.encoder_passes = 0;
  info.decoder_steps = 0;
  info.probs = zeros (0, numel (v.words));
  info.A = zeros (0, numel (src), h, nl);
  ids = v.bos;
  if (opts.cache)
    state = decode_start (m, src);
    info.encoder_passes = 1;
  endif
  while (numel (ids) <= limit && (numel (ids) == 1 || ids(end) != v.eos))
    if (opts.cache)
      [state, probs, A] = decode_step (m, state, ids(end));
    else
      n = numel (ids);
      tr = model_forward (m, struct ("src", src, "src_allow", true (size (src)),
                                     "tgt_in", ids', "tgt_allow", true (n, 1)));
      probs = tr.probs(end,:);
      A = zeros (numel (src), h, nl);
      for l = 1:nl * (h > 0)
        A(:,:,l) = reshape (tr.decoder(l).cross.A(end,:,:), [], h);
      endfor
      info.encoder_passes += 1;
    endif
    info.decoder_steps += 1;
    info.probs(end+1,:) = probs;
    info.A(end+1,:,:,:) = reshape (A, [1, size(A)]);
    ids(end+1) = pick (probs);
  endwhile
  [text, info] = generated_text (info, ids(2:end), v);
endfunction
