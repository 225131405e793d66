## [texts, info, done] = decode_run (m, sources, prompts, o, fname, prompt_name):
## the one decoding loop of every decoder (attn_greedy, attn_beam,
## attn_sample, attn_continue, attn_score) on every generating model, over
## a batch of N sentences at once.
## sources: a cell of N sentences the encoder reads (ignored by
## decoder-only models), or one sentence (texts is then its text, not a
## cell); prompts: 1×N cell, the target words that follow
## <bos> before the generated ones, or {} (none: a decoder-only model then
## reads the sources as its prompts).
## o: max_len (scalar, or 1×N: one limit per sentence), cache, want (true:
## keep every step's probs and A for info), method ("greedy", "sample",
## "beam") and its options (sample: those of decode_sample; beam: width,
## alpha).  fname names the caller in errors and warnings, prompt_name the
## prompts' argument.
##
## The batch is a set of rows, each a hypothesis of one sentence (ids so
## far, log-probability, its part of the decoder state).  The encoder runs
## once on the padded sources; then every time step sends one new row of
## every live hypothesis through the decoder at once, each reading its own
## cached keys and values, and the strategy chooses per sentence which
## (hypothesis, token) pairs live on: greedy the most probable token,
## sample a draw, beam the `width` best totals.  While a sentence's prompt
## is read its row takes the prompt's next token.  A hypothesis that writes
## <eos> is done; a sentence ends when none of its hypotheses is live,
## `width` are done, or at its length limit (live ones then count as done),
## and its rows leave the batch.
## texts: a cell of the shape of sources; info a struct array of that shape: source_labels, prompt_tokens,
## encoder_passes, decoder_steps, rows_computed, ids, tokens, stopped of the
## best hypothesis, and with o.want its probs (steps×V) and A
## (steps×m×h×L).  done{i}: every finished hypothesis of sentence i (ids,
## logp, score), best first by logp / len^alpha.
function [texts, info, done] = decode_run (m, sources, prompts, o, fname,
                                           prompt_name = "PROMPT")
  check_model (m, fname);
  kind = family_kind (m);
  if (strcmp (kind, "encoder"))
    error ("attention:model",
           "%s: M is an %s classifier (attn_family), which does not generate text; use attn_forward",
           fname, m.config.family);
  endif
  many = iscell (sources);
  if (! many)
    sources = {sources};
  endif
  shape = size (sources);
  sources = sources(:)';
  N = numel (sources);
  dec_only = strcmp (kind, "decoder-only");
  if (dec_only && isempty (prompts))
    prompts = sources;                        # no source: the caller's text is the prompt
    prompt_name = "SOURCE";
  endif
  v = m.tgt_vocab;
  V = numel (v.words);
  batch = struct ("src", zeros (0, N), "src_allow", false (0, N));
  if (! dec_only)
    batch = model_batch (m, sources, {}, fname);
    unknown_words (m.src_vocab, sources, batch.src(batch.src_allow), "SOURCE", fname);
    fits (sum (batch.src_allow, 1), rows (m.src_pos), "SOURCE", "<eos>", fname);
  endif
  fed = num2cell (v.bos + zeros (1, N));      # <bos> and the prompt: read before generating
  if (! isempty (prompts))
    fed = cellfun (@(p) [v.bos, to_ids(v, p, "target", fname)], prompts,
                   "UniformOutput", false);
    unknown_words (v, prompts, [fed{:}], prompt_name, fname);
  endif
  n0 = cellfun ("numel", fed)(:);             # per sentence (N×1), as every count below
  L = rows (m.tgt_pos) - prefix_rows (m);     # target rows the position table holds
  fits (n0, L, prompt_name, "<bos>", fname);
  limit = min (o.max_len(:), L - n0 + 1);     # the last token is never fed
  width = 1;
  if (strcmp (o.method, "beam"))
    width = o.width;
    if (width > V)                            # bounds a step to width×V candidates
      error ("attention:option",
             "%s: option \"width\" must be at most %d, the size of the target vocabulary, got %g",
             fname, V, width);
    endif
  endif

  st = start (m, batch, o.cache);
  sent = (1:N)';                              # the sentence of each row
  ids = v.bos + zeros (1, N);                 # s×R: the ids each row has read at step s
  logp = zeros (N, 1);
  back = sent;                                # each row's row at the step before
  ndone = zeros (N, 1);
  live = true (N, 1);
  D = struct ("sent", zeros (0, 1), "ids", {cell(0, 1)}, "logp", zeros (0, 1),
              "s", zeros (0, 1), "r", zeros (0, 1));    # the finished hypotheses, in order
  hist = struct ("P", {{}}, "A", {{}}, "back", {{}});
  stepped = made = cell (0, 1);               # per step: the sentences of the rows run, [of those that generated, step]
  h = 0;                                      # cross-attention heads
  if (isfield (m.decoder, "cross"))
    h = m.decoder(1).cross.heads;
  endif
  want_A = o.want && h > 0;
  for s = 1:max (n0 + limit)
    ## sentences at their length limit (s - n0 tokens made) or with `width`
    ## done end here: their live rows are done, chosen at step s-1
    ending = live & (s - n0 >= limit | ndone >= width);
    if (any (ending))
      out = ending(sent);
      D = add_done (D, sent(out), ids(:,out), logp(out), s - 1, back(out));
      live(ending) = false;
      if (all (out))
        break;
      endif
      [st, ids, logp, sent, back] = keep_rows (st, find (! out), ids, logp, sent, back);
    endif
    reading = s < n0(sent);                   # rows still reading their prompt
    gen = ! reading;
    if (o.cache)
      [st, P, A] = step (m, st, ids(s,:)', want_A);
      stepped{s} = sent;
    else
      P = nan (numel (sent), V);
      A = [];
      if (any (gen))
        [P(gen,:), A_gen] = rerun (m, st.src(:,gen), st.src_allow(:,gen), ids(:,gen), want_A);
        if (want_A)
          A = zeros ([numel(sent), size(A_gen)(2:end)]);
          A(gen,:,:,:) = A_gen;
        endif
      endif
    endif
    made{s} = [sent(gen), s + zeros(nnz (gen), 1)];
    bad = find (gen & ! all (isfinite (P), 2), 1);
    if (! isempty (bad))
      error ("attention:nonfinite",
             "%s: the next-token probabilities of step %d are not finite: M holds NaN or Inf weights",
             fname, s - n0(sent(bad)) + 1);
    endif
    if (o.want)
      hist.P{s} = P;
      hist.A{s} = A;
      hist.back{s} = back;
    endif

    ## the candidates (from: row, token, their log-probability)
    if (strcmp (o.method, "beam"))
      [from, token, lp] = beam (P, logp, sent, gen, width);
    else
      from = (1:numel (sent))';
      token = zeros (size (from));
      if (strcmp (o.method, "greedy"))
        [~, token(gen)] = max (P(gen,:), [], 2);
      else
        token(gen) = arrayfun (@(r) decode_sample (P(r,:), o), find (gen));
      endif
      lp = logp;
      lp(gen) += log (P(sub2ind (size (P), from(gen), token(gen))));
    endif
    read = reading(from);
    if (any (read))
      token(read) = arrayfun (@(r) fed{sent(r)}(s+1), from(read));
    endif
    ends = ! read & token == v.eos;
    if (any (ends))
      csent = sent(from);
      D = add_done (D, csent(ends), [ids(:,from(ends)); token(ends)'], lp(ends), s, from(ends));
      ndone += tally (csent(ends), 1, N);
    endif
    keep = find (! ends);
    if (isempty (keep))
      break;
    elseif (any (ends) || strcmp (o.method, "beam"))
      [st, ids, ~, sent, back] = keep_rows (st, from(keep), ids, logp, sent, back);
    endif
    ids(s+1,:) = token(keep)';
    logp = lp(keep);
    back = from(keep);
  endfor

  ## every finished hypothesis without its <bos> and prompt, scored; per
  ## sentence best first (ties in the order found), the best one's info
  D.ids = cellfun (@(q, n) q(n+1:end)(:)', D.ids, num2cell (n0(D.sent)), "UniformOutput", false);
  alpha = 0;
  if (isfield (o, "alpha"))
    alpha = o.alpha;
  endif
  score = D.logp ./ cellfun ("numel", D.ids) .^ alpha;
  [~, order] = sort (score, "descend");
  [~, by] = sort (D.sent(order));
  order = order(by);
  best = order(diff ([0; D.sent(order)]) != 0);    # one per sentence, in order
  ids = D.ids(best)';
  texts = reshape (cellfun (@(q) join_words (v.words(q(q != v.eos))), ids,
                            "UniformOutput", false), shape);
  if (! many)
    texts = texts{1};
  endif
  if (nargout < 2)
    return;
  endif
  ## the work per sentence: decoder steps (rows that chose a token),
  ## encoder passes and rows run through the causal stack
  made = vertcat (zeros (0, 2), made{:});
  steps = tally (made(:,1), 1, N);
  enc = isfield (m, "encoder");
  if (o.cache)                                # the encoder once, every row stepped
    passes = enc * ones (N, 1);
    rows_run = prefix_rows (m) + tally (vertcat (zeros (0, 1), stepped{:}), 1, N);
  else                                        # the whole model at every step
    passes = enc * steps;
    rows_run = tally (made(:,1), made(:,2) + prefix_rows (m), N);
  endif
  tokens = cellfun (@(q) v.words(q), ids, "UniformOutput", false);
  stopped = {"length", "eos"}(1 + cellfun (@(q) ! isempty (q) && q(end) == v.eos, ids));
  labels = arrayfun (@(i) m.src_vocab.words(batch.src(batch.src_allow(:,i), i)'), 1:N,
                     "UniformOutput", false);
  info = struct ("source_labels", labels, "prompt_tokens", cellfun (@(q) v.words(q), fed,
                                                                    "UniformOutput", false),
                 "encoder_passes", num2cell (passes'), "decoder_steps", num2cell (steps'),
                 "rows_computed", num2cell (rows_run'), "probs", [], "A", [], "ids", ids,
                 "tokens", tokens, "stopped", stopped);
  if (o.want)                                 # the best one's steps
    for i = 1:N
      [info(i).probs, info(i).A] = history (hist, D.s(best(i)), D.r(best(i)), n0(i),
                                            nnz (batch.src_allow(:,i)), h, numel (m.decoder), V);
    endfor
  else
    info = rmfield (info, {"probs", "A"});
  endif
  info = reshape (info, shape);
  if (nargout > 2)                            # every hypothesis of each sentence
    done = mat2cell (order, tally (D.sent, 1, N))';
    done = cellfun (@(k) struct ("ids", D.ids(k)', "logp", num2cell (D.logp(k))',
                                 "score", num2cell (score(k))'), done, "UniformOutput", false);
  endif
endfunction

## c (N×1): c(k) the sum of v over the places where i is k (v a scalar:
## each place counts v); sparse adds up repeated indices, exactly for these
## integer counts
function c = tally (i, v, N)
  c = full (sparse (i, 1, v, N, 1));
endfunction

## the words of a cell joined by single spaces ("" for none)
function t = join_words (w)
  t = "";
  if (! isempty (w))
    t = sprintf ("%s ", w{:})(1:end-1);
  endif
endfunction

## error unless every length n (1×N) is at most limit
function fits (n, limit, name, special, fname)
  bad = find (n > limit, 1);
  if (! isempty (bad))
    if (numel (n) > 1)
      name = sprintf ("%s{%d}", name, bad);
    endif
    error ("attention:size",
           "%s: %s must fit the position table: at most %d tokens with %s, got %d",
           fname, name, limit, special, n(bad));
  endif
endfunction

## warn (attention:unknown-word), once, about the words of the sentences
## (a cell) missing from vocabulary v, which decoding reads as <unk>;
## ids: the sentences' ids (none is <unk>: nothing to look for)
function unknown_words (v, sentences, ids, name, fname)
  if (v.unk == 0 || ! any (ids(:) == v.unk))
    return;
  endif
  words = cellfun (@(c) c(:)', sentences(cellfun ("iscellstr", sentences)),
                   "UniformOutput", false);
  words = [{}, regexp(sentences(cellfun ("ischar", sentences)), '\S+', "match"){:}, words{:}];
  unknown = unique (words(! ismember (words, v.words)), "stable");
  if (! isempty (unknown))
    warning ("attention:unknown-word",
             "%s: %s words not in the vocabulary, read as <unk>: %s",
             fname, name, strjoin (unknown, ", "));
  endif
endfunction

## D with the finished hypotheses of sentences sent (ids columns, logp),
## their last token chosen at step s from row r of that step
function D = add_done (D, sent, ids, logp, s, r)
  D.sent = [D.sent; sent];
  D.ids = [D.ids; num2cell(ids, 1)'];
  D.logp = [D.logp; logp];
  D.s = [D.s; s + zeros(numel (sent), 1)];
  D.r = [D.r; r];
endfunction

## the beam's candidates: per sentence (rows in order) the `width` best
## totals logp + log p over its rows and tokens, as (row from, token, lp);
## a row still reading its prompt passes on alone (its token set later)
function [from, token, lp] = beam (P, logp, sent, gen, width)
  from = token = lp = zeros (0, 1);
  first = find ([true; diff(sent) != 0]);
  last = [first(2:end) - 1; numel(sent)];
  for b = 1:numel (first)
    r = (first(b):last(b))';
    if (! gen(r(1)))
      from(end+1,1) = r;
      token(end+1,1) = 0;
      lp(end+1,1) = logp(r);
      continue;
    endif
    total = logp(r) + log (P(r,:));
    [~, at] = sort (total(:), "descend");
    at = at(1:min (width, numel (at)));
    [f, t] = ind2sub (size (total), at);
    from = [from; r(f)];
    token = [token; t];
    lp = [lp; total(at)(:)];
  endfor
endfunction

## the probabilities and cross-attention weights of the steps a hypothesis
## went through, following its rows back from row r of step s to step n0,
## its first generated token (m source tokens, h heads, nl layers)
function [probs, A] = history (hist, s, r, n0, m, h, nl, V)
  k = s - n0 + 1;                             # steps it generated
  probs = zeros (k, V);
  A = zeros (k, m, h, nl);
  for j = k:-1:1
    probs(j,:) = hist.P{s}(r,:);
    if (h > 0)
      A(j,:,:,:) = hist.A{s}(r,1:m,:,:);
    endif
    r = hist.back{s}(r);
    s -= 1;
  endfor
endfunction

## st = start (m, batch, cache): the decoder state of N sentences
## (the sources batch.src, batch.src_allow: M×N) before their first step.
## cache true: the encoder runs once here, on the whole batch, and the state
## holds what every later row reads; the arrays' last dimension is the row
## (R rows, one per sentence here):
##   K{l}, V{l}      self-attention keys and values of the rows read so far,
##                   layer l (t×dk×h×R, t×dv×h×R), one row appended per step
##   cross_K{l}, cross_V{l}  cross-attention keys and values of the encoded
##                   source (M×dk×h×R, M×dv×h×R; encoder-decoder), with
##   allow           1×M×h×R (true: a real source token), or [] unpadded
##   c (R×d), u (R×d)  the pooled source and c*W_u (pooled models)
##   t               rows in the causal stack (the pooled-prefix source row
##                   included): the next row sits at position t + 1
## cache false: the state holds the sources; each step reruns the whole
## model.
function st = start (m, batch, cache)
  N = columns (batch.src);
  st = struct ("src", batch.src, "src_allow", batch.src_allow, "t", 0,
               "K", {{}}, "V", {{}}, "cross_K", {{}}, "cross_V", {{}},
               "allow", [], "c", [], "u", []);
  if (! cache)
    return;
  endif
  nl = numel (m.decoder);
  for l = 1:nl
    S = m.decoder(l).self;
    st.K{l} = zeros (0, columns (S.W_K) / S.heads, S.heads, N);
    st.V{l} = zeros (0, columns (S.W_V) / S.heads, S.heads, N);
  endfor
  if (! isfield (m, "encoder"))
    return;
  endif
  M = rows (batch.src);
  E = model_encode (m, batch.src, batch.src_allow, struct (), "lean").encoded;   # M×d×N
  if (isfield (m.decoder, "cross"))           # encoder-decoder
    rows_E = reshape (permute (E, [1 3 2]), [], columns (E));   # (M·N)×d, sentence after sentence
    for l = 1:nl
      B = m.decoder(l).cross;
      st.cross_K{l} = permute (reshape (rows_E * B.W_K, M, N, [], B.heads), [1 3 4 2]);
      st.cross_V{l} = permute (reshape (rows_E * B.W_V, M, N, [], B.heads), [1 3 4 2]);
    endfor
    if (! all (batch.src_allow(:)))           # padded sources: a key mask per page
      st.allow = repmat (reshape (batch.src_allow, 1, M, 1, N), [1, 1, B.heads, 1]);
    endif
  else                                        # pooled context
    st.c = permute (mean_pool (E, batch.src_allow), [3 2 1]);
    switch (m.config.family)
      case "pooled-add"
        st.u = st.c * m.W_u;
      case "pooled-prefix"                    # the source row, position 1
        st = step (m, st, [], false, st.c * m.W_P + m.tgt_pos(1,:));
    endswitch
  endif
endfunction

## the state, ids (columns), logp, sent, back of the rows `keep` (in order)
function [st, ids, logp, sent, back] = keep_rows (st, keep, ids, logp, sent, back)
  ids = ids(:,keep);
  logp = logp(keep);
  sent = sent(keep);
  back = back(keep);
  st.src = st.src(:,keep);
  st.src_allow = st.src_allow(:,keep);
  for l = 1:numel (st.K)
    st.K{l} = st.K{l}(:,:,:,keep);
    st.V{l} = st.V{l}(:,:,:,keep);
  endfor
  for l = 1:numel (st.cross_K)
    st.cross_K{l} = st.cross_K{l}(:,:,:,keep);
    st.cross_V{l} = st.cross_V{l}(:,:,:,keep);
  endfor
  if (! isempty (st.allow))
    st.allow = st.allow(:,:,:,keep);
  endif
  if (! isempty (st.c))
    st.c = st.c(keep,:);
  endif
  if (! isempty (st.u))
    st.u = st.u(keep,:);
  endif
endfunction

## [st, probs, A] = step (m, st, tokens, want_A, x): one cached decoder step
## of every row: the row of its token (tokens R×1) goes through the causal
## stack and the head, through the same sublayer (norm placement) as the
## whole pass, its self-attention reading the row's cached keys and values.
## probs R×V: the next-token distributions; A R×M×h×L: the new rows'
## cross-attention weights per head and layer (want_A; [] otherwise).
## x (R×d), when given, is the input rows themselves (the pooled-prefix
## source row).
function [st, probs, A] = step (m, st, tokens, want_A, x = [])
  t = st.t + 1;
  if (isempty (x))
    x = input_rows (m, st, tokens, m.tgt_pos(t,:));
  endif
  norm = m.config.norm;
  nl = numel (m.decoder);
  A = [];
  if (want_A)
    A = zeros (rows (x), rows (st.cross_K{1}), m.decoder(1).cross.heads, nl);
  endif
  for l = 1:nl
    p = m.decoder(l);
    K = st.K{l};
    V = st.V{l};
    [x, S] = sublayer (x, [], p, "self", norm, @(z) attend_rows (z, p.self, K, V, true, []));
    st.K{l} = S.self.K;
    st.V{l} = S.self.V;
    if (isfield (p, "cross"))
      fwd = @(z) attend_rows (z, p.cross, st.cross_K{l}, st.cross_V{l}, false, st.allow);
      if (want_A)
        [x, S] = sublayer (x, [], p, "cross", norm, fwd);
        A(:,:,:,l) = permute (S.cross.A, [4 2 3 1]);
      else
        x = sublayer (x, [], p, "cross", norm, fwd);
      endif
    endif
    if (isfield (p, "ffn"))
      x = sublayer (x, [], p, "ffn", norm, @(z) ffn_forward (z, p.ffn, "lean"));
    endif
  endfor
  if (strcmp (norm, "pre"))
    x = layer_norm (x, m.decoder_norm);
  endif
  probs = softmax_rows (x * m.W_vocab + m.b_vocab);
  st.t = t;
endfunction

## [probs, A] = rerun (m, src, src_allow, ids, want_A): the uncached step,
## the reference the cache is tested against: the whole model on every id
## so far of R rows (ids s×R, their sources src, src_allow M×R); probs R×V,
## A R×M×h×L (want_A)
function [probs, A] = rerun (m, src, src_allow, ids, want_A)
  tr = model_forward (m, struct ("src", src, "src_allow", src_allow,
                                 "tgt_in", ids, "tgt_allow", true (size (ids))));
  probs = permute (tr.probs(end,:,:), [3 2 1]);
  A = [];
  for l = 1:numel (m.decoder) * want_A
    A = cat (4, A, permute (tr.decoder(l).cross.A(end,:,:,:), [4 2 3 1]));
  endfor
endfunction

## the input rows of target tokens (R×1) at position row pos (1×d), by family
function x = input_rows (m, st, tokens, pos)
  e = m.tgt_embed(tokens,:);
  switch (m.config.family)
    case "pooled-add"                   # e_t + u + p_t
      x = e + st.u + pos;
    case "pooled-concat"                # [e_t, c]*W_F + p_t
      x = [e, st.c] * m.W_F + pos;
    otherwise
      x = e + pos;
  endswitch
endfunction

## one query row per row of z (R×d) against keys K and values V (t×dk×h×R,
## t×dv×h×R: heads and rows as pages), as an attention block for sublayer:
## [z + delta, T] with T.delta (R×d), T.A (1×t×h×R).  own (self-attention):
## append z's own keys and values to K, V first (T.K, T.V: the caches with
## them).  allow: the key mask (1×t×h×R), or [] for every key.
function [y, T] = attend_rows (z, B, K, V, own, allow)
  h = B.heads;
  if (own)
    K(end+1,:,:,:) = as_pages (z * B.W_K, h);
    V(end+1,:,:,:) = as_pages (z * B.W_V, h);
    T.K = K;
    T.V = V;
  endif
  if (isempty (allow))
    [M, T.A] = attn_sdpa (as_pages (z * B.W_Q, h), K, V);
  else
    [M, T.A] = attn_sdpa (as_pages (z * B.W_Q, h), K, V, allow);
  endif
  T.delta = reshape (M, [], rows (z)).' * B.W_O;       # heads side by side, a row each
  y = z + T.delta;
endfunction

## rows Y (R×h·w, head j in columns (j-1)·w+1 … j·w) as pages 1×w×h×R
function P = as_pages (Y, h)
  P = reshape (Y.', 1, [], h, rows (Y));
endfunction
