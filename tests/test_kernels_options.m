## The block options of attn_self, attn_masked, attn_cross and attn_backward:
## biases b_Q, b_K, b_V, b_O, grouped-query attention (kv_heads) and rotary
## positions (rope_base).  Each option alone and all together, in the three
## blocks, with batches and key masks: the kernels against the plain-Octave
## reference (attn_ref_block, attn_ref_block_backward), both against finite
## differences, cached decoding against the whole pass, the lean trace, and
## the errors of bad options.

## A random block of width d (d_src the key/value width) with h heads of
## widths dk, dv; opt names the options: "bias", "gqa" (kv_heads = h/2),
## "rope" (rope_base = 100).
%!function B = opt_block (d, d_src, h, dk, dv, opt)
%!  h_kv = h;
%!  if (any (strcmp (opt, "gqa")))
%!    h_kv = h / 2;
%!  endif
%!  B.W_Q = randn (d, h * dk) / sqrt (d);
%!  B.W_K = randn (d_src, h_kv * dk) / sqrt (d_src);
%!  B.W_V = randn (d_src, h_kv * dv) / sqrt (d_src);
%!  B.W_O = randn (h * dv, d) / sqrt (h * dv);
%!  B.heads = h;
%!  if (any (strcmp (opt, "gqa")))
%!    B.kv_heads = h_kv;
%!  endif
%!  if (any (strcmp (opt, "bias")))
%!    B.b_Q = randn (1, h * dk);
%!    B.b_K = randn (1, h_kv * dk);
%!    B.b_V = randn (1, h_kv * dv);
%!    B.b_O = randn (1, d);
%!  endif
%!  if (any (strcmp (opt, "rope")))
%!    B.rope_base = 100;
%!  endif
%!endfunction

## The block of kind on the kernel, as attn_ref_block's arguments.
%!function [Y, T] = kernel (kind, Xq, Xkv, B, key_allow)
%!  switch (kind)
%!    case "self"
%!      [Y, T] = attn_self (Xq, B, key_allow);
%!    case "masked"
%!      [Y, T] = attn_masked (Xq, B, key_allow);
%!    otherwise
%!      [Y, T] = attn_cross (Xq, Xkv, B, key_allow);
%!  endswitch
%!endfunction

## Inputs of a case: n query rows, m key rows (cross), a batch of 3 with
## padding in item 1 and the first key of every item real.
%!function [Xq, Xkv, key_allow, dY] = opt_inputs (kind, n, m, d, d_src)
%!  Bt = 3;
%!  Xq = randn (n, d, Bt);
%!  Xkv = [];
%!  if (strcmp (kind, "cross"))
%!    Xkv = randn (m, d_src, Bt);
%!  else
%!    m = n;
%!  endif
%!  key_allow = rand (m, Bt) > 0.3;
%!  key_allow(1,:) = true;
%!  key_allow(end,1) = false;
%!  dY = randn (n, d, Bt);
%!endfunction

## L = sum (dY .* Y) and its gradient by attn_backward, for attn_gradcheck:
## P is the block with the inputs as fields X (or D, E).
%!function [L, G] = kernel_loss (kind, P, key_allow, dY)
%!  if (strcmp (kind, "cross"))
%!    [Y, T] = attn_cross (P.D, P.E, P, key_allow);
%!  else
%!    [Y, T] = kernel (kind, P.X, [], P, key_allow);
%!  endif
%!  L = sum (dY(:) .* Y(:));
%!  G = attn_backward (dY, T, P);
%!endfunction

%!function [L, G] = ref_loss (kind, P, key_allow, dY)
%!  if (strcmp (kind, "cross"))
%!    [Y, T] = attn_ref_block (kind, P.D, P.E, P, key_allow);
%!  else
%!    [Y, T] = attn_ref_block (kind, P.X, [], P, key_allow);
%!  endif
%!  L = sum (dY(:) .* Y(:));
%!  G = attn_ref_block_backward (dY, T, P);
%!endfunction

%!function P = with_inputs (kind, B, Xq, Xkv)
%!  P = B;
%!  if (strcmp (kind, "cross"))
%!    P.D = Xq;
%!    P.E = Xkv;
%!  else
%!    P.X = Xq;
%!  endif
%!endfunction

