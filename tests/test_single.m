## The single-precision path: the kernels on single arrays against the
## double reference (tests/reference, attn_ref_*), a single model's loss,
## gradients, training and decoding against the same model in double, its
## files, and the errors of mixing classes.
##
## Tolerances.  A single result differs from the exact one by the rounding
## of its inputs to single (eps/2 relative each, eps = eps ("single") =
## 1.2e-7) and of every operation after: a sum of k terms rounds by at most
## about k*eps times the sum of their sizes, and a kernel chains a few such
## sums (projection, scores, softmax, message, output: 5 deep).  The block
## cases below have at most 8 terms a sum, so 5 * 8 * eps bounds what
## rounding may do; the kernels' test tolerance is 64 * eps = 7.6e-6,
## relative to the largest entry (absolute for the weights A, which lie in
## [0, 1]).  Measured: at most 3.2 eps.  A kernel that computed anything
## else than the reference (a wrong index, a missed mask, a term in the
## wrong type) is off by far more.  For the n = 130 causal case (the
## triangular products and row tiles) the sums have up to 130 terms: rounding
## errors of random sign grow as sqrt (k), so 64 * eps still holds (measured
## 2.9 eps).  Finite differences are no yardstick in single (a step h moves
## the loss by h*g, which single resolves only to eps*|loss|/h: with
## h = 1e-3 the quotient is off by 1e-4 relative at best): the gradients of a
## single model are compared with those of the same model in double
## (attn_cast), which the finite-difference tests of test_families_grad.m
## check; the measured relative difference is at most 5.4e-7 (4.5 eps), the
## test allows 1e-5 (a chain of some 20 sums over at most 16 terms).

%!function e = rel (got, want)
%!  e = max (abs (double (got(:)) - want(:))) / max (1, max (abs (want(:))));
%!endfunction

%!function B = single_block (B)
%!  for f = {"W_Q", "W_K", "W_V", "W_O", "b_Q", "b_K", "b_V", "b_O"}
%!    if (isfield (B, f{1}))
%!      B.(f{1}) = single (B.(f{1}));
%!    endif
%!  endfor
%!endfunction

## every numeric array of a gradient struct, as one column
%!function v = flat (G)
%!  v = [];
%!  for k = 1:numel (G)
%!    for f = fieldnames (G)'
%!      x = G(k).(f{1});
%!      if (isstruct (x))
%!        v = [v; flat(x)];
%!      else
%!        v = [v; double(x(:))];
%!      endif
%!    endfor
%!  endfor
%!endfunction

## a tiny model of the family (the configs of test_families_grad.m) with
## a batch of its data
%!function [m, b] = tiny (family, varargin)
%!  src = {"raghav goes to delhi", "meera goes to school in delhi"};
%!  tgt = {"raghav va a delhi", "meera va a l ecole"};
%!  c = struct ("d", 8, "heads", 2, "d_ff", 12, "max_len", 8, "seed", 3, varargin{:});
%!  if (strcmp (family, "encoder-decoder") || strncmp (family, "pooled-", 7))
%!    c.src_vocab = src;
%!    c.tgt_vocab = tgt;
%!    c.encoder_layers = 1;
%!    c.decoder_layers = 2;
%!  else
%!    c.vocab = src;
%!    c.layers = 2;
%!  endif
%!  switch (family)
%!    case "encoder-decoder"
%!      m = attn_model (c);
%!    case "encoder-token"
%!      tgt = {"PERSON OTHER OTHER PLACE", "PERSON OTHER OTHER OTHER OTHER PLACE"};
%!    case "encoder-sentence"
%!      tgt = {"PLACE", "OTHER"};
%!    case "decoder-only"
%!      src = {"raghav goes", "meera goes to"};
%!      tgt = {"to delhi", "school in delhi"};
%!  endswitch
%!  if (strncmp (family, "encoder-", 8) && ! strcmp (family, "encoder-decoder"))
%!    c.classes = {"PERSON", "ORGANIZATION", "PLACE", "OTHER"};
%!  endif
%!  if (! strcmp (family, "encoder-decoder"))
%!    c.family = family;
%!    m = attn_family (c);
%!  endif
%!  b = attn_batch (m, src, tgt);
%!endfunction

