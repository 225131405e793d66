## -*- texinfo -*-
## @deftypefn  {} {[@var{Y}, @var{T}] =} attn_ref_block (@var{kind}, @var{Xq}, @var{Xkv}, @var{B})
## @deftypefnx {} {[@var{Y}, @var{T}] =} attn_ref_block (@var{kind}, @var{Xq}, @var{Xkv}, @var{B}, @var{key_allow})
## One attention block in plain Octave, with residual.  The readable
## definition that the attention kernels attn_self, attn_masked and
## attn_cross are tested against.
##
## @var{kind} is @qcode{"self"}, @qcode{"masked"} (row i reads keys j <= i)
## or @qcode{"cross"}.  Queries come from @var{Xq} (n×d×Bt), keys and values
## from @var{Xkv} (m×d_src×Bt); for self and masked blocks pass the same X
## twice (or [] for @var{Xkv}).  @var{B} has fields @code{W_Q} (d×h·dk),
## @code{W_K} (d_src×h_kv·dk), @code{W_V} (d_src×h_kv·dv), @code{W_O}
## (h·dv×d) and @code{heads} (h).  @var{key_allow} is logical m×Bt, true =
## real token.
##
## Optional fields of @var{B} (absent or [] = off):
## @table @code
## @item b_Q, b_K, b_V, b_O
## biases, rows as wide as the weights' columns: Q = Xq*W_Q + b_Q, and so on,
## delta = message*W_O + b_O.
## @item kv_heads
## h_kv, dividing h (grouped-query attention): query head j reads K/V head
## ceil (j / (h/h_kv)).  Without it h_kv = h.
## @item rope_base
## rotary positions (self and masked blocks): in each head of Q and K, entry
## i (0-based, i < dk/2) of row p (0-based) pairs with entry i + dk/2 and the
## pair turns by the angle p·rope_base^(-2i/dk).
## @end table
##
## @var{Y} = Xq + delta.  @var{T} holds @code{kind}, @code{heads},
## @code{X} (or @code{D}, @code{E}), @code{key_allow}, @code{Q}, @code{K}
## (turned, with rope_base), @code{V}, @code{scores} and @code{A}
## (n×m×h×Bt), @code{message}, @code{delta} and @code{out}, as the block MEX
## functions' traces.
##
## @example
## @group
## B = struct ("W_Q", eye (3), "W_K", eye (3), "W_V", eye (3),
##             "W_O", eye (3), "heads", 1);
## [Y, T] = attn_ref_block ("masked", magic (3), [], B);
## T.A(1,:)    % the first token reads only itself
##   @result{} 1 0 0
## @end group
## @end example
## @seealso{attn_ref_block_backward, attn_ref_sdpa}
## @end deftypefn

function [Y, T] = attn_ref_block (kind, Xq, Xkv, B, key_allow = [])
  if (isempty (Xkv))
    Xkv = Xq;
  endif
  [n, m, Bt, h, h_kv, dk, dv] = block_sizes (B, Xq, Xkv);

  ## Projections, n×h·dk×Bt, m×h_kv·dk×Bt etc.: every batch item's rows
  ## times the weights, plus the bias if B has one.
  Q = unstack_rows (affine (stack_rows (Xq), B.W_Q, field_or_empty (B, "b_Q")), n);
  K = unstack_rows (affine (stack_rows (Xkv), B.W_K, field_or_empty (B, "b_K")), m);
  V = unstack_rows (affine (stack_rows (Xkv), B.W_V, field_or_empty (B, "b_V")), m);

  ## Rotary positions: row p of Q and of K is turned by its position p.
  base = field_or_empty (B, "rope_base");
  if (! isempty (base))
    Q = rope_rows (Q, base, dk, 1);
    K = rope_rows (K, base, dk, 1);
  endif

  ## allow n×m×h×Bt: the causal rule and each batch item's key mask.
  allow = true (n, m);
  if (strcmp (kind, "masked"))
    allow = (1:m) <= (1:n)';
  endif
  if (! isempty (key_allow))
    allow = allow & permute (key_allow, [3 1 4 2]);
  endif
  allow = allow & true (n, m, h, Bt);

  ## Head j is columns (j-1)*dk+1 : j*dk, so a reshape splits the heads out;
  ## query head j reads K/V head kv(j).
  kv = ceil ((1:h) / (h / h_kv));
  K = reshape (K, m, dk, h_kv, Bt);
  V = reshape (V, m, dv, h_kv, Bt);
  [M, A, scores] = attn_ref_sdpa (reshape (Q, n, dk, h, Bt), K(:,:,kv,:),
                                  V(:,:,kv,:), allow);
  message = reshape (M, n, h * dv, Bt);
  delta = unstack_rows (affine (stack_rows (message), B.W_O,
                                field_or_empty (B, "b_O")), n);
  Y = Xq + delta;

  T.kind = kind;
  T.heads = h;
  if (strcmp (kind, "cross"))
    T.D = Xq;
    T.E = Xkv;
  else
    T.X = Xq;
  endif
  T.key_allow = key_allow;
  T.Q = Q;
  T.K = reshape (K, m, h_kv * dk, Bt);
  T.V = reshape (V, m, h_kv * dv, Bt);
  T.scores = scores;
  T.A = A;
  T.message = message;
  T.delta = delta;
  T.out = Y;
