## [loss, G, tr, row_loss, R] = model_loss (m, batch, weights, smoothing, mode):
## the teacher-forced cross-entropy of model M on BATCH, both already
## checked, and with nargout > 1 its gradients G (model_backward's layout).
## WEIGHTS: [] for the plain mean over the labels, or n×Bt non-negative
## row weights (padding still ignored); SMOOTHING in [0, 1); MODE of
## model_forward: "lean" for training, "step" for a loss alone, "full" for
## the trace TR of attn_loss's info.  row_loss n×Bt, the loss of each label
## (0 on padding).
## R: the trace's backward side (model_backward), with mode "full".
## attn_loss checks its arguments and calls this; attn_train calls it on
## slices of a corpus it checked once, so that a step runs no checks.
## The loss is the internal MEX function __cross_entropy__ (the core's
## attn_cross_entropy): [loss, row_loss, dlogits] = __cross_entropy__
## (logits, labels, allow, w, smoothing), the weighted mean softmax
## cross-entropy over the allowed rows.  logits n×V×Bt, labels n×Bt ids,
## allow n×Bt logical (false = padding, ignored), w n×Bt row weights (0
## where not allowed; allow itself for the plain mean), smoothing ε in
## [0, 1): the target puts 1-ε on the label and ε/V on every token.
## row_loss n×Bt (unweighted, 0 where not allowed); dlogits =
## dloss/dlogits (n×V×Bt).  One exp a logit; the label of each row is read
## by its index, never as a one-hot row:
##   log p = z - log (sum (exp (z))),  z = logits - max (logits)
##   row loss = -(1-ε) log p(label) - ε/V sum (log p)
##   loss = sum (w .* row loss) / sum (w)
##   dlogits = (p - (1-ε) one-hot(label) - ε/V) .* w / sum (w)
## A pass for the loss and one for dlogits, written into the array of the
## exps, in the order of operations of the formula in the test below, whose
## results it gives bit for bit in double; Octave's formula made five
## arrays of the logits' size.
function [loss, G, tr, row_loss, R] = model_loss (m, batch, weights, smoothing, mode)
  w = batch.tgt_allow;
  if (! isempty (weights))
    w = weights .* batch.tgt_allow;
  endif
  tr = model_forward (m, batch, mode);
  if (nargout > 1)
    [loss, row_loss, dlogits] = __cross_entropy__ (tr.logits, batch.labels, batch.tgt_allow,
                                                   w, smoothing);
    if (nargout > 4)
      [G, R] = model_backward (m, tr, dlogits);
    else
      G = model_backward (m, tr, dlogits);
    endif
  else
    [loss, row_loss] = __cross_entropy__ (tr.logits, batch.labels, batch.tgt_allow, w,
                                          smoothing);
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

%!function [loss, row_loss, dlogits] = formula (logits, labels, allow, w, smoothing)
%!  [n, V, Bt] = size (logits);
%!  top = max (logits, [], 2);
%!  E = exp (logits - top);
%!  total = sum (E, 2);
%!  log_total = reshape (log (total), n, Bt);
%!  at = (1:n)' + n * (labels - 1) + (n * V) * (0:Bt-1);
%!  r = -(logits(at) - reshape (top, n, Bt) - log_total);
%!  if (smoothing > 0)
%!    sum_logp = reshape (sum (logits - top, 2), n, Bt) - V * log_total;
%!    r = (1 - smoothing) * r - (smoothing / V) * sum_logp;
%!  endif
%!  r .*= allow;
%!  count = sum (w(:));
%!  count += (count == 0);
%!  loss = sum ((r .* w)(:)) / count;
%!  row_loss = r;
%!  w = w / count;
%!  E .*= reshape (w, n, 1, Bt) ./ total;
%!  E(at) -= (1 - smoothing) * w;
%!  if (smoothing > 0)
%!    E -= (smoothing / V) * reshape (w, n, 1, Bt);
%!  endif
%!  dlogits = E;
%!endfunction

%!test
%! ## the kernel (__cross_entropy__) against the formula: bit for bit in double, with and
%! ## without smoothing and weights, padding, large logits, one item; in
%! ## single to its rounding
%! randn ("state", 4);  rand ("state", 4);
%! logits = 30 * randn (5, 7, 3);
%! labels = randi (7, 5, 3);
%! allow = rand (5, 3) > 0.3;
%! weights = {allow, rand(5, 3) .* allow};
%! for s = [0, 0.1]
%!   for k = 1:2
%!     [l1, r1, d1] = __cross_entropy__ (logits, labels, allow, weights{k}, s);
%!     [l2, r2, d2] = formula (logits, labels, allow, double (weights{k}), s);
%!     assert (isequal (l1, l2) && isequal (r1, r2) && isequal (d1, d2));
%!     [l1, r1] = __cross_entropy__ (logits(:,:,1), labels(:,1), allow(:,1), weights{k}(:,1), s);
%!     assert (isequal ([l1; r1], [formula(logits(:,:,1), labels(:,1), allow(:,1), double (weights{k}(:,1)), s); r2(:,1)]));
%!     [l1, r1, d1] = __cross_entropy__ (single (logits), labels, allow, weights{k}, s);
%!     assert (class (l1), "single");  assert (class (d1), "single");
%!     assert (double (l1), l2, 1e-5 * abs (l2));
%!     assert (double (r1), r2, 1e-5 * max (abs (r2(:))));
%!     assert (double (d1), d2, 1e-5 * max (abs (d2(:))));
%!   endfor
%! endfor
%! [l, r, d] = __cross_entropy__ (zeros (0, 4, 2), zeros (0, 2), false (0, 2), zeros (0, 2), 0);
%! assert (l == 0 && isequal (size (r), [0 2]) && isequal (size (d), [0 4 2]));

%!error id=attention:label __cross_entropy__ (zeros (2, 3), [1; 4], true (2, 1), true (2, 1), 0)
%!error id=attention:label __cross_entropy__ (zeros (2, 3), [1; 1.5], true (2, 1), true (2, 1), 0)
%!error id=attention:size __cross_entropy__ (zeros (2, 3), [1 1], true (2, 1), true (2, 1), 0)
%!error id=attention:type __cross_entropy__ (zeros (2, 3), [1; 1], true (2, 1), true (2, 1), 1)
%!error id=attention:type __cross_entropy__ (int8 (zeros (2, 3)), [1; 1], true (2, 1), true (2, 1), 0)