%!test
%! ## attn_sdpa and attn_sdpa_backward in single against the double
%! ## reference, every mask kind, pages; the results are single
%! randn ("state", 3);
%! tol = 64 * eps ("single");
%! cases = kernel_cases ("sdpa");
%! for c = 1:rows (cases)
%!   [Q, K, V, allow] = kernel_sdpa_inputs (cases(c,:));
%!   [M, A, S] = attn_ref_sdpa (Q, K, V, allow);
%!   args = {single(Q), single(K), single(V)};
%!   if (! isempty (allow))
%!     args{end+1} = allow;
%!   endif
%!   [Mf, Af, Sf] = attn_sdpa (args{:});
%!   assert (cellfun (@class, {Mf, Af, Sf}, "UniformOutput", false), {"single", "single", "single"});
%!   assert (isinf (Sf), isinf (S));
%!   assert (rel (Mf, M) < tol && max (abs (Af(:) - A(:))) < tol, sprintf ("case %d", c));
%!   dM = randn (size (M));
%!   [dQ, dK, dV] = attn_ref_sdpa_backward (dM, Q, K, V, A);
%!   [dQf, dKf, dVf] = attn_sdpa_backward (single (dM), args{1:3}, Af);
%!   assert (class (dKf), "single");
%!   assert (max ([rel(dQf, dQ), rel(dKf, dK), rel(dVf, dV)]) < tol, sprintf ("case %d", c));
%! endfor

%!test
%! ## a causal sequence longer than the row tile: the triangular products
%! randn ("state", 4);
%! tol = 64 * eps ("single");
%! Q = randn (130, 16, 2);  K = randn (130, 16, 2);  V = randn (130, 8, 2);
%! [M, A] = attn_ref_sdpa (Q, K, V, "causal");
%! [Mf, Af] = attn_sdpa (single (Q), single (K), single (V), "causal");
%! assert (rel (Mf, M) < tol && max (abs (Af(:) - A(:))) < tol);
%! dM = randn (size (M));
%! [dQ, dK, dV] = attn_ref_sdpa_backward (dM, Q, K, V, A);
%! [dQf, dKf, dVf] = attn_sdpa_backward (single (dM), single (Q), single (K), single (V), Af);
%! assert (max ([rel(dQf, dQ), rel(dKf, dK), rel(dVf, dV)]) < tol);

%!test
%! ## the three blocks in single against attn_ref_block and its backward:
%! ## every case of the kernel tests (heads, dk != dv, masks, batches),
%! ## the trace and every gradient single
%! randn ("state", 5);  rand ("state", 5);
%! tol = 64 * eps ("single");
%! cases = kernel_cases ("block");
%! for c = 1:rows (cases)
%!   kind = cases{c,1};
%!   [B, Xq, Xkv, key_allow, dY] = kernel_block_inputs (cases(c,:));
%!   [Y, T] = attn_ref_block (kind, Xq, Xkv, B, key_allow);
%!   G = attn_ref_block_backward (dY, T, B);
%!   Bf = single_block (B);
%!   [Yf, Tf] = mex_block (kind, single (Xq), single (Xkv), Bf, key_allow);
%!   assert (class (Yf), "single");
%!   for f = {"Q", "K", "V", "scores", "A", "message", "delta", "out"}
%!     assert (class (Tf.(f{1})), "single");
%!   endfor
%!   assert (rel (Yf, Y) < tol && max (abs (Tf.A(:) - T.A(:))) < tol, sprintf ("case %d", c));
%!   Gf = attn_backward (single (dY), Tf, Bf);
%!   for f = fieldnames (Gf)'
%!     assert (class (Gf.(f{1})), "single");
%!     assert (rel (Gf.(f{1}), G.(f{1})) < tol, sprintf ("case %d, %s", c, f{1}));
%!   endfor
%! endfor

