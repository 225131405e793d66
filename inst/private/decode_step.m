## [st, P] = decode_step (m, st, gen): one decoder step of every row of the
## state st (decode_start): the ids it has not read yet (one, or at the
## first step the prompt all rows share) go through the model's own input
## rule (decoder_input), causal stack (layer_stack, its self-attention
## reading the K/V cache, its cross-attention the source's cached keys and
## values) and head, and the cache grows by those rows.
## P (R×V): the next-token distributions after the last id (finite:
## softmax_rows refuses logits that are not), needed for the rows gen (R×1
## logical: the rows that choose a token; the others still read their
## prompt).  Uncached (st.cached false) the whole model reruns on every id
## so far of the rows gen (the reference the cache is tested against).
## Also counts each sentence's steps and rows run, and with st.want keeps
## P and the cross-attention weights in the history st.P, st.A.
function [st, P] = decode_step (m, st, gen)
  [s, R] = size (st.ids);
  k = s - st.read;                            # ids not read yet: 1, or the shared prompt
  st.read = s;
  if (st.cached)
    if (st.t == 0 && prefix_rows (m))         # pooled-prefix: the source row first
      st = stack (m, st, zeros (0, R));
    endif
    [st, x, L] = stack (m, st, st.ids(s-k+1:s,:));   # k×R rows in one pass
    st.rows_run += tally (st.sent, k, st.n0);
    if (st.want)                              # every row's: the history's k×V×R
      Pk = softmax_rows (vocab_logits (m, x));
      P = reshape (Pk(end,:,:), [], R).';
    else                                      # the last row's alone, as R×d rows:
      P = softmax_rows (vocab_logits (m, reshape (x(end,:,:), [], R).'));   # R×V
    endif
    A = [];
    if (st.want_A)                            # k×M×h×R per layer -> k×M×h×L×R
      A = permute (cat (5, arrayfun (@(T) T.cross.A, L, "UniformOutput", false){:}),
                   [1 2 3 5 4]);
    endif
  else
    [P, A] = rerun (m, st, gen);
    if (st.want)
      ## the history's layouts; the rows before the last, never reported
      ## (prompt rows before every sentence's own), are NaN
      Pk = cat (1, nan (k - 1, columns (P), R), reshape (P.', 1, [], R));
      if (st.want_A)
        A = permute (A, [5 2 3 4 1]);
        A = cat (1, nan ([k - 1, size(A)(2:end)]), A);
      endif
    endif
    st.rows_run += tally (st.sent(gen), s + prefix_rows (m), st.n0);
  endif
  st.steps += tally (st.sent(gen), 1, st.n0);
  if (st.want)                              # one history row per id read
    st.P = cat (1, st.P, Pk);
    if (st.want_A)
      st.A = cat (1, st.A, A);
    endif
  endif
endfunction

## c (N×1, the shape of n0): c(k) the sum of v over the places where the
## sentences i are k (sparse adds up repeated ones: the rows of a beam)
function c = tally (i, v, n0)
  c = full (sparse (i, 1, v, numel (n0), 1));
endfunction

## [st, x, L] = stack (m, st, ids): the rows of ids (n×R) through the
## causal stack with the cache; x n×d×R after the final norm (when the
## config has one), L the layers' lean traces
function [st, x, L] = stack (m, st, ids)
  x = decoder_input (m, ids, st.t, st);
  mode = "step";                              # K and V: the next step's cache
  if (st.want_A)                              # and the history's cross-attention A
    mode = "lean";
  endif
  [x, L] = layer_stack (x, m.decoder, [], true, m.config, st.E, st.src_allow, mode, st.cache);
  if (m.config.final_norm)
    x = layer_norm (x, m.decoder_norm, m.config);
  endif
  st.cache = L;                               # their K and V: the next step's cache
  st.E = st.E(1:0,:,:);                       # the source is read
  st.t += rows (x);
endfunction

## [P, A] = rerun (m, st, gen): the uncached step: the whole model on every
## id so far of the rows gen; P R×V and A R×M×h×L (st.want_A) of the
## last id of those rows
function [P, A] = rerun (m, st, gen)
  [s, R] = size (st.ids);
  cls = class (m.decoder(1).self.W_Q);        # the model's: double or single
  P = nan (R, numel (m.tgt_vocab.words), cls);
  A = [];
  if (st.want_A)
    A = zeros (R, rows (st.src), m.decoder(1).cross.heads, numel (m.decoder), cls);
  endif
  if (! any (gen))
    return;
  endif
  tr = model_forward (m, struct ("src", st.src(:,gen), "src_allow", st.src_allow(:,gen),
                                 "tgt_in", st.ids(:,gen), "tgt_allow", true (s, nnz (gen))));
  P(gen,:) = permute (tr.probs(end,:,:), [3 2 1]);
  if (st.want_A)
    for l = 1:numel (m.decoder)
      A(gen,:,:,l) = permute (tr.decoder(l).cross.A(end,:,:,:), [4 2 3 1]);
    endfor
  endif
endfunction
