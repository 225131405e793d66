## -*- texinfo -*-
## @deftypefn  {} {@var{A} =} attn_softmax (@var{S})
## @deftypefnx {} {@var{A} =} attn_softmax (@var{S}, @var{allow})
## Masked row softmax of scores: the attention weights.
##
## @var{S} (n×m×P@dots{}) holds scores, one row per query and one column
## per key; trailing dimensions are independent pages (heads, batch).
## Each row of @var{A} is the softmax of the allowed entries of that row of
## @var{S}:
##
## @example
## @group
## A(i,j) = exp (S(i,j) - top_i) / sum over allowed k of exp (S(i,k) - top_i)
## @end group
## @end example
##
## where top_i is the largest allowed score of row i (subtracted so that
## scores of 1e3 and more neither overflow nor underflow), and
## @code{A(i,j) = 0} where the pair is not allowed.  A row with no allowed
## entry has weights 0, never NaN.  Each row of allowed weights sums to 1.
##
## @var{allow} (default: every pair) is a logical n×m matrix shared by every
## page, or one n×m×P@dots{} per page (true = query i may attend to key j),
## or @qcode{"causal"} (query i reads keys j <= m-n+i, as in masked
## self-attention).  Entries of @var{S} that are @code{-Inf} (the masked
## scores of a trace) are not allowed either, so
## @code{attn_softmax (T.scores)} reproduces @code{T.A}.
##
## This is the weights step of @code{attn_sdpa} and the blocks, written in
## plain Octave so that a grader can compare a student's softmax with it;
## its gradient is @code{attn_softmax_backward}.
##
## @example
## @group
## A = attn_softmax ([1000 1001 -Inf; 0 0 0], logical ([1 1 1; 0 0 0]))
##   @result{} A =
##        0.2689   0.7311        0
##             0        0        0
## @end group
## @end example
##
## Errors: @code{attention:type} (@var{S} not real numeric, @var{allow} not
## logical or @qcode{"causal"}), @code{attention:size} (@var{allow} of
## another shape), @code{attention:nonfinite} (NaN or +Inf in @var{S}).
## @seealso{attn_softmax_backward, attn_sdpa, attn_compare}
## @end deftypefn

function A = attn_softmax (S, allow)
  if (nargin < 1 || nargin > 2)
    print_usage ();
  endif
  if (! (isnumeric (S) && isreal (S)))
    error ("attention:type", "attn_softmax: S: expected a real numeric array, got %s",
           disp_arg (S));
  endif
  S = double (S);
  if (any (isnan (S(:)) | S(:) == Inf))
    error ("attention:nonfinite", "attn_softmax: S: expected scores without NaN or +Inf");
  endif
  n = rows (S);
  m = columns (S);
  if (nargin < 2)
    allow = true;
  elseif (ischar (allow) && strcmp (allow, "causal"))
    allow = (1:m) <= (m - n + (1:n)');
  elseif (islogical (allow))
    if (! (isequal (size (allow), [n, m])
           || isequal (size (allow), size (S))))
      error ("attention:size", "attn_softmax: ALLOW: expected %s or %s, got %s",
             shape_str ([n, m]), shape_str (size (S)), shape_str (size (allow)));
    endif
  else
    error ("attention:type", "attn_softmax: ALLOW: expected a logical array or \"causal\", got %s",
           disp_arg (allow));
  endif
  allow = allow & (S > -Inf);
  S(! allow) = -Inf;
  top = max (S, [], 2);
  top(top == -Inf) = 0;            # a row with no allowed key: exp gives 0s
  A = exp (S - top);
  total = sum (A, 2);
  total(total == 0) = 1;           # ... and stays 0, not NaN
  A ./= total;
endfunction

## An independent reference: one row at a time, only the allowed entries.
%!function A = loop_softmax (S, allow)
%!  A = zeros (size (S));
%!  for p = 1:prod (size (S)(3:end))
%!    for i = 1:rows (S)
%!      keep = find (allow(i,:,min (p, size (allow, 3))) & S(i,:,p) > -Inf);
%!      if (! isempty (keep))
%!        s = S(i,keep,p);
%!        w = exp (s - max (s));
%!        A(i,keep,p) = w / sum (w);
%!      endif
%!    endfor
%!  endfor
%!endfunction

## The kernel's own softmax: with K = I and dk = m the scores of attn_sdpa
## are Q/sqrt(m), so Q = S*sqrt(m) gives back S (up to rounding).
%!function A = kernel_weights (S, allow)
%!  m = columns (S);
%!  [~, A] = attn_sdpa (S * sqrt (m), eye (m), eye (m), allow);
%!endfunction

%!test
%! randn ("state", 1);
%! S = 3 * randn (4, 6);
%! allow = logical ([1 1 0 1 0 1; 0 1 1 1 1 1; 1 0 0 0 0 0; 1 1 1 1 1 1]);
%! A = attn_softmax (S, allow);
%! assert (A, loop_softmax (S, allow), 1e-15);
%! assert (A, kernel_weights (S, allow), 1e-13);
%! assert (sum (A, 2), ones (4, 1), 1e-15);
%! assert (attn_softmax (S), loop_softmax (S, true (4, 6)), 1e-15);

%!test
%! ## scores of 1e3 and more, both signs: no overflow, no 0/0
%! S = [1000 1001 999; -1000 -1001 -1002; 5e4 0 -5e4];
%! A = attn_softmax (S);
%! assert (all (isfinite (A(:))));
%! assert (A, loop_softmax (S, true (3)), 1e-15);
%! assert (A, kernel_weights (S, true (3)), 1e-12);
%! assert (A(3,:), [1 0 0]);

%!test
%! ## a fully masked row: zeros, not NaN; -Inf scores count as masked
%! S = [1 2 3; 4 5 6];
%! A = attn_softmax (S, logical ([1 1 0; 0 0 0]));
%! assert (A(2,:), [0 0 0]);
%! assert (A(1,:), loop_softmax ([1 2], true (1, 2)) * [1 0 0; 0 1 0], 1e-15);
%! assert (attn_softmax ([-Inf -Inf; 0 -Inf]), [0 0; 1 0]);

%!test
%! ## pages (heads), a shared mask and one mask per page; "causal"
%! randn ("state", 2);
%! S = randn (3, 5, 2, 2);
%! shared = rand (3, 5) > 0.3;
%! assert (attn_softmax (S, shared), loop_softmax (S, shared), 1e-15);
%! each = rand (3, 5, 2, 2) > 0.4;
%! A = attn_softmax (S, each);
%! for p = 1:4
%!   assert (A(:,:,p), loop_softmax (S(:,:,p), each(:,:,p)), 1e-15);
%! endfor
%! causal = logical ([1 1 1 0 0; 1 1 1 1 0; 1 1 1 1 1]);
%! assert (attn_softmax (S, "causal"), loop_softmax (S, causal), 1e-15);
%! [~, T] = attn_masked (randn (4, 2), struct ("W_Q", randn (2), "W_K", randn (2),
%!                       "W_V", randn (2), "W_O", randn (2), "heads", 1));
%! assert (attn_softmax (T.scores), T.A, 1e-14);

%!error id=attention:type attn_softmax ("abc")
%!error id=attention:type attn_softmax ([1 2], [1 0])
%!error id=attention:size attn_softmax ([1 2], true (1, 3))
%!error id=attention:nonfinite attn_softmax ([1 NaN])
%!error id=attention:nonfinite attn_softmax ([1 Inf])
