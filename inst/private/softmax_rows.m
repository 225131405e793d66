## P = softmax_rows (Z): softmax along dim 2 (each row) of Z (n×m×pages,
## finite), stable: the kernels' softmax (row maximum subtracted,
## compensated row sums), written once into P (__softmax_rows__).
function P = softmax_rows (Z)
  P = __softmax_rows__ (Z);
endfunction

%!test
%! ## against the formula, every page, in double and single
%! Z = [randn(5, 7, 3) * 4; -800 * ones(1, 7, 3)];
%! Z(2,:,2) = 700;
%! R = exp (Z - max (Z, [], 2));
%! R ./= sum (R, 2);
%! assert (softmax_rows (Z), R, 4 * eps);
%! P = softmax_rows (single (Z));
%! assert (class (P), "single");
%! assert (P, single (R), 4 * eps ("single"));
%! assert (size (softmax_rows (zeros (0, 3, 2))), [0 3 2]);
%!error id=attention:overflow softmax_rows ([1 Inf; 0 0])
%!error id=attention:type softmax_rows (int8 ([1 2]))