## The cases of tests/fixtures/blocks/block_options.txt (made by python3-torch
## with gen_block_options.py): a line "case NAME KIND heads H kv_heads H_KV
## rope_base BASE|none", then for each array a line "NAME DIMS..." and a
## line of its values in column-major order; "G.NAME" lines are gradients.
%!function cases = read_fixture ()
%!  file = fullfile ("fixtures", "blocks", "block_options.txt");
%!  if (! isfile (file))
%!    file = fullfile ("tests", file);
%!  endif
%!  lines = strsplit (strtrim (fileread (file)), "\n");
%!  cases = {};
%!  k = 2;
%!  while (k <= numel (lines))
%!    words = strsplit (strtrim (lines{k}));
%!    if (strcmp (words{1}, "case"))
%!      cases{end+1} = struct ("name", words{2}, "kind", words{3},
%!                             "heads", str2double (words{5}),
%!                             "kv_heads", str2double (words{7}),
%!                             "rope_base", str2double (words{9}));
%!      k += 1;
%!      continue;
%!    endif
%!    dims = str2double (words(2:end));
%!    values = str2double (strsplit (strtrim (lines{k+1})));
%!    assert (numel (values), prod (dims));
%!    name = strsplit (words{1}, ".");
%!    cases{end} = setfield (cases{end}, name{:}, reshape (values, [dims 1]));
%!    k += 2;
%!  endwhile
%!endfunction

%!test
%! ## kernels = reference, forward trace and gradients, for each option alone
%! ## and together, in the three blocks, a batch with key masks, 4 heads
%! randn ("state", 11);  rand ("state", 11);
%! opts = {{}, {"bias"}, {"gqa"}, {"rope"}, {"bias", "gqa"}, {"gqa", "rope"}, ...
%!         {"bias", "rope"}, {"bias", "gqa", "rope"}};
%! fields = {"Q", "K", "V", "scores", "A", "message", "delta", "out"};
%! for kind = {"self", "masked", "cross"}
%!   for o = 1:numel (opts)
%!     if (strcmp (kind{1}, "cross") && any (strcmp (opts{o}, "rope")))
%!       continue;
%!     endif
%!     d_src = 6 - strcmp (kind{1}, "cross");
%!     B = opt_block (6, d_src, 4, 2, 3, opts{o});
%!     [Xq, Xkv, ka, dY] = opt_inputs (kind{1}, 5, 7, 6, d_src);
%!     [Y, T] = kernel (kind{1}, Xq, Xkv, B, ka);
%!     [Yr, Tr] = attn_ref_block (kind{1}, Xq, Xkv, B, ka);
%!     ref_assert_close (Y, Yr, 1e-12);
%!     ref_assert_close (T, Tr, 1e-12, fields);
%!     G = attn_backward (dY, T, B);
%!     Gr = attn_ref_block_backward (dY, Tr, B);
%!     assert (sort (fieldnames (G)), sort (fieldnames (Gr)));
%!     ref_assert_close (G, Gr, 1e-12);
%!   endfor
%! endfor

%!test
%! ## gradients of every weight, bias and input against central finite
%! ## differences, reference and kernel, with all the options of each block
%! randn ("state", 12);  rand ("state", 12);
%! for kind = {"self", "masked", "cross"}
%!   cross = strcmp (kind{1}, "cross");
%!   opt = {"bias", "gqa", "rope"}(1:3 - cross);
%!   d_src = 4 - cross;
%!   B = opt_block (4, d_src, 4, 2, 3, opt);
%!   [Xq, Xkv, ka, dY] = opt_inputs (kind{1}, 4, 5, 4, d_src);
%!   P = with_inputs (kind{1}, B, Xq, Xkv);
%!   assert (attn_gradcheck (@(P) ref_loss (kind{1}, P, ka, dY), P));
%!   assert (attn_gradcheck (@(P) kernel_loss (kind{1}, P, ka, dY), P));
%! endfor

