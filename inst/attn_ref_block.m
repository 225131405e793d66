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
## @code{W_K} (d_src×h·dk), @code{W_V} (d_src×h·dv), @code{W_O} (h·dv×d) and
## @code{heads} (h).  @var{key_allow} is logical m×Bt, true = real token.
##
## @var{Y} = Xq + message*W_O.  @var{T} holds @code{kind}, @code{heads},
## @code{X} (or @code{D}, @code{E}), @code{key_allow}, @code{Q}, @code{K},
## @code{V}, @code{scores} and @code{A} (n×m×h×Bt), @code{message},
## @code{delta} and @code{out}, as the block MEX functions' traces.
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
  [n, ~, Bt] = size (Xq);
  m = rows (Xkv);
  h = B.heads;
  dk = columns (B.W_Q) / h;
  dv = columns (B.W_V) / h;

  ## Projections, n×h·dk×Bt etc.: every batch item's rows times the weights.
  Q = unstack_rows (stack_rows (Xq) * B.W_Q, n);
  K = unstack_rows (stack_rows (Xkv) * B.W_K, m);
  V = unstack_rows (stack_rows (Xkv) * B.W_V, m);

  ## allow n×m×h×Bt: the causal rule and each batch item's key mask.
  allow = true (n, m);
  if (strcmp (kind, "masked"))
    allow = (1:m) <= (1:n)';
  endif
  if (! isempty (key_allow))
    allow = allow & permute (key_allow, [3 1 4 2]);
  endif
  allow = allow & true (n, m, h, Bt);

  ## Head j is columns (j-1)*dk+1 : j*dk, so a reshape splits the heads out.
  [M, A, scores] = attn_ref_sdpa (reshape (Q, n, dk, h, Bt),
                             reshape (K, m, dk, h, Bt),
                             reshape (V, m, dv, h, Bt), allow);
  message = reshape (M, n, h * dv, Bt);
  delta = unstack_rows (stack_rows (message) * B.W_O, n);
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
  T.K = K;
  T.V = V;
  T.scores = scores;
  T.A = A;
  T.message = message;
  T.delta = delta;
  T.out = Y;
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
