## [loss, G, tr, row_loss, R] = model_loss (m, batch, weights, smoothing, mode):
## the teacher-forced cross-entropy of model M on BATCH, both already
## checked, and with nargout > 1 its gradients G (model_backward's layout).
## WEIGHTS: [] for the plain mean over the labels, or n×Bt non-negative
## row weights (padding still ignored); SMOOTHING in [0, 1); MODE of
## model_forward: "lean" for training, "full" for the trace TR of
## attn_loss's info.  row_loss n×Bt, the loss of each label (0 on padding).
## R: the trace's backward side (model_backward), with mode "full".
## attn_loss checks its arguments and calls this; attn_train calls it on
## slices of a corpus it checked once, so that a step runs no checks.
function [loss, G, tr, row_loss, R] = model_loss (m, batch, weights, smoothing, mode)
  w = batch.tgt_allow;
  if (! isempty (weights))
    w = weights .* batch.tgt_allow;
  endif
  tr = model_forward (m, batch, mode);
  if (nargout > 1)
    [loss, row_loss, dlogits] = cross_entropy (tr.logits, batch.labels, batch.tgt_allow, w,
                                               smoothing);
    if (nargout > 4)
      [G, R] = model_backward (m, tr, dlogits);
    else
      G = model_backward (m, tr, dlogits);
    endif
  else
    [loss, row_loss] = cross_entropy (tr.logits, batch.labels, batch.tgt_allow, w, smoothing);
  endif
endfunction

## [loss, row_loss, dlogits] = cross_entropy (logits, labels, allow, w, smoothing)
## Weighted mean softmax cross-entropy over the allowed rows.
## logits n×V×Bt, labels n×Bt ids, allow n×Bt logical (false = padding,
## ignored), w n×Bt row weights (0 where not allowed; allow itself for the
## plain mean), smoothing ε in [0, 1): the target puts 1-ε on the label and
## ε/V on every token.  row_loss n×Bt (unweighted, 0 where not allowed);
## dlogits = dloss/dlogits (n×V×Bt).  One exp; the label of each row is
## read by its index, never as a one-hot row:
##   log p = z - log (sum (exp (z))),  z = logits - max (logits)
##   row loss = -(1-ε) log p(label) - ε/V sum (log p)
##   loss = sum (w .* row loss) / sum (w)
##   dlogits = (p - (1-ε) one-hot(label) - ε/V) .* w / sum (w)
function [loss, row_loss, dlogits] = cross_entropy (logits, labels, allow, w, smoothing)
  [n, V, Bt] = size (logits);
  top = max (logits, [], 2);                     # n×1×Bt
  E = exp (logits - top);
  total = sum (E, 2);
  log_total = reshape (log (total), n, Bt);
  at = (1:n)' + n * (labels - 1) + (n * V) * (0:Bt-1);   # (i, label, b)
  r = -(logits(at) - reshape (top, n, Bt) - log_total);  # -log p(label)
  if (smoothing > 0)
    sum_logp = reshape (sum (logits - top, 2), n, Bt) - V * log_total;
    r = (1 - smoothing) * r - (smoothing / V) * sum_logp;
  endif
  r .*= allow;
  count = sum (w(:));
  count += (count == 0);                         # no label: loss 0, not NaN
  loss = sum ((r .* w)(:)) / count;
  row_loss = r;
  if (nargout > 2)                               # w .* (p - target) / count
    w = w / count;
    E .*= reshape (w, n, 1, Bt) ./ total;       # in place: E becomes dlogits
    E(at) -= (1 - smoothing) * w;
    if (smoothing > 0)
      E -= (smoothing / V) * reshape (w, n, 1, Bt);
    endif
    dlogits = E;
  endif
endfunction

%!test
%! ## the weighted mean of the labels' losses, padding ignored (weight 7
%! ## there), and what attn_loss returns after its checks, to the last bit
%! m = attn_toy ("river");
%! b = attn_batch (m, {"the river bank", "the bank"}, {"la rive", "la"});
%! w = [1 0 2; 0.5 1 7]';
%! [~, ~, ~, r] = model_loss (m, b, [], 0, "full");
%! assert (r .* ! b.tgt_allow, zeros (3, 2));
%! loss = model_loss (m, b, w, 0, "lean");
%! assert (loss, (r(1,1) + 2 * r(3,1) + 0.5 * r(1,2) + r(2,2)) / 4.5, 1e-15);
%! [l1, G1] = attn_loss (m, b, "weights", w, "label_smoothing", 0.1);
%! [l2, G2] = model_loss (m, b, w, 0.1, "lean");
%! assert (isequal (l1, l2) && isequal (G1, G2));
