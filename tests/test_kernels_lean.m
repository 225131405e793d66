## The lean trace of attn_self, attn_masked and attn_cross (mode "lean"):
## only the fields attn_backward reads and delta (what a pre-norm residual
## adds), each equal (isequal) to the same field of the full trace, the
## same Y and the same gradients, over padding, a batch, several heads and
## a query with no allowed key.  The step trace (mode "step"): the inputs,
## K, V and delta, each equal to the full trace's, the same Y, and a cache
## for the next step that gives what the full trace's does.

%!function check_lean (f, X, B, allow)
%!  [Y, T] = feval (f, X, B, allow);
%!  [Yl, L] = feval (f, X, B, allow, "lean");
%!  [Yf, F] = feval (f, X, B, allow, "full");
%!  assert (isequal (Yl, Y) && isequal (Yf, Y) && isequal (F, T));
%!  want = setdiff (fieldnames (T), {"scores", "out"}, "stable");
%!  assert (fieldnames (L), want);
%!  for k = 1:numel (want)
%!    assert (isequal (L.(want{k}), T.(want{k})), want{k});
%!  endfor
%!  dY = randn (size (Y));
%!  assert (isequal (attn_backward (dY, L, B), attn_backward (dY, T, B)));
%!  assert (isequal (feval (f, X, B, allow), Y));
%!  check_step (f, {X}, B, allow, T, Y);
%!endfunction

%!function check_step (f, rows, B, allow, T, Y)
%!  [Ys, S] = feval (f, rows{:}, B, allow, "step");
%!  assert (isequal (Ys, Y));
%!  want = setdiff (fieldnames (T), {"Q", "scores", "A", "message", "out"}, "stable");
%!  assert (fieldnames (S), want);
%!  for k = 1:numel (want)
%!    assert (isequal (S.(want{k}), T.(want{k})), want{k});
%!  endfor
%!  ## the next step: one more query row (its own key row too, but for
%!  ## cross-attention), reading the step trace's cache or the full one's
%!  next = cellfun (@(x) x(end,:,:), rows, "UniformOutput", false);
%!  if (numel (rows) == 2)
%!    next{2} = rows{2}(1:0,:,:);
%!  endif
%!  ka = allow;
%!  if (! isempty (allow) && numel (rows) == 1)
%!    ka(end+1,:) = true;
%!  endif
%!  [Y1, T1] = feval (f, next{:}, B, ka, "step", S);
%!  [Y2, T2] = feval (f, next{:}, B, ka, "full", T);
%!  assert (isequal (Y1, Y2) && isequal (T1.K, T2.K) && isequal (T1.V, T2.V));
%!endfunction

%!test
%! B = struct ("W_Q", randn (6, 8), "W_K", randn (6, 8), "W_V", randn (6, 4),
%!             "W_O", randn (4, 6), "heads", 2);
%! X = randn (5, 6, 3);
%! allow = true (5, 3);  allow(4:5, 2) = false;  allow(1, 3) = false;
%! for f = {"attn_self", "attn_masked"}
%!   check_lean (f{1}, X, B, allow);
%! endfor

%!test
%! B = struct ("W_Q", randn (6, 8), "W_K", randn (3, 8), "W_V", randn (3, 4),
%!             "W_O", randn (4, 6), "heads", 4);
%! D = randn (2, 6, 4);  E = randn (7, 3, 4);
%! allow = rand (7, 4) > 0.3;  allow(:, 4) = false;
%! [Y, T] = attn_cross (D, E, B, allow);
%! [Yl, L] = attn_cross (D, E, B, allow, "lean");
%! assert (isequal (Yl, Y));
%! assert (fieldnames (L)', {"kind", "heads", "D", "E", "key_allow", "Q", ...
%!                           "K", "V", "A", "message", "delta"});
%! for f = fieldnames (L)'
%!   assert (isequal (L.(f{1}), T.(f{1})), f{1});
%! endfor
%! dY = randn (size (Y));
%! assert (isequal (attn_backward (dY, L, B), attn_backward (dY, T, B)));
%! check_step ("attn_cross", {D, E}, B, allow, T, Y);

%!test
%! ## the long causal case whose scores and weights are large arrays
%! B = struct ("W_Q", randn (32, 32) / 6, "W_K", randn (32, 32) / 6,
%!             "W_V", randn (32, 32) / 6, "W_O", randn (32, 32) / 6, "heads", 4);
%! X = randn (300, 32);
%! [Y, T] = attn_masked (X, B);
%! [Yl, L] = attn_masked (X, B, [], "lean");
%! assert (isequal (Yl, Y) && isequal (L.A, T.A) && isequal (L.message, T.message));
%! [Ys, S] = attn_masked (X, B, [], "step");
%! assert (isequal (Ys, Y) && isequal (S.K, T.K) && isequal (S.V, T.V) && isequal (S.delta, T.delta));

%!error id=attention:option attn_self (1, struct ("W_Q", 1, "W_K", 1, "W_V", 1, "W_O", 1, "heads", 1), [], "Lean")
%!error <"full", "lean" or "step"; got "none"> attn_cross (1, 1, struct ("W_Q", 1, "W_K", 1, "W_V", 1, "W_O", 1, "heads", 1), [], "none")
%!error id=attention:nargin attn_masked (1, struct ("W_Q", 1, "W_K", 1, "W_V", 1, "W_O", 1, "heads", 1), [], "lean", [], 1)
%!error id=attention:field attn_backward (1, nthargout (2, @attn_self, 1, struct ("W_Q", 1, "W_K", 1, "W_V", 1, "W_O", 1, "heads", 1), [], "step"), struct ("W_Q", 1, "W_K", 1, "W_V", 1, "W_O", 1, "heads", 1))
