## [texts, info, done] = decode_run (m, sources, prompts, o, fname, prompt_name):
## decoding of a batch of N sentences at once, for attn_greedy, attn_beam,
## attn_sample, attn_continue and attn_score on every generating model:
## the state (decode_start), the strategy of o.method ("greedy" and
## "sample": decode_greedy, picking the most probable token or a draw of
## decode_sample; "beam": decode_beam), then the results.  Arguments as
## decode_start's; o also holds the sampling options (decode_sample) or
## the beam's width and alpha.
## texts: a cell of the shape of sources (one sentence: its text);
## info a struct array of that shape: source_labels, prompt_tokens,
## encoder_passes, decoder_steps, rows_computed, ids, tokens, stopped of the
## best hypothesis, and with o.want its probs (steps×V) and A
## (steps×m×h×L).  done{i}: every finished hypothesis of sentence i (text,
## <eos> included, ids, logp, score), best first by logp / len^alpha.
function [texts, info, done] = decode_run (m, sources, prompts, o, fname,
                                           prompt_name = "PROMPT")
  st = decode_start (m, sources, prompts, o, fname, prompt_name);
  switch (o.method)
    case "greedy"
      [D, st] = decode_greedy (m, st, @most_probable);
    case "sample"
      [D, st] = decode_greedy (m, st, @(P) arrayfun (@(r) decode_sample (P(r,:), o), (1:rows (P))'));
    case "beam"
      [D, st] = decode_beam (m, st, o.width);
  endswitch

  ## every finished hypothesis without its <bos> and prompt, scored; per
  ## sentence best first (ties in the order found)
  N = numel (st.n0);
  v = m.tgt_vocab;
  ids = written (D.ids, st.n0(D.sent));
  alpha = 0;
  if (isfield (o, "alpha"))
    alpha = o.alpha;
  endif
  score = D.logp ./ cellfun ("numel", ids) .^ alpha;
  [~, order] = sort (score, "descend");
  [~, by] = sort (D.sent(order));
  order = order(by);
  best = order(diff ([0; D.sent(order)]) != 0);    # one per sentence, in order
  texts = reshape (join_words (v.words, ids(best), v.eos), st.shape);
  if (! st.many)
    texts = texts{1};
  endif
  if (nargout < 2)
    return;
  endif
  out = ids(best)';
  passes = isfield (m, "encoder") * ones (N, 1);
  if (! st.cached)                            # the whole model at every step
    passes .*= st.steps;
  endif
  stopped = {"length", "eos"}(1 + cellfun (@(q) ! isempty (q) && q(end) == v.eos, out));
  info = struct ("source_labels", st.labels,
                 "prompt_tokens", cellfun (@(q) v.words(q), st.fed, "UniformOutput", false),
                 "encoder_passes", num2cell (passes'), "decoder_steps", num2cell (st.steps'),
                 "rows_computed", num2cell (prefix_rows (m) * st.cached + st.rows_run'),
                 "probs", [], "A", [], "ids", out,
                 "tokens", cellfun (@(q) v.words(q), out, "UniformOutput", false),
                 "stopped", stopped);
  if (o.want)                                 # the steps the best one chose at
    h = 0;
    if (isfield (m.decoder, "cross"))
      h = m.decoder(1).cross.heads;
    endif
    cls = class (m.decoder(1).self.W_Q);      # the model's: double or single
    [probs, A] = deal (cell (1, N));          # made apart, then set at once: each
    for i = 1:N                               # info(i).(f)(:) = ... copied info
      k = best(i);
      steps = st.n0(i):numel (D.ids{k}) - 1;  # steps×V, steps×m×h×L
      if (isempty (steps))                    # (no step: no history to index)
        probs{i} = zeros (0, numel (v.words), cls);
      else
        probs{i} = D.P{k}(steps,:);
      endif
      if (isempty (steps) || h == 0)          # (no cross-attention: no weights)
        A{i} = zeros (numel (steps), st.src_len(i), h, numel (m.decoder), cls);
      else
        A{i} = D.A{k}(steps,1:st.src_len(i),:,:);
      endif
    endfor
    [info.probs] = probs{:};
    [info.A] = A{:};
  else
    info = rmfield (info, {"probs", "A"});
  endif
  info = reshape (info, st.shape);
  if (nargout > 2)                            # every hypothesis of each sentence
    done = mat2cell (order, accumarray (D.sent, 1, [N 1]))';
    every = join_words (v.words, ids, NaN);   # every word, <eos> too
    done = cellfun (@(k) struct ("text", every(k)(:)', "ids", ids(k)',
                                 "logp", num2cell (D.logp(k))',
                                 "score", num2cell (score(k))'), done, "UniformOutput", false);
  endif
endfunction

## the most probable token of each row of P
function t = most_probable (P)
  [~, t] = max (P, [], 2);
endfunction

## the words of a cell joined by single spaces ("" for none), one text for
## each id row of the cell ids, leaving out the ids eos (NaN: none)
function t = join_words (words, ids, eos)
  ## every sentence at once: its words (no eos) one space apart, "" when none
  t = cell (1, 0);
  if (isempty (ids))
    return;
  endif
  n = cellfun ("numel", ids);
  flat = [zeros(1, 0), ids{:}];
  sent = repelem (1:numel (ids), n(:)');
  keep = flat != eos;
  [flat, sent] = deal (flat(keep), sent(keep));
  w = words(flat)(:)';
  first = diff ([0, sent]) != 0;           # no space before a sentence's first word
  joined = [{" ", ""}(1 + first); w];
  chars = full (sparse (sent, 1, cellfun ("numel", w) + ! first, numel (ids), 1));
  t = mat2cell (reshape ([joined{:}], 1, []), 1, chars');
  t(chars == 0) = {""};
endfunction

## the ids each hypothesis wrote (skip(k) read before them), rows
function ids = written (read, skip)
  ids = cell (0, 1);
  if (isempty (read))
    return;
  endif
  n = cellfun ("numel", read);
  flat = vertcat (zeros (0, 1), read{:});
  at = (1:numel (flat))' - repelem (cumsum ([0; n(1:end-1)]), n)(:);   # place in its own
  ids = mat2cell (reshape (flat(at > repelem (skip, n)(:)), 1, []), 1, (n - skip)')';
endfunction