%!test
%! ## cached decoding with every option: attn_masked row by row (and in two
%! ## chunks) equals the whole pass, and the grown cache holds the whole
%! ## pass's (turned) keys and values; attn_self's rows after a cache equal
%! ## those rows of the whole pass
%! randn ("state", 13);  rand ("state", 13);
%! for opt = {{"bias", "gqa", "rope"}, {"rope"}, {"gqa"}}
%!   B = opt_block (6, 6, 4, 4, 3, opt{1});
%!   [X, ~, ka] = opt_inputs ("masked", 6, 6, 6, 6);
%!   [Y, T] = attn_masked (X, B, ka);
%!   cache = [];
%!   for i = 1:6
%!     [Yi, cache] = attn_masked (X(i,:,:), B, ka(1:i,:), "lean", cache);
%!     ref_assert_close (Yi, Y(i,:,:), 1e-12);
%!   endfor
%!   ref_assert_close (cache, T, 1e-12, {"K", "V"});
%!   [~, C] = attn_masked (X(1:2,:,:), B, ka(1:2,:));
%!   [Y2, C] = attn_masked (X(3:6,:,:), B, ka, "full", C);
%!   ref_assert_close (Y2, Y(3:6,:,:), 1e-12);
%!   ref_assert_close (C, T, 1e-12, {"K", "V"});
%!   [Ys, Ts] = attn_self (X, B, ka);
%!   [~, C] = attn_self (X(1:4,:,:), B, ka(1:4,:), "lean");
%!   [Y2, C] = attn_self (X(5:6,:,:), B, ka, "lean", C);
%!   ref_assert_close (Y2, Ys(5:6,:,:), 1e-12);
%!   ref_assert_close (C, Ts, 1e-12, {"K", "V"});
%! endfor

%!test
%! ## attn_cross with biases and kv_heads: each decoder row on its own, with
%! ## the source's keys and values of an earlier call, equals the whole pass
%! randn ("state", 14);  rand ("state", 14);
%! B = opt_block (6, 5, 4, 2, 3, {"bias", "gqa"});
%! [D, E, ka] = opt_inputs ("cross", 4, 7, 6, 5);
%! [Y, T] = attn_cross (D, E, B, ka);
%! for i = 1:4
%!   [Yi, Ti] = attn_cross (D(i,:,:), E(1:0,:,:), B, ka, "lean", T);
%!   ref_assert_close (Yi, Y(i,:,:), 1e-12);
%!   assert (isequal (Ti.K, T.K) && isequal (Ti.V, T.V));   # the cache as it was
%! endfor

%!test
%! ## NaN or Inf in a K/V cache is named, with key rows after it or none
%! randn ("state", 16);  rand ("state", 16);
%! B = opt_block (6, 6, 4, 2, 3, {"bias", "gqa"});
%! [X, ~, ka] = opt_inputs ("masked", 4, 4, 6, 6);
%! [~, C] = attn_masked (X(1:3,:,:), B, ka(1:3,:), "lean");
%! Bc = opt_block (6, 5, 4, 2, 3, {"bias", "gqa"});
%! [D, E, kc] = opt_inputs ("cross", 2, 7, 6, 5);
%! [~, Tc] = attn_cross (D, E, Bc, kc, "lean");
%! for f = {"K", "V"}
%!   for bad = [NaN, Inf]
%!     Cb = C;  Cb.(f{1})(2,1,1) = bad;
%!     Tb = Tc;  Tb.(f{1})(7,2,2) = bad;
%!     for call = {@() attn_masked (X(4,:,:), B, ka, "lean", Cb),
%!                 @() attn_self (zeros (1, 6, 2), B, ka, "lean", Cb),
%!                 @() attn_cross (D(1,:,:), E(1:0,:,:), Bc, kc, "lean", Tb)}
%!       try
%!         call{1} ();
%!         error ("no error");
%!       catch err
%!         assert (err.identifier, "attention:nonfinite");
%!         assert (! isempty (strfind (err.message, ["cache." f{1}])), err.message);
%!       end_try_catch
%!     endfor
%!   endfor
%! endfor

%!test
%! ## the lean trace with every option: the same Y, fields and gradients
%! randn ("state", 15);  rand ("state", 15);
%! B = opt_block (6, 6, 4, 2, 3, {"bias", "gqa", "rope"});
%! [X, ~, ka, dY] = opt_inputs ("masked", 5, 5, 6, 6);
%! for f = {@attn_self, @attn_masked}
%!   [Y, T] = f{1} (X, B, ka);
%!   [Yl, L] = f{1} (X, B, ka, "lean");
%!   assert (isequal (Yl, Y));
%!   for k = {"Q", "K", "V", "A", "message"}
%!     assert (isequal (L.(k{1}), T.(k{1})), k{1});
%!   endfor
%!   assert (isequal (attn_backward (dY, L, B), attn_backward (dY, T, B)));
%! endfor

