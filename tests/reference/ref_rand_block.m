## -*- texinfo -*-
## @deftypefn  {} {@var{B} =} ref_rand_block (@var{d}, @var{d_src}, @var{h}, @var{dk}, @var{dv})
## A block struct with random normal weights, for tests and the benchmark.
##
## @code{W_Q} d×h·dk, @code{W_K} d_src×h·dk, @code{W_V} d_src×h·dv,
## @code{W_O} h·dv×d, each scaled by 1/sqrt(fan-in) so scores and outputs
## stay of order one (softmax neither saturated nor flat).
##
## @example
## B = ref_rand_block (4, 6, 2, 3, 5);   % cross block, d = 4, d_src = 6
## @end example
## @end deftypefn

function B = ref_rand_block (d, d_src, h, dk, dv)
  B.W_Q = randn (d, h * dk) / sqrt (d);
  B.W_K = randn (d_src, h * dk) / sqrt (d_src);
  B.W_V = randn (d_src, h * dv) / sqrt (d_src);
  B.W_O = randn (h * dv, d) / sqrt (h * dv);
  B.heads = h;
endfunction

%!test
%! B = ref_rand_block (4, 6, 2, 3, 5);
%! assert (size (B.W_Q), [4 6]);
%! assert (size (B.W_K), [6 6]);
%! assert (size (B.W_V), [6 10]);
%! assert (size (B.W_O), [10 4]);
%! assert (B.heads, 2);