%!test
%! ## the block options in single: biases, grouped K/V heads, rotary
%! ## positions, and the K/V cache of a decoding step
%! randn ("state", 6);
%! tol = 64 * eps ("single");
%! B = struct ("W_Q", randn (6, 8), "W_K", randn (6, 4), "W_V", randn (6, 2),
%!             "W_O", randn (4, 6), "heads", 4, "kv_heads", 2, "b_Q", randn (1, 8),
%!             "b_K", randn (1, 4), "b_V", randn (1, 2), "b_O", randn (1, 6), "rope_base", 100);
%! X = randn (5, 6, 2);
%! [Y, T] = attn_masked (X, B);
%! Bf = single_block (B);
%! [Yf, Tf] = attn_masked (single (X), Bf);
%! assert (rel (Yf, Y) < tol);
%! dY = randn (size (Y));
%! G = attn_backward (dY, T, B);
%! Gf = attn_backward (single (dY), Tf, Bf);
%! for f = fieldnames (G)'
%!   assert (rel (Gf.(f{1}), G.(f{1})) < tol, f{1});
%! endfor
%! ## rows 4 and 5 after a cache of rows 1 to 3: the whole pass's rows
%! [~, C] = attn_masked (single (X(1:3,:,:)), Bf, [], "lean");
%! Yc = attn_masked (single (X(4:5,:,:)), Bf, [], "lean", C);
%! assert (class (Yc), "single");
%! assert (rel (Yc, Y(4:5,:,:)) < tol);

%!test
%! ## rows times a matrix and LayerNorm, forward and backward, in single
%! ## against the same formulas in double
%! randn ("state", 7);
%! tol = 64 * eps ("single");
%! X = randn (4, 5, 3);  W = randn (5, 6);  b = randn (1, 6);
%! Y = attn_rows (single (X), single (W), single (b));
%! assert (class (Y), "single");
%! want = reshape (reshape (permute (X, [1 3 2]), 12, 5) * W + b, 4, 3, 6);
%! assert (rel (Y, permute (want, [1 3 2])) < tol);
%! dY = randn (4, 6, 3);
%! [dX, dW, db] = attn_rows_backward (single (dY), single (X), single (W));
%! [dXd, dWd, dbd] = attn_rows_backward (dY, X, W);
%! assert (max ([rel(dX, dXd), rel(dW, dWd), rel(db, dbd)]) < tol);
%! gain = randn (1, 5);  bias = randn (1, 5);
%! [Yn, mu, sigma, xhat] = attn_layernorm (single (X), single (gain), single (bias), 1e-5);
%! mu_d = mean (X, 2);  sigma_d = sqrt (mean ((X - mu_d).^2, 2) + 1e-5);
%! assert (class (xhat), "single");
%! assert (max ([rel(Yn, (X - mu_d) ./ sigma_d .* gain + bias), rel(sigma, sigma_d)]) < tol);
%! dYn = randn (size (X));
%! [dX1, dg, dbias] = attn_layernorm_backward (single (dYn), xhat, sigma, single (gain));
%! [~, ~, sd, xd] = attn_layernorm (X, gain, bias, 1e-5);
%! [dX2, dg2, db2] = attn_layernorm_backward (dYn, xd, sd, gain);
%! assert (max ([rel(dX1, dX2), rel(dg, dg2), rel(dbias, db2)]) < tol);

%!test
%! ## a call's arrays are all double or all single: the others are
%! ## attention:type errors that name the array and the class expected
%! B = struct ("W_Q", rand (3, 2), "W_K", rand (3, 2), "W_V", rand (3, 2),
%!             "W_O", rand (2, 3), "heads", 1);
%! X = rand (4, 3);
%! calls = {@() attn_self (single (X), B), "B.W_Q must be a real full single array";
%!          @() attn_masked (X, single_block (B)), "B.W_Q must be a real full double array";
%!          @() attn_cross (X, single (X), B), "E must be a real full double array";
%!          @() attn_sdpa (X, single (X), X), "K must be a real full double array";
%!          @() attn_sdpa_backward (single (X), X, X, X, rand (4)), "Q must be a real full single array";
%!          @() attn_rows (single (X), rand (3, 2)), "W must be a real full single array";
%!          @() attn_layernorm (X, single (ones (1, 3)), zeros (1, 3), 1e-5), "gain must be a real full double array";
%!          @() attn_layernorm_backward (single (X), X, ones (4, 1), ones (1, 3)), "xhat must be a real full single array";
%!          @() attn_rows_backward (X, single (X), rand (3, 3)), "X must be a real full double array";
%!          @() attn_sdpa (int8 (X), X, X), "Q must be a real full double or single array"};
%! for i = 1:rows (calls)
%!   try
%!     calls{i,1} ();
%!     error ("test:passed", "call %d passed", i);
%!   catch err
%!     assert (err.identifier, "attention:type");
%!     assert (! isempty (strfind (err.message, calls{i,2})), err.message);
%!   end_try_catch
%! endfor
%! ## the backward pass of a single trace with a double dY or block
%! [~, T] = attn_self (single (X), single_block (B));
%! fail ("attn_backward (ones (4, 3), T, single_block (B))", "T.X must be a real full double array");
%! fail ("attn_backward (ones (4, 3, 'single'), T, B)", "B.W_Q must be a real full single array");

