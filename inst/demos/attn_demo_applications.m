## -*- texinfo -*-
## @deftypefn  {} {} attn_demo_applications ()
## @deftypefnx {} {@var{r} =} attn_demo_applications ()
## Seed 003's numbers: from attention to applications. Compute and print the
## numbers that seed 003 (from attention to applications) states.
##
## @enumerate
## @item The vocabulary softmax: seven visible logits
## @code{[1 -2 5.5 -1 1.5 -3 3]} and 49,993 omitted logits at -8, 50,000
## probabilities, the visible ones in percent to two decimals.
## @item The CLS sentence-classifier head: logits @code{[2 1 0]} for
## EDUCATION, TRAVEL, OTHER give @code{[0.665 0.245 0.090]}.
## @item Cross-entropy of the positive review: NEG 0.2, POS 0.8, loss
## @code{-log (0.8)}, about 0.223.
## @item The illustrative cross-attention weights: scaled scores
## @code{log ([0.72 0.04 0.03 0.09 0.04 0.08])} give back exactly those
## weights, and the message c1 = A*V.
## @end enumerate
##
## Every softmax here is computed by the attention kernel @code{attn_sdpa}:
## a softmax over logits is attention of one query on keys that score
## exactly those logits.  The struct @var{r} holds the numbers:
## @code{visible_probs} (1×7), @code{omitted_prob} (each of the 49,993),
## @code{total} (the sum of all 50,000), @code{cls_probs}, @code{ce},
## @code{cross_scores}, @code{cross_A}, @code{cross_message}.
##
## @example
## @group
## r = attn_demo_applications ();
## @print{} Seed 003: the numbers it prints, computed by the package
## @print{} ...
## printf ("%.3f ", r.cls_probs); printf ("\n");
## @print{} 0.665 0.245 0.090
## @end group
## @end example
##
## Run it with @code{demo attn_demo_applications} or by its name.
## @seealso{attn_demo_black_cat, attn_demo_river_bank, attn_sdpa}
## @end deftypefn

function varargout = attn_demo_applications ()
  printf ("Seed 003: the numbers it prints, computed by the package\n\n");

  ## 1. next-token softmax over a 50,000-token vocabulary (temperature 1)
  visible = [1 -2 5.5 -1 1.5 -3 3];
  nvocab = 50000;
  logits = [visible, repmat(-8, 1, nvocab - numel (visible))];
  p = kernel_softmax (logits);
  r.visible_probs = p(1:7);
  r.omitted_prob = p(end);
  r.total = sum (p);
  printf ("1. Vocabulary softmax: %s tokens, 7 visible logits, the other %s at -8\n",
          thousands (nvocab), thousands (nvocab - 7));
  printf ("   %-9s %7s %13s\n", "token", "logit", "probability");
  names = {"1", "2", "3 (goes)", "4", "5", "6", "7"};
  for k = 1:7
    printf ("   %-9s %7.1f %11.2f %%\n", names{k}, visible(k), 100 * p(k));
  endfor
  printf ("   each omitted token  %.6f %%, all %s together %.2f %%\n",
          100 * p(end), thousands (nvocab - 7), 100 * sum (p(8:end)));
  printf ("   sum of all %s probabilities: %.12f\n\n", thousands (nvocab), sum (p));

  ## 2. CLS head of a sentence classifier
  r.cls_probs = kernel_softmax ([2 1 0]);
  printf ("2. CLS head: logits [2 1 0] -> softmax\n");
  attn_show (r.cls_probs, "p", "EDUCATION TRAVEL OTHER", "cls.probs");
  printf ("\n");

  ## 3. cross-entropy of the true class (natural logarithm)
  q = kernel_softmax (log ([0.2 0.8]));
  r.ce = -log (q(2));
  printf ("3. Cross-entropy, positive review: NEG %.1f, POS %.1f, loss -log(p(POS)) = %.3f\n\n",
          q, r.ce);

  ## 4. cross-attention weights from authored log-scores; keys sqrt(dk)*I make
  ## the scaled scores equal the query, one-hot values make c1 = A
  w = [0.72 0.04 0.03 0.09 0.04 0.08];
  dk = numel (w);
  src = {"Raghav", "s2", "s3", "s4", "s5", "s6"};
  [r.cross_message, r.cross_A, r.cross_scores] = attn_sdpa (log (w), sqrt (dk) * eye (dk), eye (dk));
  printf ("4. Cross-attention of the first target position over six source positions\n");
  attn_show (r.cross_scores, "q1", src, "cross.scores", "decimals", 2, "axes", {"target", "source"});
  attn_show (r.cross_A, "q1", src, "cross.A", "decimals", 2, "axes", {"target", "source"});
  printf ("   largest |A - authored weights| = %.1e\n", max (abs (r.cross_A - w)));
  if (nargout > 0)                   # called by name: no 450-line ans
    varargout{1} = r;
  endif
