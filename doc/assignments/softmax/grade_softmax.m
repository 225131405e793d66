## Grader for the assignment "the masked row softmax and its gradient"
## (see handout.md).
## Submission: my_softmax.m, my_softmax_backward.m
## Forbidden: attn_softmax, attn_softmax_backward
##
##   attn_grade ("grade_softmax.m", "my/work/folder")
## runs every test and prints "k of N tests, p of P points".  Each test
## compares your functions with the package's attn_softmax and
## attn_softmax_backward (through attn_compare) or with central finite
## differences; a failing test names the first element that differs.

%!function check_forward (S, varargin)
%!  A = my_softmax (S, varargin{:});
%!  attn_compare (attn_softmax (S, varargin{:}), A, 1e-12, "name", "A");
%!endfunction

%!function check_backward (dA, A)
%!  attn_compare (attn_softmax_backward (dA, A), my_softmax_backward (dA, A), 1e-12,
%!                "name", "dS");
%!endfunction

## a small case against attn_softmax; rows sum to one
%!test
%! randn ("state", 1);
%! S = randn (3, 4);
%! check_forward (S);
%! assert (sum (my_softmax (S), 2), ones (3, 1), 1e-12);

## rectangular scores, more keys than queries and more queries than keys
%!test
%! randn ("state", 2);
%! check_forward (2 * randn (2, 5));
%! check_forward (2 * randn (6, 3));
%! check_forward (0.5);

## large scores, 1e3 and more, of both signs (2 points)
%!test
%! check_forward ([1000 1001 1002; -1000 -1001 -1003; 5e4 0 -5e4]);
%! check_forward ([2000 0; 0 -2000]);
%! randn ("state", 3);
%! check_forward (1e4 * randn (3, 4));

## masked keys get weight 0 and the others are renormalised (2 points)
%!test
%! randn ("state", 4);
%! S = randn (4, 5);
%! allow = logical ([1 0 1 1 0; 1 1 1 1 1; 0 1 0 0 1; 1 0 0 0 0]);
%! A = my_softmax (S, allow);
%! assert (A(! allow), zeros (nnz (! allow), 1), 0);
%! check_forward (S, allow);

## a row with no allowed key, and -Inf scores: weights 0, never NaN (2 points)
%!test
%! S = [1 2 3; 4 5 6; 7 8 9];
%! allow = logical ([1 1 0; 0 0 0; 1 1 1]);
%! A = my_softmax (S, allow);
%! assert (A(2,:), [0 0 0]);
%! check_forward (S, allow);
%! check_forward ([-Inf -Inf -Inf; 0 -Inf 1]);

## several heads: each page its own softmax, one mask for all (2 points)
%!test
%! randn ("state", 5);
%! S = 3 * randn (3, 4, 2);
%! check_forward (S);
%! allow = logical ([1 1 0 0; 1 0 1 1; 0 0 0 0]);
%! check_forward (S, allow);
%! check_forward (1000 * randn (2, 3, 4), logical ([1 0 1; 1 1 1]));

## the backward pass against attn_softmax_backward (2 points)
%!test
%! randn ("state", 6);
%! A = attn_softmax (randn (3, 4));
%! check_backward (randn (3, 4), A);
%! A = attn_softmax (randn (5, 2));
%! check_backward (randn (5, 2), A);

## the backward pass against central finite differences
%!test
%! randn ("state", 7);
%! S = randn (3, 4);
%! R = randn (3, 4);
%! dS = my_softmax_backward (R, attn_softmax (S));
%! num = zeros (3, 4);
%! h = 1e-6;
%! for k = 1:12
%!   e = zeros (3, 4);
%!   e(k) = h;
%!   num(k) = (sum (R(:) .* attn_softmax (S + e)(:)) - sum (R(:) .* attn_softmax (S - e)(:))) / (2 * h);
%! endfor
%! attn_compare (num, dS, 1e-7, "name", "dS");

## the backward pass on masked weights and several heads
%!test
%! randn ("state", 8);
%! allow = logical ([1 0 1 1; 1 1 0 1; 0 1 1 1]);
%! A = attn_softmax (randn (3, 4, 2), allow);
%! check_backward (randn (3, 4, 2), A);

## the backward pass of a fully masked row: zero
%!test
%! A = attn_softmax ([1 2 3; 4 5 6], logical ([1 1 1; 0 0 0]));
%! dS = my_softmax_backward ([1 -2 3; 4 5 6], A);
%! assert (dS(2,:), [0 0 0]);
%! check_backward ([1 -2 3; 4 5 6], A);