%!test
%! ## one optimiser step on single arrays: the formula of attn_sgd and
%! ## attn_adam written in Octave on single arrays, bit for bit (the
%! ## hyperparameters rounded to single as Octave rounds its double scalars)
%! randn ("state", 8);
%! w = single (randn (5, 3));  g = single (randn (5, 3));
%! mo = single (randn (15, 1));  ve = single (rand (15, 1));
%! s = attn_step (struct ("W", w), struct ("W", g), 0.01);
%! assert (class (s.W), "single");
%! assert (isequal (s.W, w + (-0.01 * g)));
%! [b1, b2, ep, t] = deal (0.9, 0.999, 1e-8, 3);
%! [s, mo2, ve2] = attn_step (struct ("W", w), struct ("W", g), 0.01, mo, ve, b1, b2, ep, t);
%! m_want = b1 * mo + (1 - b1) * g(:);
%! v_want = b2 * ve + (1 - b2) * g(:).^2;
%! w_want = w(:) + (-0.01 * m_want / (1 - b1^t)) ./ (sqrt (v_want / (1 - b2^t)) + ep);
%! assert (class (mo2), "single");
%! assert (isequal (mo2, m_want) && isequal (ve2, v_want));
%! assert (double (s.W(:)), double (w_want), 2 * eps ("single"));
%! ## moments of the other class
%! fail ("attn_step (struct ('W', w), struct ('W', g), 0.01, double (mo), double (ve), b1, b2, ep, t)",
%!       "mom must be \\[\\] or a real column of 15 entries \\(one per gradient entry; single");
%! fail ("attn_step (struct ('W', double (w)), struct ('W', g), 0.01)", "G.W must be the gradient of an array M.W of its size and class \\(real single\\)");

%!test
%! ## the loss and every gradient of a single model, every family and the
%! ## architecture options of real checkpoints, against the same model in
%! ## double: relative to the whole gradient's norm within 1e-5
%! cases = {{"encoder-decoder", "norm", "post"}, ...
%!          {"encoder-token", "attn_bias", true, "embed_norm", true, "activation", "gelu"}, ...
%!          {"encoder-sentence", "readout", "cls", "head", "mlp", "d_hidden", 5, "norm", "pre"}, ...
%!          {"decoder-only", "norm", "pre", "attn_bias", true, "activation", "gelu_tanh", ...
%!           "tie_embeddings", true, "head_bias", false}, ...
%!          {"decoder-only", "norm", "pre", "norm_kind", "rmsnorm", "positions", "rope", ...
%!           "kv_heads", 1, "activation", "silu", "ffn_gated", true, "ffn_bias", false}, ...
%!          {"pooled-add", "norm", "post"}, {"pooled-concat", "norm", "pre"}, ...
%!          {"pooled-prefix", "norm", "none"}};
%! for k = 1:numel (cases)
%!   [m, b] = tiny (cases{k}{:});
%!   ms = attn_cast (m, "single");
%!   md = attn_cast (ms, "double");           # the very numbers of ms
%!   [ld, Gd] = attn_loss (md, b);
%!   [ls, Gs] = attn_loss (ms, b);
%!   assert (class (ls), "single");
%!   gs = flat (Gs);
%!   gd = flat (Gd);
%!   assert (numel (gs), numel (gd));
%!   assert (abs (ls - ld) / ld < 1e-5, cases{k}{1});
%!   assert (norm (gs - gd) / norm (gd) < 1e-5, cases{k}{1});
%!   ## the optimisers' states are single too
%!   [m2, st] = attn_adam (ms, Gs, []);
%!   assert (class (st.m), "single");
%!   assert (class (attn_loss (m2, b)), "single");   # check_model refuses a mixed model
%! endfor

