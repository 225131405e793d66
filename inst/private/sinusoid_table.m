## P = sinusoid_table (L, d, layout): fixed sinusoidal positions (Vaswani
## et al.) of new and imported models: row i is position p = i-1, angle k
## (from 0) is p / 10000^(2k/d).  layout "sinusoidal": column 2k+1 holds its sine and
## column 2k+2 its cosine; "sinusoidal_concat": the sines of the angles
## 0 … ceil(d/2)-1 first, then the cosines of 0 … floor(d/2)-1.
function P = sinusoid_table (L, d, layout)
  p = (0:L-1)';
  k = 0:ceil (d/2) - 1;
  angle = p ./ 10000 .^ (2*k / d);
  if (strcmp (layout, "sinusoidal_concat"))
    P = [sin(angle), cos(angle(:,1:floor (d/2)))];
  else
    P = zeros (L, 2*numel (k));
    P(:,1:2:end) = sin (angle);
    P(:,2:2:end) = cos (angle);
    P = P(:,1:d);
  endif
endfunction
