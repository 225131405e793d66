## The lean trace of attn_self, attn_masked and attn_cross (mode "lean"):
## only the fields attn_backward reads and delta (what a pre-norm residual
## adds), each equal (isequal) to the same field of the full trace, the
## same Y and the same gradients, over padding, a batch, several heads and
## a query with no allowed key.

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

%!test
%! ## the long causal case whose scores and weights are large arrays
%! B = struct ("W_Q", randn (32, 32) / 6, "W_K", randn (32, 32) / 6,
%!             "W_V", randn (32, 32) / 6, "W_O", randn (32, 32) / 6, "heads", 4);
%! X = randn (300, 32);
%! [Y, T] = attn_masked (X, B);
%! [Yl, L] = attn_masked (X, B, [], "lean");
%! assert (isequal (Yl, Y) && isequal (L.A, T.A) && isequal (L.message, T.message));

%!error id=attention:option attn_self (1, struct ("W_Q", 1, "W_K", 1, "W_V", 1, "W_O", 1, "heads", 1), [], "Lean")
%!error <got "none"> attn_cross (1, 1, struct ("W_Q", 1, "W_K", 1, "W_V", 1, "W_O", 1, "heads", 1), [], "none")
%!error id=attention:nargin attn_masked (1, struct ("W_Q", 1, "W_K", 1, "W_V", 1, "W_O", 1, "heads", 1), [], "lean", [], 1)
