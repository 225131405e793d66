## Decoding against a reference written here, apart from the package's
## decoder: a whole forward pass (attn_forward) over <bos> and every token so
## far at each step.  Cached, batched decoding must choose the same tokens
## (isequal) and report the same distributions (1e-12) on every generating
## family and norm placement.

%!function models = generating ()
%!  ## {model, sentences}: small untrained models of every generating family
%!  sv = {"raghav goes to delhi", "meera goes to school in delhi"};
%!  tv = {"raghav va a delhi", "meera va a l ecole"};
%!  src = {"meera goes to delhi", "raghav", "goes to school in delhi raghav", ""};
%!  models = {attn_toy("river"), {"the river bank", "the financial bank", "the bank"};
%!            attn_toy("blackcat"), {"the black cat", "the white dog", "dog"}};
%!  for norm = {"none", "post", "pre"}
%!    c = struct ("src_vocab", {sv}, "tgt_vocab", {tv}, "d", 8, "heads", 2, "d_ff", 6,
%!                "max_len", 7, "seed", 6, "norm", norm{1}, "encoder_layers", 2,
%!                "decoder_layers", 2);
%!    models(end+1,:) = {attn_model(c), src};
%!    for f = {"pooled-add", "pooled-concat", "pooled-prefix"}
%!      models(end+1,:) = {attn_family(setfield (c, "family", f{1})), src};
%!    endfor
%!    d = struct ("family", "decoder-only", "d", 8, "heads", 2, "layers", 2, "d_ff", 6,
%!                "max_len", 7, "norm", norm{1}, "seed", 7, "vocab", {[sv, tv]});
%!    models(end+1,:) = {attn_family(d), {"raghav goes", "meera", "", "delhi va a"}};
%!  endfor
%!endfunction

%!function [ids, probs] = reference (m, source, choose)
%!  ## the tokens choose (p) picks from the last row of a whole forward pass,
%!  ## until <eos> or the end of the position table
%!  v = m.tgt_vocab;
%!  dec_only = strcmp (m.config.family, "decoder-only");
%!  room = rows (m.tgt_pos) - strcmp (m.config.family, "pooled-prefix");
%!  prompt = v.bos;
%!  if (dec_only)
%!    prompt = [v.bos, attn_encode(v, source)];
%!  endif
%!  ids = zeros (1, 0);
%!  probs = zeros (0, numel (v.words));
%!  while (numel (prompt) + numel (ids) <= room && (isempty (ids) || ids(end) != v.eos))
%!    if (dec_only)
%!      tr = attn_forward (m, [prompt, ids]);
%!    else
%!      tr = attn_forward (m, source, [prompt, ids]);
%!    endif
%!    probs(end+1,:) = tr.probs(end,:);
%!    ids(end+1) = choose (probs(end,:));
%!  endwhile
%!endfunction

%!function id = draw (p, T)
%!  ## a token drawn with temperature T, as attn_sample documents it
%!  q = (p / max (p)) .^ (1 / T);
%!  c = cumsum (q / sum (q));
%!  id = find (c > rand () * c(end), 1);
%!endfunction

## greedy: a cell of sentences decoded as one batch, each sentence against
## the reference
%!test
%! models = generating ();
%! for i = 1:rows (models)
%!   [m, src] = models{i,:};
%!   for bias = [0, 1.5]
%!     m.b_vocab(m.tgt_vocab.eos) += bias;
%!     [T, I] = attn_greedy (m, src);
%!     for s = 1:numel (src)
%!       [ids, probs] = reference (m, src{s}, @(p) nthargout (2, @max, p));
%!       assert (isequal (I(s).ids, ids), "%s, sentence %d", m.config.family, s);
%!       assert (I(s).probs, probs, 1e-12);
%!       assert (T{s}, strjoin (m.tgt_vocab.words(ids(ids != m.tgt_vocab.eos)), " "));
%!     endfor
%!   endfor
%! endfor

## sampling with a seed: the draws of the reference, from the same rand
## stream
%!test
%! models = generating ();
%! for i = 1:rows (models)
%!   [m, src] = models{i,:};
%!   for s = 1:numel (src)
%!     [~, info] = attn_sample (m, src{s}, "seed", s, "temperature", 1.5);
%!     old = rand ("state");
%!     rand ("state", s);
%!     [ids, probs] = reference (m, src{s}, @(p) draw (p, 1.5));
%!     rand ("state", old);
%!     assert (isequal (info.ids, ids), "%s, sentence %d", m.config.family, s);
%!     assert (info.probs, probs, 1e-12);
%!   endfor
%! endfor
