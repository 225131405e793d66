## -*- texinfo -*-
## @deftypefn  {} {[@var{M}, @var{A}, @var{S}] =} attn_ref_sdpa (@var{Q}, @var{K}, @var{V})
## @deftypefnx {} {[@var{M}, @var{A}, @var{S}] =} attn_ref_sdpa (@var{Q}, @var{K}, @var{V}, @var{allow})
## Scaled dot-product attention in plain Octave.  The readable definition
## that attn_sdpa is tested against.
##
## @var{Q} is n×dk×P@dots{}, @var{K} m×dk×P@dots{}, @var{V} m×dv×P@dots{};
## every trailing index (heads, batch) is an independent "page".
## @var{allow} is a logical n×m (shared by all pages) or n×m×P@dots{} mask,
## true = may attend, or the string @qcode{"causal"}: query i reads keys
## j <= m-n+i.  Omitted or empty: every key is allowed.
##
## @example
## @group
## S = Q*K'/sqrt(dk);   S(!allow) = -Inf;   % scores, n×m
## A = softmax of each row of S;            % weights; a row with no
##                                          % allowed key is all 0
## M = A*V;                                 % message, n×dv
## @end group
## @end example
##
## Written from the formulas, independently of the MEX code.
## @seealso{attn_ref_sdpa_backward, attn_ref_block}
## @end deftypefn

function [M, A, S] = attn_ref_sdpa (Q, K, V, allow = [])
  [n, dk, ~] = size (Q);
  m = rows (K);
  dv = columns (V);
  pages = size (Q)(3:end);
  P = prod (pages);

  if (ischar (allow))            # "causal": query i sits at key position m-n+i
    allow = (1:m) <= (m - n) + (1:n)';
  endif

  S = zeros (n, m, P);
  M = zeros (n, dv, P);
  for p = 1:P
    S(:,:,p) = Q(:,:,p) * K(:,:,p)' / sqrt (dk);
  endfor
  if (! isempty (allow))
    allow = reshape (allow, n, m, []) & true (n, m, P);  # share an n×m mask
    S(! allow) = -Inf;
  endif

  ## Stable row softmax; a row whose scores are all -Inf gets weights 0.
  top = max (S, [], 2);
  top(top == -Inf) = 0;
  E = exp (S - top);
  total = sum (E, 2);
  A = E ./ max (total, realmin);     # total is 0 only for a fully masked row

  for p = 1:P
    M(:,:,p) = A(:,:,p) * V(:,:,p);
  endfor

  M = reshape (M, [n, dv, pages]);
  A = reshape (A, [n, m, pages]);
  S = reshape (S, [n, m, pages]);
endfunction

%!test
%! ## one key: the message is that key's value
%! [M, A] = attn_ref_sdpa ([1 2; 3 4], [5 6], [7 8 9]);
%! assert (A, [1; 1]);
%! assert (M, [7 8 9; 7 8 9]);

%!test
%! ## seed 004: q = [0 1 2 0] against keys 2*I
%! [~, A, S] = attn_ref_sdpa ([0 1 2 0], 2*eye (4), eye (4));
%! assert (S, [0 1 2 0]);
%! assert (A, exp ([0 1 2 0]) / sum (exp ([0 1 2 0])), 1e-15);

%!test
%! ## causal with n < m, and a fully masked row when n > m
%! [~, A] = attn_ref_sdpa (rand (2, 3), rand (4, 3), rand (4, 2), "causal");
%! assert (A(:,end) == 0 | (1:2)' == 2, true (2, 1));
%! assert (sum (A, 2), [1; 1], 1e-15);
%! [M, A] = attn_ref_sdpa (rand (3, 2), rand (2, 2), rand (2, 2), "causal");
%! assert (A(1,:), [0 0]);
%! assert (M(1,:), [0 0]);
%! assert (all (isfinite (A(:))));