endfunction

## X*W + b (b a row, or [] for none)
function Y = affine (X, W, b)
  Y = X * W;
  if (! isempty (b))
    Y += b;
  endif
endfunction

%!test
%! ## identity weights, one head: masked row 1 reads only itself
%! B = struct ("W_Q", eye (3), "W_K", eye (3), "W_V", eye (3),
%!             "W_O", eye (3), "heads", 1);
%! X = magic (3);
%! [Y, T] = attn_ref_block ("masked", X, [], B);
%! assert (T.A(1,:), [1 0 0]);
%! assert (Y(1,:), 2 * X(1,:));
%! assert (T.scores(1,2:3), [-Inf -Inf]);

%!test
%! ## two heads equal two one-head blocks side by side
%! randn ("state", 3);
%! X = randn (4, 3, 2);  E = randn (5, 2, 2);
%! B = struct ("W_Q", randn (3, 4), "W_K", randn (2, 4), "W_V", randn (2, 6),
%!             "W_O", randn (6, 3), "heads", 2);
%! ka = logical ([1 1 1 0 0; 1 1 1 1 1]');
%! [Y, T] = attn_ref_block ("cross", X, E, B, ka);
%! for j = 1:2
%!   Bj = struct ("W_Q", B.W_Q(:,2*j-1:2*j), "W_K", B.W_K(:,2*j-1:2*j),
%!                "W_V", B.W_V(:,3*j-2:3*j), "W_O", B.W_O(3*j-2:3*j,:),
%!                "heads", 1);
%!   [~, Tj] = attn_ref_block ("cross", X, E, Bj, ka);
%!   assert (squeeze (T.A(:,:,j,:)), squeeze (Tj.A), 1e-14);
%!   assert (T.message(:,3*j-2:3*j,:), Tj.message, 1e-14);
%! endfor
%! assert (T.A(:,4:5,:,1), zeros (4, 2, 2));
%! assert (Y, X + T.delta);

%!test
%! ## the options by hand: one head, dk = 2, identity weights, base 1
%! B = struct ("W_Q", eye (2), "W_K", eye (2), "W_V", eye (2),
%!             "W_O", eye (2), "heads", 1, "b_Q", [1 0], "b_K", [0 0],
%!             "b_V", [0 1], "b_O", [2 3], "rope_base", 1);
%! X = [0 0; 0 0];
%! [Y, T] = attn_ref_block ("masked", X, [], B);
%! assert (T.Q, [1 0; cos(1) sin(1)], 1e-15);   # row 2 turned by 1 radian
%! assert (T.K, zeros (2));
%! assert (T.V, [0 1; 0 1]);
%! assert (Y, [0 1; 0 1] + [2 3]);

%!test
%! ## kv_heads: heads 1, 2 read K/V head 1; heads 3, 4 K/V head 2; the same
%! ## as four heads with the K/V columns repeated
%! randn ("state", 5);
%! B = struct ("W_Q", randn (3, 8), "W_K", randn (3, 4), "W_V", randn (3, 6),
%!             "W_O", randn (12, 3), "heads", 4, "kv_heads", 2);
%! X = randn (5, 3, 2);
%! [Y, T] = attn_ref_block ("self", X, [], B);
%! B4 = B;
%! B4.W_K = B.W_K(:,[1 2 1 2 3 4 3 4]);
%! B4.W_V = B.W_V(:,[1:3 1:3 4:6 4:6]);
%! B4.kv_heads = [];
%! [Y4, T4] = attn_ref_block ("self", X, [], B4);
%! assert (Y, Y4, 1e-14);
%! assert (T.A, T4.A, 1e-14);
%! assert (size (T.K), [5 4 2]);
