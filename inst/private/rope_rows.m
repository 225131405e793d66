## Y = rope_rows (X, base, dk, sign): rotary positions of the reference
## blocks.  X is r×(heads·dk)×Bt, row p (0-based) at position p.  Within
## each head, entry i (0-based, i < dk/2) and entry i + dk/2 turn by the
## angle p·base^(-2i/dk):
##   [x_i, x_(i+dk/2)] -> [x_i cos - x_(i+dk/2) sin, x_(i+dk/2) cos + x_i sin]
## (the rotate-half layout of Llama).  sign = -1 turns back: the transpose,
## which carries a gradient from the turned rows to the rows before.

function Y = rope_rows (X, base, dk, sign)
  [r, c, Bt] = size (X);
  half = dk / 2;
  angle = (0:r-1)' * base .^ (-2 * (0:half-1) / dk);     # r×dk/2
  C = cos (angle);
  S = sign * sin (angle);
  X = reshape (X, r, dk, c / dk, Bt);                     # heads apart
  x1 = X(:,1:half,:,:);
  x2 = X(:,half+1:dk,:,:);
  Y = reshape ([x1 .* C - x2 .* S, x2 .* C + x1 .* S], r, c, Bt);
endfunction

%!test
%! ## position 0 is left as it is; position 1 of a head of width 2 turns by
%! ## one radian; turning back undoes it; the length of each pair is kept
%! X = [1 2; 3 4];
%! Y = rope_rows (X, 10000, 2, 1);
%! assert (Y(1,:), X(1,:));
%! assert (Y(2,:), [3*cos(1) - 4*sin(1), 4*cos(1) + 3*sin(1)], 1e-15);
%! assert (rope_rows (Y, 10000, 2, -1), X, 1e-15);
%! Z = rope_rows (randn (5, 8, 2), 100, 4, 1);
%! assert (size (Z), [5 8 2]);

%!test
%! ## dk = 4, two heads: entry 1 pairs with 3 (angle p), entry 2 with 4
%! ## (angle p/base^(1/2)), the same in each head and batch item
%! X = repmat ([1 0 0 0 0 1 0 0], [3 1 2]);
%! Y = rope_rows (X, 4, 4, 1);
%! p = (0:2)';
%! assert (Y(:,:,1), [cos(p), zeros(3, 1), sin(p), zeros(3, 1), ...
%!                    zeros(3, 1), cos(p/2), zeros(3, 1), sin(p/2)], 1e-15);
%! assert (Y(:,:,2), Y(:,:,1));
