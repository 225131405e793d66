## -*- texinfo -*-
## @deftypefn {} {@var{dS} =} attn_softmax_backward (@var{dA}, @var{A})
## Gradient through the attention softmax: dL/dS. The gradient through the
## row softmax: dL/dS from dL/dA and the weights.
##
## @var{A} (n×m×P@dots{}) are the weights @code{attn_softmax} returned and
## @var{dA} (same shape) the gradient of a scalar loss L with respect to
## them.  Row by row,
##
## @example
## @group
## dS = A .* (dA - sum (dA .* A, 2))
## @end group
## @end example
##
## The mask needs no argument: a disallowed pair has @code{A = 0} and so
## @code{dS = 0}, and a row with no allowed key gets zero gradient.
##
## @example
## @group
## A = attn_softmax ([0 log(3)]);            # [0.25 0.75]
## dS = attn_softmax_backward ([1 0], A)     # L = A(1)
##   @result{} dS =
##        0.1875  -0.1875
## @end group
## @end example
##
## Errors: @code{attention:type} (not real numeric), @code{attention:size}
## (@var{dA} and @var{A} of different shapes).
## @seealso{attn_softmax, attn_sdpa_backward}
## @end deftypefn

function dS = attn_softmax_backward (dA, A)
  if (nargin != 2)
    print_usage ();
  endif
  names = {"DA", "A"};
  args = {dA, A};
  for i = 1:2
    if (! (isnumeric (args{i}) && isreal (args{i})))
      error ("attention:type", "attn_softmax_backward: %s: expected a real numeric array, got %s",
             names{i}, disp_arg (args{i}));
    endif
  endfor
  if (! isequal (size (dA), size (A)))
    error ("attention:size", "attn_softmax_backward: DA is %s but A is %s",
           shape_str (size (dA)), shape_str (size (A)));
  endif
  dS = A .* (dA - sum (dA .* A, 2));
endfunction

## central differences of the loss sum (R .* attn_softmax (S, allow))
%!function dS = numerical (S, allow, R)
%!  dS = zeros (size (S));
%!  h = 1e-6;
%!  for k = find (allow(:) & S(:) > -Inf)'
%!    e = zeros (size (S));
%!    e(k) = h;
%!    Lp = sum (R(:) .* attn_softmax (S + e, allow)(:));
%!    Lm = sum (R(:) .* attn_softmax (S - e, allow)(:));
%!    dS(k) = (Lp - Lm) / (2 * h);
%!  endfor
%!endfunction

%!test
%! randn ("state", 3);
%! S = randn (3, 4, 2);
%! allow = true (3, 4, 2);
%! allow(2,:,1) = false;
%! allow(1,[2 4],2) = false;
%! R = randn (3, 4, 2);
%! A = attn_softmax (S, allow);
%! dS = attn_softmax_backward (R, A);
%! assert (dS, numerical (S, allow, R), 1e-8);
%! assert (dS(2,:,1), zeros (1, 4));
%! assert (dS(1,[2 4],2), [0 0]);

%!test
%! ## the kernel's backward: with K = I and dk = m, dQ = dS/sqrt(m)
%! randn ("state", 4);
%! S = 2 * randn (3, 5);
%! allow = rand (3, 5) > 0.3;
%! dA = randn (3, 5);
%! m = columns (S);
%! [~, A] = attn_sdpa (S * sqrt (m), eye (m), eye (m), allow);
%! dQ = attn_sdpa_backward (dA, S * sqrt (m), eye (m), eye (m), A);
%! assert (attn_softmax_backward (dA, attn_softmax (S, allow)), dQ * sqrt (m), 1e-12);

%!error id=attention:type attn_softmax_backward ("a", 1)
%!error id=attention:size attn_softmax_backward ([1 2], [1 2 3])
