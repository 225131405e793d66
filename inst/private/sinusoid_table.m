## P = sinusoid_table (L, d): fixed sinusoidal positions (Vaswani et al.):
## row i is position p = i-1; column 2k-1 holds sin (p / 10000^((2k-2)/d))
## and column 2k the cosine of the same angle.
function P = sinusoid_table (L, d)
  p = (0:L-1)';
  k = 0:ceil (d/2) - 1;
  angle = p ./ 10000 .^ (2*k / d);
  P = zeros (L, 2*numel (k));
  P(:,1:2:end) = sin (angle);
  P(:,2:2:end) = cos (angle);
  P = P(:,1:d);
endfunction