%!test
%! ## training: 40 Adam steps of a single model follow those of the same
%! ## model in double; the trained models decode the same tokens (greedy,
%! ## beam, sampled with one seed)
%! src = {"the black cat", "the white dog", "a black dog", "a white cat"};
%! tgt = {"le chat noir", "le chien blanc", "un chien noir", "un chat blanc"};
%! m = attn_model (struct ("src_vocab", {src}, "tgt_vocab", {tgt}, "d", 16, "heads", 2,
%!                         "d_ff", 32, "norm", "pre", "encoder_layers", 1,
%!                         "decoder_layers", 1, "seed", 4));
%! ms = attn_cast (m, "single");
%! md = attn_cast (ms, "double");
%! opts = {"epochs", 40, "batch_size", 4, "lr", 0.02, "shuffle", false, "verbose", false};
%! [md, hd] = attn_train (md, [src(:), tgt(:)], opts{:});
%! [ms, hs] = attn_train (ms, [src(:), tgt(:)], opts{:});
%! assert (class (ms.decoder(1).cross.W_Q), "single");
%! assert (class (hs.loss), "double");
%! assert (hd.loss(end) < 0.1 * hd.loss(1));            # it learned
%! assert (max (abs (hs.loss - hd.loss) ./ hd.loss) < 1e-3);
%! assert (attn_greedy (ms, src), attn_greedy (md, src));
%! assert (attn_greedy (ms, src), tgt);
%! assert (attn_beam (ms, src, 3), attn_beam (md, src, 3));
%! sample = @(m) cellfun (@(x) attn_sample (m, x, "seed", 2, "temperature", 2), src,
%!                        "UniformOutput", false);
%! assert (sample (ms), sample (md));
%! [~, info_s] = attn_greedy (ms, src{1});
%! [~, info_d] = attn_greedy (md, src{1});
%! assert (class (info_s.probs), "single");
%! assert (double (info_s.probs), info_d.probs, 1e-4);

%!test
%! ## a decoder-only model in single continues a prompt as in double
%! text = {"one two three four five six", "two three four five six one"};
%! m = attn_family (struct ("family", "decoder-only", "encoder_layers", 0,
%!                          "src_vocab", "one two three four five six",
%!                          "tgt_vocab", "one two three four five six", "d", 16,
%!                          "heads", 2, "decoder_layers", 2, "norm", "pre", "seed", 2));
%! m = attn_train (m, {"one two", "three four five six"; "two three", "four five six one"},
%!                 "epochs", 60, "lr", 0.02, "verbose", false);
%! ms = attn_cast (m, "single");
%! md = attn_cast (ms, "double");
%! [a, ia] = attn_continue (ms, "one two", "max_len", 4);
%! [b, ib] = attn_continue (md, "one two", "max_len", 4);
%! assert (a, b);
%! assert (a, "three four five six");
%! assert (class (ia.probs), "single");

%!test
%! ## attn_save writes a single model's arrays as F32 (half the bytes of
%! ## F64; the blocks' heads stay F64) and attn_load reads it back as it was
%! m = attn_toy ("river");
%! s = attn_cast (m, "single");
%! f = [tempname() ".safetensors"];
%! g = [tempname() ".safetensors"];
%! unwind_protect
%!   attn_save (s, f);
%!   attn_save (m, g);
%!   l = attn_load (f);
%!   fid = fopen (f);
%!   n = fread (fid, 1, "uint64", 0, "ieee-le");
%!   header = fread (fid, n, "uint8=>char")';
%!   fclose (fid);
%!   bytes = [stat(f).size - n, stat(g).size];
%! unwind_protect_cleanup
%!   delete (f);
%!   delete (g);
%! end_unwind_protect
%! assert (class (l.src_embed), "single");
%! assert (class (l.decoder(1).self.heads), "double");
%! assert (isequal (l, s));
%! assert (! isempty (strfind (header, '"W_vocab":{"dtype":"F32"')));
%! assert (! isempty (strfind (header, '"encoder.1.self.heads":{"dtype":"F64"')));
%! assert (attn_greedy (l, "the river bank"), "la rive");

%!test
%! ## a model of mixed classes, and a gradient of the other class, are
%! ## refused
%! m = attn_toy ("river");
%! s = attn_cast (m, "single");
%! half = s;
%! half.W_vocab = m.W_vocab;
%! fail ("attn_forward (half, 'the river bank')", "M.W_vocab must be a real 3×5 single array");
%! [~, G] = attn_loss (m, "the river bank", "la rive");
%! fail ("attn_adam (s, G, [])", "G.src_embed must be a real 5×3 single array");
%! fail ("attn_cast (m, 'half')", "CLASS must be \"single\" or \"double\"");