endfunction

function s = thousands (n)
  s = regexprep (sprintf ("%d", n), '(\d)(?=(\d{3})+$)', '$1,');
endfunction

## p = kernel_softmax (z):
## Softmax of the row z computed by the attention kernel itself: one
## query of width 1 against keys z', so the scores are z and the
## weights are its softmax (the same operation, seed 003's point).
function p = kernel_softmax (z)
  [~, p] = attn_sdpa (1, z(:), zeros (numel (z), 1));
endfunction

%!demo
%! attn_demo_applications ();

%!test
%! ## called by name: the numbers, and no ans of the result
%! out0 = evalc ("attn_demo_applications");
%! assert (isempty (strfind (out0, "ans =")));
%! assert (numel (strfind (out0, "\n")) < 40);

%!shared r, out
%! [out, r] = evalc ("attn_demo_applications ()");

%!test
%! ## vocabulary softmax against an independently computed log-sum-exp
%! z = [1 -2 5.5 -1 1.5 -3 3];
%! lse = log (sum (exp (z)) + 49993 * exp (-8));
%! ## relative 1e-11: the kernel's row sum adds 50,000 terms
%! assert (r.visible_probs, exp (z - lse), -1e-11);
%! assert (r.omitted_prob, exp (-8 - lse), -1e-11);
%! assert (r.total, 1, 1e-11);
%! for k = 1:7
%!   line = regexp (out, sprintf ('\n   %d[ (goes)]* +%.1f +([\\d.]+) %%', k, z(k)), "tokens", "once");
%!   assert (str2double (line{1}), round (10000 * exp (z(k) - lse)) / 100);
%! endfor
%! assert (! isempty (regexp (out, '3 \(goes\) +5\.5 +84\.58 %')));
%! assert (! isempty (strfind (out, sprintf ("together %.2f %%", 100 * 49993 * exp (-8 - lse)))));

%!test
%! ## the seed's printed CLS probabilities and cross-entropy
%! assert (r.cls_probs, [0.665 0.245 0.090], 5e-4);
%! assert (r.cls_probs, exp ([2 1 0]) / sum (exp ([2 1 0])), 1e-15);
%! assert (! isempty (regexp (out, 'p +0\.665 +0\.245 +0\.090')));
%! assert (r.ce, 0.223, 5e-4);
%! assert (r.ce, -log (0.8), 1e-14);
%! assert (! isempty (strfind (out, "loss -log(p(POS)) = 0.223")));

%!test
%! ## softmax of the unrounded log-scores reproduces the weights exactly
%! w = [0.72 0.04 0.03 0.09 0.04 0.08];
%! assert (r.cross_scores, log (w), 1e-15);
%! assert (r.cross_A, w, 1e-15);
%! assert (r.cross_message, w, 1e-15);
%! assert (! isempty (regexp (out, 'q1 +-0\.33 +-3\.22 +-3\.51 +-2\.41 +-3\.22 +-2\.53')));
%! assert (! isempty (regexp (out, 'q1 +0\.72 +0\.04 +0\.03 +0\.09 +0\.04 +0\.08')));
