## [text, info, done] = decode_run (m, source, prompt, o, fname, prompt_name):
## the one decoding loop of every decoder (attn_greedy, attn_beam,
## attn_sample, attn_continue) on every generating model.
## source: the sentence the encoder reads (ignored by decoder-only models);
## prompt: the target words that follow <bos> before the generated ones
## ([]: none; a decoder-only model then reads source as its prompt).
## o: max_len, cache, method ("greedy", "sample", "beam") and its options
## (sample: those of decode_sample; beam: width, alpha).  fname names the
## caller in errors and warnings, prompt_name the prompt's argument.
##
## Hypotheses (ids so far, their decoder state, log-probability) are
## extended one step at a time; the strategy chooses which (hypothesis,
## token) pairs live on: greedy the most probable token, sample a draw,
## beam the `width` best totals.  A hypothesis that writes <eos> is done;
## the search ends when none is live, `width` are done, or at the length
## limit (live ones then count as done).  done: every finished hypothesis
## (ids, logp, probs, A, score), best first by logp / len^alpha.
## info: source_labels, encoder_passes, decoder_steps, rows_computed,
## prompt_tokens, probs, A, ids, tokens, stopped of the best.
function [text, info, done] = decode_run (m, source, prompt, o, fname,
                                          prompt_name = "PROMPT")
  check_model (m, fname);
  kind = family_kind (m);
  if (strcmp (kind, "encoder"))
    error ("attention:model",
           "%s: M is an %s classifier (attn_family), which does not generate text; use attn_forward",
           fname, m.config.family);
  endif
  if (strcmp (kind, "decoder-only") && isnumeric (prompt) && isempty (prompt))
    prompt = source;                          # no source: the caller's text is the prompt
    prompt_name = "SOURCE";
  endif
  v = m.tgt_vocab;
  src = zeros (0, 1);
  if (! strcmp (kind, "decoder-only"))
    src = to_ids (m.src_vocab, source, "source", fname)';
    unknown_words (m.src_vocab, source, "SOURCE", fname);
    if (numel (src) > rows (m.src_pos))
      error ("attention:size",
             "%s: SOURCE must fit the position table: at most %d tokens with <eos>, got %d",
             fname, rows (m.src_pos), numel (src));
    endif
  endif
  ids = [v.bos, to_ids(v, prompt, "target", fname)];
  unknown_words (v, prompt, prompt_name, fname);
  L = rows (m.tgt_pos) - prefix_rows (m);     # target rows the position table holds
  if (numel (ids) > L)
    error ("attention:size",
           "%s: %s must fit the position table: at most %d tokens with <bos>, got %d",
           fname, prompt_name, L, numel (ids));
  endif
  n0 = numel (ids);
  limit = min (o.max_len, L - n0 + 1);        # the last token is never fed
  V = numel (v.words);
  width = 1;
  if (strcmp (o.method, "beam"))
    width = o.width;
    if (width > V)                            # bounds a step to width×V candidates
      error ("attention:option",
             "%s: option \"width\" must be at most %d, the size of the target vocabulary, got %g",
             fname, V, width);
    endif
  endif

  state = decode_start (m, src, ids(1:end-1), o.cache);
  work = state.work;                          # [encoder passes, stack rows]
  h = 0;                                      # cross-attention heads
  if (isfield (m.decoder, "cross"))
    h = m.decoder(1).cross.heads;
  endif
  hyp = struct ("ids", ids, "logp", 0, "state", state, "probs", zeros (0, V),
                "A", zeros (0, numel (src), h, numel (m.decoder)));
  done = hyp([]);
  steps = 0;
  for len = 1:limit
    logp = zeros (numel (hyp), V);
    for i = 1:numel (hyp)
      [hyp(i).state, p, A, w] = decode_step (m, hyp(i).state, hyp(i).ids(end));
      if (! all (isfinite (p)))
        error ("attention:nonfinite",
               "%s: the next-token probabilities of step %d are not finite: M holds NaN or Inf weights",
               fname, len);
      endif
      hyp(i).probs(end+1,:) = p;
      hyp(i).A = cat (1, hyp(i).A, reshape (A, [1, size(A)]));
      logp(i,:) = hyp(i).logp + log (p);
      steps += 1;
      work += w;
    endfor
    switch (o.method)
      case "greedy"
        [~, token] = max (hyp(1).probs(end,:));
        from = 1;
      case "sample"
        token = decode_sample (hyp(1).probs(end,:), o);
        from = 1;
      case "beam"
        [~, at] = sort (logp(:), "descend");
        [from, token] = ind2sub (size (logp), at(1:min (width, numel (at)))');
    endswitch
    next = hyp(from);
    for j = 1:numel (next)
      next(j).ids(end+1) = token(j);
      next(j).logp = logp(from(j), token(j));
    endfor
    ends = token == v.eos;
    done = [done, next(ends)];
    hyp = next(! ends);
    if (isempty (hyp) || numel (done) >= width)
      break;
    endif
  endfor
  done = [done, hyp];                         # reached the length limit
  len = arrayfun (@(h) numel (h.ids) - n0, done);
  alpha = 0;
  if (isfield (o, "alpha"))
    alpha = o.alpha;
  endif
  score = [done.logp] ./ len .^ alpha;
  [score, order] = sort (score, "descend");
  done = rmfield (done(order), "state");
  score = num2cell (score);
  [done.score] = score{:};
  for j = 1:numel (done)
    done(j).ids = done(j).ids(n0+1:end);
  endfor
  best = done(1);

  info.source_labels = cell (1, 0);
  if (! strcmp (kind, "decoder-only"))
    info.source_labels = m.src_vocab.words(src');
  endif
  info.prompt_tokens = v.words(ids);
  info.encoder_passes = work(1);
  info.decoder_steps = steps;
  info.rows_computed = work(2);
  info.probs = best.probs;
  info.A = best.A;
  info.ids = best.ids;
  info.tokens = v.words(best.ids);
  info.stopped = "length";
  if (! isempty (best.ids) && best.ids(end) == v.eos)
    info.stopped = "eos";
  endif
  text = strjoin (info.tokens(best.ids != v.eos), " ");
endfunction

## warn (attention:unknown-word) about the words of sentence missing from
## vocabulary v, which decoding reads as <unk>
function unknown_words (v, sentence, name, fname)
  if (ischar (sentence))
    words = regexp (sentence, '\S+', "match");
  elseif (iscellstr (sentence))
    words = sentence(:)';
  else
    return;                                   # ids: nothing unknown
  endif
  unknown = unique (words(! ismember (words, v.words)), "stable");
  if (! isempty (unknown))
    warning ("attention:unknown-word",
             "%s: %s words not in the vocabulary, read as <unk>: %s",
             fname, name, strjoin (unknown, ", "));
  endif
endfunction