%!test
%! ## an option given as [] is off: the results of the block without it,
%! ## bit for bit; kv_heads = heads is plain multi-head attention
%! randn ("state", 16);  rand ("state", 16);
%! B = opt_block (6, 6, 2, 2, 3, {});
%! off = B;
%! for f = {"b_Q", "b_K", "b_V", "b_O", "kv_heads", "rope_base"}
%!   off.(f{1}) = [];
%! endfor
%! [X, ~, ka, dY] = opt_inputs ("masked", 5, 5, 6, 6);
%! [Y, T] = attn_masked (X, B, ka);
%! [Yo, To] = attn_masked (X, off, ka);
%! assert (isequal (Yo, Y) && isequal (To, T));
%! assert (isequal (attn_backward (dY, To, off), attn_backward (dY, T, B)));
%! assert (isequal (attn_masked (X, setfield (B, "kv_heads", 2), ka), Y));
%! ## zero biases change nothing beyond rounding, and their gradients are
%! ## the sums of the rows of dY (b_O) and of the projections' gradients
%! Bz = B;
%! Bz.b_O = zeros (1, 6);
%! Gz = attn_backward (dY, nthargout (2, @attn_masked, X, Bz, ka), Bz);
%! assert (Gz.b_O, sum (reshape (permute (dY, [1 3 2]), [], 6)), 1e-13);
%! assert (! isfield (Gz, "b_Q"));

%!test
%! ## rotary positions turn Q and K only: V, and scores with every query
%! ## and key at the same place, are those of the block without them; a
%! ## one-row sequence (position 0) is not turned at all
%! randn ("state", 17);
%! B = opt_block (4, 4, 2, 2, 2, {"rope"});
%! X = randn (1, 4);
%! [~, T] = attn_self (X, B);
%! [~, T0] = attn_self (X, rmfield (B, "rope_base"));
%! assert (T.Q, T0.Q, 1e-15);
%! assert (T.K, T0.K, 1e-15);
%! X = repmat (randn (1, 4), 3, 1);
%! [~, T] = attn_self (X, B);
%! [~, T0] = attn_self (X, rmfield (B, "rope_base"));
%! assert (T.V, T0.V);
%! ## scores depend only on the distance of query and key: equal along
%! ## each diagonal when every row is the same token
%! for j = 1:2
%!   S = T.scores(:,:,j);
%!   assert (S(2,1), S(3,2), 1e-14);
%!   assert (S(1,2), S(2,3), 1e-14);
%!   assert (diag (S), repmat (T0.scores(1,1,j), 3, 1), 1e-14);
%! endfor

