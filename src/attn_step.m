## -*- texinfo -*-
## @deftypefn  {} {@var{m} =} attn_step (@var{m}, @var{G}, @var{lr})
## @deftypefnx {} {[@var{m}, @var{mom}, @var{vel}] =} attn_step (@var{m}, @var{G}, @var{lr}, @var{mom}, @var{vel}, @var{beta1}, @var{beta2}, @var{epsilon}, @var{t})
## One fused optimiser step over an attention model (C).  Every array of
## @var{m} that the gradient struct @var{G} holds is read, updated and
## written in one pass.
##
## The learned arrays are the numeric leaves of @var{G} (the layout
## @code{attn_loss} returns), depth first in field order, struct arrays
## element by element; everything else in @var{m} (config, vocabularies,
## @code{heads}, sinusoidal positions) is copied unchanged.  With three
## arguments the step is gradient descent, @code{w + (-lr)*g}; with nine it
## is Adam at step @var{t} (1, 2, @dots{}):
## @display
## mom = beta1*mom + (1-beta1)*g,   vel = beta2*vel + (1-beta2)*g.^2
## w  += (-lr * mom/(1-beta1^t)) ./ (sqrt (vel/(1-beta2^t)) + epsilon)
## @end display
## @var{mom} and @var{vel} are columns with one entry per gradient entry
## in the order above, or @code{[]} at the first step (zeros).  The
## results are the same, bit for bit, as the formula written in Octave.
##
## This is the kernel behind @code{attn_sgd}, @code{attn_adam} and
## @code{attn_train}, which check their arguments and options; here only
## the layout is checked (@code{attention:type}, @code{attention:size}).
##
## @example
## @group
## m = struct ("W", [1 2], "config", "kept");
## m = attn_step (m, struct ("W", [10 -10]), 0.1);
## mat2str (m.W)
##   @result{} ans = [0 3]
## @end group
## @end example
## @seealso{attn_sgd, attn_adam, attn_train}
## @end deftypefn

## Independent reference: the two updates written out in Octave on a
## nested gradient struct with a struct array.
%!shared m, G, g, w
%! m = struct ("A", randn (3, 2), "layer", struct ("W", {randn(2), randn(2)}, "heads", {2, 2}),
%!             "config", struct ("name", "x", "words", {{"a", "b"}}), "b", randn (1, 4));
%! G = struct ("layer", struct ("W", {randn(2), randn(2)}), "A", randn (3, 2), "b", randn (1, 4));
%! ## depth first in G's field order, struct arrays element by element
%! g = [G.layer(1).W(:); G.layer(2).W(:); G.A(:); G.b(:)];
%! w = [m.layer(1).W(:); m.layer(2).W(:); m.A(:); m.b(:)];

%!test
%! s = attn_step (m, G, 0.25);
%! assert (s.A, m.A + (-0.25 * G.A));
%! assert (s.layer(2).W, m.layer(2).W + (-0.25 * G.layer(2).W));
%! assert ({s.layer.heads}, {2, 2});
%! assert (s.config, m.config);
%! assert (fieldnames (s), fieldnames (m));

%!test
%! mo = zeros (size (g));  ve = mo;  x = w;
%! s = m;  smo = [];  sve = [];
%! for t = 1:3
%!   gt = g * t;
%!   Gt = G;  Gt.layer(1).W *= t;  Gt.layer(2).W *= t;  Gt.A *= t;  Gt.b *= t;
%!   mo = 0.9 * mo + (1 - 0.9) * gt;
%!   ve = 0.99 * ve + (1 - 0.99) * gt .^ 2;
%!   x = x + (-0.01 * (mo / (1 - 0.9 ^ t)) ./ (sqrt (ve / (1 - 0.99 ^ t)) + 1e-8));
%!   [s, smo, sve] = attn_step (s, Gt, 0.01, smo, sve, 0.9, 0.99, 1e-8, t);
%! endfor
%! assert (smo, mo);
%! assert (sve, ve);
%! assert ([s.layer(1).W(:); s.layer(2).W(:); s.A(:); s.b(:)], x);

%!test
%! ## the arrays without a gradient come back as they were, of every kind a
%! ## model holds (and a few more): struct arrays, cells of structs,
%! ## strings, logicals, integers, single, complex, sparse, empty
%! extra = struct ("v", {1, "two"}, "c", {{struct("w", {"a", "b"})}, {}},
%!                 "t", {true(2, 1), int8([3 4])});
%! k = struct ("s", single ([1 2]), "z", 1 + 2i, "p", sparse ([0 1; 2 0]), "e", {{}});
%! mk = setfield (setfield (m, "extra", extra), "kinds", k);
%! mk.layer(2).note = "last";
%! s = attn_step (mk, G, 0.25);
%! assert (isequal (s.extra, extra) && isequal (s.kinds, k));
%! assert (isequal (s.layer(2).note, "last") && isempty (s.layer(1).note));
%! assert (isequal (s.config, m.config) && isequal ({s.layer.heads}, {2, 2}));
%! [s, mo] = attn_step (mk, G, 0.25, [], [], 0.9, 0.99, 1e-8, 1);
%! assert (isequal (s.extra, extra) && isequal (s.kinds, k) && numel (mo) == 18);

%!error id=attention:type attn_step (m, setfield (G, "extra", 1), 0.1)
%!error <G.A must be the gradient of an array M.A of its size> attn_step (m, setfield (G, "A", 1), 0.1)
%!error <G.layer\(2\).W must be the gradient> attn_step (m, setfield (G, "layer", struct ("W", {randn(2), 1})), 0.1)
%!error <mom must be \[\] or a real column of 18 entries> attn_step (m, G, 0.1, ones (3, 1), ones (18, 1), 0.9, 0.99, 1e-8, 1)
%!error <both be \[\]> attn_step (m, G, 0.1, [], ones (18, 1), 0.9, 0.99, 1e-8, 1)
%!error <t must be the step count> attn_step (m, G, 0.1, [], [], 0.9, 0.99, 1e-8, 0)
%!error id=attention:nargin attn_step (m, G)
%!error id=attention:type attn_step (m, G, "a")
