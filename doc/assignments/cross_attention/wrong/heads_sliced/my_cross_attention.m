## -*- texinfo -*-
## @deftypefn  {} {[@var{Y}, @var{T}] =} my_cross_attention (@var{D}, @var{E}, @var{B})
## @deftypefnx {} {[@var{Y}, @var{T}] =} my_cross_attention (@var{D}, @var{E}, @var{B}, @var{key_allow})
## A wrong solution, for testing the grader: head j takes every h-th column instead of its own block.
##
## Queries from the decoder rows @var{D} (n×d), keys and values from the
## encoded source @var{E} (m×d_src); @var{B} has @code{W_Q} (d×h·dk),
## @code{W_K} (d_src×h·dk), @code{W_V} (d_src×h·dv), @code{W_O} (h·dv×d),
## @code{heads}; @var{key_allow} (m×1 logical, true = real source token).
## @end deftypefn

function [Y, T] = my_cross_attention (D, E, B, key_allow)
  h = B.heads;
  dk = columns (B.W_Q) / h;
  dv = columns (B.W_V) / h;
  [n, m] = deal (rows (D), rows (E));
  if (nargin < 4)
    key_allow = true (m, 1);
  endif
  Q = D * B.W_Q;                         # n×h·dk
  K = E * B.W_K;                         # m×h·dk
  V = E * B.W_V;                         # m×h·dv
  scores = zeros (n, m, h);
  A = zeros (n, m, h);
  message = zeros (n, h * dv);
  for j = 1:h
    qk = j:h:h * dk;                     # wrong: interleaved columns
    vv = j:h:h * dv;
    S = Q(:,qk) * K(:,qk)' / sqrt (dk);  # n×m
    S(:, ! key_allow) = -Inf;
    top = max (S, [], 2);
    top(isinf (top)) = 0;                # a row with no allowed key
    W = exp (S - top);
    total = sum (W, 2);
    total(total == 0) = 1;               # ... keeps weights 0, not NaN
    scores(:,:,j) = S;
    A(:,:,j) = W ./ total;
    message(:,vv) = A(:,:,j) * V(:,vv);
  endfor
  delta = message * B.W_O;               # n×d
  Y = D + delta;
  T = struct ("Q", Q, "K", K, "V", V, "scores", scores, "A", A,
              "message", message, "delta", delta, "out", Y);
endfunction
