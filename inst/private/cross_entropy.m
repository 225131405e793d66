## [loss, row_loss, dlogits] = cross_entropy (logits, labels, allow, smoothing)
## Mean softmax cross-entropy over the allowed rows.
## logits n×V×Bt, labels n×Bt ids, allow n×Bt logical (false = padding,
## ignored), smoothing ε in [0, 1): the target puts 1-ε on the label and
## ε/V on every token.  row_loss n×Bt (0 where not allowed);
## dlogits = dloss/dlogits (n×V×Bt).
function [loss, row_loss, dlogits] = cross_entropy (logits, labels, allow, smoothing)
  [n, V, Bt] = size (logits);
  Z = stack_rows (logits);                       # (n·Bt)×V, row r = (i, b)
  Z -= max (Z, [], 2);
  logp = Z - log (sum (exp (Z), 2));
  target = (1 - smoothing) * ((1:V) == labels(:)) + smoothing / V;
  keep = allow(:);
  r = -sum (target .* logp, 2) .* keep;
  count = max (sum (keep), 1);
  loss = sum (r) / count;
  row_loss = reshape (r, n, Bt);
  if (nargout > 2)
    dlogits = unstack_rows ((exp (logp) - target) .* (keep / count), n);
  endif
endfunction
