## -*- texinfo -*-
## @deftypefn  {} {[@var{Y}, @var{T}] =} my_cross_attention (@var{D}, @var{E}, @var{B})
## @deftypefnx {} {[@var{Y}, @var{T}] =} my_cross_attention (@var{D}, @var{E}, @var{B}, @var{key_allow})
## Your cross-attention block (see handout.md).
##
## @var{D}: n×d decoder rows (queries).  @var{E}: m×d_src encoded source
## rows (keys and values).  @var{B}: @code{W_Q} (d×h·dk), @code{W_K}
## (d_src×h·dk), @code{W_V} (d_src×h·dv), @code{W_O} (h·dv×d), @code{heads}
## (h).  @var{key_allow}: m×1 logical, true = a real source token (default:
## all true).
##
## Return @var{Y} = D + delta (n×d) and the trace @var{T} with fields
## @code{Q}, @code{K}, @code{V}, @code{scores} (n×m×h), @code{A} (n×m×h),
## @code{message} (n×h·dv), @code{delta} and @code{out} (n×d).
## @end deftypefn

function [Y, T] = my_cross_attention (D, E, B, key_allow)
  h = B.heads;
  dk = columns (B.W_Q) / h;
  dv = columns (B.W_V) / h;
  if (nargin < 4)
    key_allow = true (rows (E), 1);
  endif

  ## 1. Project: Q from D, K and V from E.

  ## 2. For each head j: its dk columns of Q and K, its dv columns of V;
  ##    scores = Q_j*K_j'/sqrt(dk), -Inf at keys that are not allowed;
  ##    A = softmax of each row (a row with no allowed key: all 0);
  ##    the head's message = A*V_j, placed in its dv columns.

  ## 3. delta = message*W_O, and the residual: Y = D + delta.

  error ("my_cross_attention: not written yet (see handout.md)");
endfunction