## Errors: wrong shapes and values of the options, each with its identifier
%!shared B, Bg, X, Bc, D, E
%! B = struct ("W_Q", rand (3, 4), "W_K", rand (3, 4), "W_V", rand (3, 6),
%!             "W_O", rand (6, 3), "heads", 2);
%! Bg = setfield (setfield (setfield (B, "kv_heads", 1), "W_K", rand (3, 2)),
%!                "W_V", rand (3, 3));
%! X = rand (4, 3);
%! Bc = setfield (setfield (B, "W_K", rand (5, 4)), "W_V", rand (5, 6));
%! D = rand (2, 3);  E = rand (6, 5);
%!error <B.b_Q must be 1 x h\*dk> attn_self (X, setfield (B, "b_Q", rand (1, 3)))
%!error id=attention:size attn_self (X, setfield (B, "b_Q", rand (4, 1)))
%!error id=attention:size attn_masked (X, setfield (B, "b_K", rand (1, 2)))
%!error id=attention:size attn_masked (X, setfield (Bg, "b_K", rand (1, 4)))
%!error id=attention:size attn_cross (D, E, setfield (Bc, "b_V", rand (1, 5)))
%!error <B.b_O must be 1 x d> attn_cross (D, E, setfield (Bc, "b_O", rand (1, 6)))
%!error id=attention:nonfinite attn_self (X, setfield (B, "b_O", [1 NaN 1]))
%!error id=attention:type attn_self (X, setfield (B, "b_Q", single ([1 2 3 4])))
%!error <B.kv_heads must be a positive integer scalar> attn_self (X, setfield (Bg, "kv_heads", [1 1]))
%!error id=attention:heads attn_self (X, setfield (Bg, "kv_heads", 0.5))
%!error <B.kv_heads = 3 must divide B.heads = 2> attn_self (X, setfield (B, "kv_heads", 3))
%!error id=attention:size attn_self (X, setfield (B, "kv_heads", 1))
%!error id=attention:size attn_self (X, setfield (Bg, "W_K", rand (3, 4)))
%!error <B.rope_base must be a finite double scalar> attn_masked (X, setfield (B, "rope_base", -1))
%!error id=attention:rope attn_masked (X, setfield (B, "rope_base", [1 2]))
%!error id=attention:rope attn_masked (X, setfield (B, "rope_base", Inf))
%!error id=attention:rope attn_masked (X, setfield (B, "rope_base", "10000"))
%!error <dk \(the columns of B.W_Q per head\) must be even; got dk = 1> attn_self (X, setfield (setfield (setfield (B, "W_Q", rand (3, 2)), "W_K", rand (3, 2)), "rope_base", 100))
%!error <for self and masked blocks> attn_cross (D, E, setfield (Bc, "rope_base", 100))
%!test
%! ## a cache of h*dk columns where kv_heads makes the keys h_kv*dk wide
%! [~, T] = attn_masked (X, B);
%! try
%!   attn_masked (X, Bg, [], "lean", T);
%!   error ("no error");
%! catch err
%!   assert (err.identifier, "attention:size");
%!   assert (! isempty (strfind (err.message, "h_kv*dk")));
%! end_try_catch
%!test
%! ## attn_backward: rope_base on a cross trace, a trace of other kv_heads
%! ## or other biases
%! [~, Tc] = attn_cross (D, E, Bc);
%! try
%!   attn_backward (rand (2, 3), Tc, setfield (Bc, "rope_base", 100));
%!   error ("no error");
%! catch err
%!   assert (err.identifier, "attention:rope");
%! end_try_catch
%! [~, T] = attn_self (X, B);
%! try
%!   attn_backward (rand (4, 3), T, Bg);
%!   error ("no error");
%! catch err
%!   assert (err.identifier, "attention:size");
%! end_try_catch
%! try
%!   attn_backward (rand (4, 3), T, setfield (B, "b_Q", ones (1, 4)));
%!   error ("no error");
%! catch err
%!   assert (err.identifier, "attention:trace");
%!   assert (! isempty (strfind (err.message, "+ bias")));
%! end_try_catch

%!test
%! ## python3-torch (Hugging Face's rotate_half and repeat_kv, autograd):
%! ## Y and every gradient of a masked and a self block with all options and
%! ## a cross block with biases and kv_heads, batch of 2 with key masks;
%! ## the kernels and the reference agree with it
%! for c = read_fixture ()
%!   f = c{1};
%!   B = struct ("W_Q", f.W_Q, "W_K", f.W_K, "W_V", f.W_V, "W_O", f.W_O,
%!               "heads", f.heads, "kv_heads", f.kv_heads, "b_Q", f.b_Q,
%!               "b_K", f.b_K, "b_V", f.b_V, "b_O", f.b_O);
%!   if (! isnan (f.rope_base))
%!     B.rope_base = f.rope_base;
%!   endif
%!   ka = logical (f.key_allow);
%!   if (strcmp (f.kind, "cross"))
%!     [Xq, Xkv] = deal (f.D, f.E);
%!   else
%!     [Xq, Xkv] = deal (f.X, []);
%!   endif
%!   [Y, T] = kernel (f.kind, Xq, Xkv, B, ka);
%!   [Yr, Tr] = attn_ref_block (f.kind, Xq, Xkv, B, ka);
%!   ref_assert_close (Y, f.Y, 1e-12);
%!   ref_assert_close (Yr, f.Y, 1e-12);
%!   ref_assert_close (attn_backward (f.dY, T, B), f.G, 1e-12);
%!   ref_assert_close (attn_ref_block_backward (f.dY, Tr, B), f.G, 1e-12);
%! endfor
