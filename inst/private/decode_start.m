## st = decode_start (m, sources, prompts, o, fname, prompt_name): the
## decoder state of N sentences before their first step, after checking
## the sentences and the options (the public caller has checked the model).  sources: a cell of N sentences
## the encoder reads (ignored by decoder-only models), or one sentence;
## prompts: 1×N cell, the target words that follow <bos> before the
## generated ones, or {} (none: a decoder-only model then reads the sources
## as its prompts).  o: max_len (scalar, or 1×N: one limit per sentence),
## cache, want (keep every step's probs and A), method, width (beam).
## fname names the caller in errors and warnings, prompt_name the prompts.
##
## The encoder runs once here, on the padded sources.  The state is a set
## of rows (one per sentence here; a beam holds several per sentence),
## each a hypothesis with its part of the decoder state in the last
## dimension of every per-row array (decode_keep selects rows):
##   sent (R×1)      its sentence;  ids (s×R) the ids it has read or will
##                   read next (at first <bos> and the prompt words every
##                   sentence has, read in one pass);  read the rows of ids
##                   in the cache;  logp (R×1) the log-probability of its
##                   tokens
##   cache           the K/V cache (layer_stack): cache(l).self.K, .V
##                   (t×h·dk×R, t×h·dv×R) and cache(l).cross.K, .V
##                   (M×h·dk×R: computed at the first step from E)
##   E (M×d×R)       the encoded source rows not read yet (none after the
##                   first step);  src, src_allow (M×R);  c (1×d×R) pooled
##   P (s×V×R), A (s×M×h×L×R)  every step's probabilities and
##                   cross-attention weights (o.want)
## and per sentence (N×1): n0 (ids of <bos> and its prompt), fed (1×N cell:
## those ids), limit (most tokens to write), steps (decoder steps that
## chose a token), rows_run (rows run through the causal stack); t the rows
## in the stack (the pooled-prefix source row included), cached, want,
## want_A, fname; labels (1×N cell: the source tokens), src_len (N×1:
## their number), shape and many (of sources).
function st = decode_start (m, sources, prompts, o, fname, prompt_name)
  family = model_family (m);
  if (isempty (family.start))
    error ("attention:model",
           "%s: M is an %s classifier (attn_family), which does not generate text; use attn_forward",
           fname, m.config.family);
  endif
  st.many = iscell (sources);
  if (! st.many)
    sources = {sources};
  endif
  st.shape = size (sources);
  sources = sources(:)';
  N = numel (sources);
  dec_only = strcmp (family.start, "prompt");
  if (dec_only && isempty (prompts))
    prompts = sources;                        # no source: the caller's text is the prompt
    prompt_name = "SOURCE";
  endif
  v = m.tgt_vocab;
  batch = struct ("src", zeros (0, N), "src_allow", false (0, N));
  if (! dec_only)
    batch = model_batch (m, sources, {}, fname);
    unknown_words (m.src_vocab, sources, batch.src(batch.src_allow), "SOURCE", fname);
    fits (sum (batch.src_allow, 1), m.config.max_len, "SOURCE", "<eos>", fname);
  endif
  st.fed = num2cell (v.bos + zeros (1, N));   # <bos> and the prompt: read before generating
  if (! isempty (prompts))
    st.fed = cellfun (@(p) [v.bos, to_ids(v, p, "target", fname)], prompts,
                      "UniformOutput", false);
    unknown_words (v, prompts, [st.fed{:}], prompt_name, fname);
  endif
  st.n0 = cellfun ("numel", st.fed)(:);
  L = m.config.max_len - prefix_rows (m);     # target rows the positions reach
  fits (st.n0, L, prompt_name, "<bos>", fname);
  st.limit = min (o.max_len(:), L - st.n0 + 1);   # the last token is never fed
  if (strcmp (o.method, "beam") && o.width > numel (v.words))   # bounds a step to width×V
    error ("attention:option",
           "%s: option \"width\" must be at most %d, the size of the target vocabulary, got %g",
           fname, numel (v.words), o.width);
  endif
  st.src_len = sum (batch.src_allow, 1)';
  w = m.src_vocab.words(batch.src(batch.src_allow)');   # every sentence's, then split
  if (rows (w) == 1)
    st.labels = mat2cell (w, 1, st.src_len');
  else
    st.labels = mat2cell (w, st.src_len, 1)';
  endif
  st.sent = (1:N)';
  k = min (st.n0);                            # <bos> and the prompt rows all share
  fed = [st.fed{:}];                          # every sentence's, one after another
  st.ids = reshape (fed((1:k)' + cumsum ([0; st.n0(1:end-1)])'), k, N);
  st.read = 0;
  st.logp = zeros (N, 1);
  [st.steps, st.rows_run] = deal (zeros (N, 1));
  [st.src, st.src_allow] = deal (batch.src, batch.src_allow);
  [st.cache, st.E, st.c, st.P, st.A] = deal ([]);
  st.t = 0;
  st.cached = o.cache;
  st.want = o.want;
  st.want_A = o.want && isfield (m.decoder, "cross");
  st.fname = fname;
  if (o.cache && isfield (m, "encoder"))      # the encoder, once for the batch
    st.E = model_encode (m, batch.src, batch.src_allow, struct (), "step").encoded;
    if (! isempty (family.pool))
      st.c = mean_pool (st.E, batch.src_allow);
      st.E = [];
    endif
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
