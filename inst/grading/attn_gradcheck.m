## -*- texinfo -*-
## @deftypefn  {} {} attn_gradcheck (@var{f}, @var{P})
## @deftypefnx {} {} attn_gradcheck (@var{f}, @var{P}, @var{name}, @var{value}, @dots{})
## @deftypefnx {} {[@var{ok}, @var{report}, @var{text}] =} attn_gradcheck (@dots{})
## Check attention gradients against finite differences. Check analytic
## gradients against central finite differences.
##
## @var{f} is a function handle with @code{[@var{L}, @var{G}] = f (@var{P})}:
## a scalar loss @var{L} and its gradient @var{G} with respect to the
## parameters @var{P}.  @var{P} is a numeric array, or a struct (nested
## structs, struct arrays and cells allowed) holding numeric arrays; @var{G}
## has the same layout.  Every numeric array in @var{G} is checked against
## the array at the same place in @var{P}; a gradient field @code{dX} is
## matched to the parameter @code{X} (the kernels' naming of input
## gradients), so @code{attn_backward}'s result can be checked directly.
## Arrays of @var{P} with no gradient in @var{G} (e.g. @code{heads}) are
## left alone; a @var{G} with no numeric array at all is an
## @code{attention:field} error, not a pass.
##
## For each checked element, the numerical derivative is
## @code{(f (P + h e) - f (P - h e)) / (2 h)}.  A parameter passes when
## @code{max |num - ana| <= tol * max (max |num|, max |ana|)} or
## @code{max |num - ana| <= atol}.
##
## Options (name, value):
## @table @code
## @item "step"
## h (default @code{1e-5}).
## @item "tol"
## relative tolerance (default @code{1e-7}).
## @item "atol"
## absolute tolerance for gradients that are zero (default @code{1e-9}).
## @item "samples"
## at most this many elements per array, spread evenly over it
## (default @code{Inf}: all).
## @end table
## An unknown option or a value out of range is an @code{attention:option}
## error.
##
## Without output arguments a per-parameter table is printed.  @var{ok} is
## true when every parameter passes; @var{report} is a struct array with
## fields @code{name}, @code{shape}, @code{checked}, @code{max_abs},
## @code{rel}, @code{worst} (subscript of the largest difference),
## @code{numerical}, @code{analytic} (at that element) and @code{ok};
## Arrays are named by their place in @var{P}: @code{layer(2).W},
## @code{c@{1@}}; a model's layers as @code{attn_show} lists them,
## @code{encoder.1.self.W_Q} (the array @code{P.encoder(1).self.W_Q}), with
## one layer too.
## @var{text} is the printed table, e.g. for a grader's error message:
## @code{[ok, ~, text] = attn_gradcheck (f, P); assert (ok, "%s", text)}.
##
## @example
## @group
## f = @@(P) deal (sum (P.w .^ 2) + 3 * P.b, struct ("w", 2 * P.w, "b", 3));
## ok = attn_gradcheck (f, struct ("w", [1 -2 0.5], "b", 4))
## @result{} ok = 1
## g = @@(P) deal (sum (P.w .^ 2), struct ("w", P.w));   # wrong: misses 2
## [ok, r] = attn_gradcheck (g, struct ("w", [1 -2 0.5]));
## ok, r.worst
## @result{} ok = 0
## @result{} ans = 1 2
## @end group
## @end example
##
## @seealso{attn_compare, attn_backward}
## @end deftypefn

function [ok, report, text] = attn_gradcheck (f, P, varargin)
  if (nargin < 2)
    print_usage ();
  endif
  if (! is_function_handle (f))
    error ("attention:type", "attn_gradcheck: F: expected a function handle, got %s", class (f));
  endif
  opts = parse_options ("attn_gradcheck", {"step", 1e-5, "real (0, Inf)";
                                           "tol", 1e-7, "real (0, Inf)";
                                           "atol", 1e-9, "real (0, Inf)";
                                           "samples", Inf, "integer [1, Inf]"}, varargin);
  [L0, G] = f (P);
  if (! (isnumeric (L0) && isreal (L0) && isscalar (L0)))
    error ("attention:type", "attn_gradcheck: F must return a real scalar loss, got a %s %s",
           shape_str (size (L0)), class (L0));
  endif
  leaves = numeric_leaves (G);
  if (isempty (leaves))
    ## nothing checked must not read as a pass
    error ("attention:field", "attn_gradcheck: G holds no numeric gradient, got %s", disp_arg (G));
  endif
  report = struct ("name", {}, "shape", {}, "checked", {}, "max_abs", {}, "rel", {},
                   "worst", {}, "numerical", {}, "analytic", {}, "ok", {});
  for k = 1:numel (leaves)
    [psubs, pname] = parameter_of (P, leaves(k));
    ana = subsref (G, leaves(k).subs);
    x = subsref_or_self (P, psubs);
    if (! isequal (size (ana), size (x)))
      error ("attention:size", "attn_gradcheck: gradient %s is %s but parameter %s is %s",
             leaves(k).name, shape_str (size (ana)), pname, shape_str (size (x)));
    endif
    idx = pick (numel (x), opts.samples);
    num = zeros (numel (idx), 1);
    for i = 1:numel (idx)
      num(i) = central_difference (f, P, psubs, x, idx(i), opts.step);
    endfor
    a = ana(idx)(:);
    [max_abs, w] = max (abs (num - a));
    scale = max ([abs(num); abs(a)]);
    rel = max_abs / max (scale, realmin);
    sub = cell (1, ndims (x));
    [sub{:}] = ind2sub (size (x), idx(w));
    report(end+1) = struct ("name", pname, "shape", shape_str (size (x)), "checked", numel (idx),
                            "max_abs", max_abs, "rel", rel, "worst", [sub{:}],
                            "numerical", num(w), "analytic", a(w),
                            "ok", max_abs <= opts.tol * scale || max_abs <= opts.atol);
  endfor
  ok = all ([report.ok]);
  if (nargout == 0)
    printf ("%s", report_text (report, opts));
    clear ok;
  elseif (nargout > 2)
    text = report_text (report, opts);
  endif
endfunction

## Where gradient leaf g sits in P: the same path, or with its last field
## "dX" read as "X".
function [subs, name] = parameter_of (P, g)
  subs = g.subs;
  name = g.name;
  if (isnumeric (P))
    return;
  endif
  if (! has_path (P, subs) && ! isempty (subs) && strcmp (subs(end).type, ".")
      && numel (subs(end).subs) > 1 && subs(end).subs(1) == "d")
    subs(end).subs = subs(end).subs(2:end);
    name = regexprep (name, 'd(\w+)$', '$1');
  endif
  if (! has_path (P, subs))
    error ("attention:field", "attn_gradcheck: gradient %s has no parameter at the same place in P",
           g.name);
  endif
endfunction

function tf = has_path (P, subs)
  try
    v = subsref_or_self (P, subs);
    tf = isnumeric (v);
  catch
    tf = false;
  end_try_catch
endfunction

function v = subsref_or_self (P, subs)
  if (isempty (subs))
    v = P;
  else
    v = subsref (P, subs);
  endif
endfunction

function P = subsasgn_or_self (P, subs, v)
  if (isempty (subs))
    P = v;
  else
    P = subsasgn (P, subs, v);
  endif
endfunction

## Indices to check: all, or n spread evenly from first to last.
function idx = pick (total, n)
  if (total <= n)
    idx = (1:total)';
  else
    idx = unique (round (linspace (1, total, n)))';
  endif
endfunction

function d = central_difference (f, P, subs, x, i, h)
  xp = x;  xp(i) += h;
  xm = x;  xm(i) -= h;
  ## two outputs: F may be written for exactly two (e.g. with deal)
  [Lp, ~] = f (subsasgn_or_self (P, subs, xp));
  [Lm, ~] = f (subsasgn_or_self (P, subs, xm));
  d = (Lp - Lm) / (2 * h);
endfunction

function s = report_text (report, opts)
  w = max ([9, cellfun(@numel, {report.name})]);
  s = sprintf ("%-*s  %-9s %8s %14s %11s  %s\n", w, "parameter", "shape", "checked",
               "max|num-ana|", "relative", "result");
  for r = report
    s = [s, sprintf("%-*s  %-9s %8d %14.2e %11.2e  %s\n", w, r.name, r.shape, r.checked,
                    r.max_abs, r.rel, merge (r.ok, "ok", "FAIL"))];
    if (! r.ok)
      s = [s, sprintf("%*s  worst at (%s): numerical %.10g, analytic %.10g\n", w, "",
                      sprintf ("%d,", r.worst)(1:end-1), r.numerical, r.analytic)];
    endif
  endfor
  nbad = sum (! [report.ok]);
  if (nbad == 0)
    s = [s, sprintf("all %d parameters agree (relative tolerance %g, absolute %g)\n",
                    numel (report), opts.tol, opts.atol)];
  else
    s = [s, sprintf("%d of %d parameters FAIL (relative tolerance %g, absolute %g)\n",
                    nbad, numel (report), opts.tol, opts.atol)];
  endif
endfunction

## L = numeric_leaves (S):
## The numeric arrays inside S (struct, struct array, cell, or array),
## depth first in field order: a struct array with name (e.g.
## "layer(2).W", or "decoder.1.cross.W_Q" in a model's stack, as attn_show
## names it) and subs (for subsref and subsasgn).  A numeric S itself is
## one leaf named "x".
function L = numeric_leaves (S)
  L = struct ("name", {}, "subs", {});
  if (isnumeric (S))
    L(1).name = "x";
    L(1).subs = struct ("type", {}, "subs", {});
    return;
  endif
  L = walk (S, "", struct ("type", {}, "subs", {}), L);
endfunction

function L = walk (S, name, subs, L)
  if (isstruct (S))
    f = fieldnames (S);
    layers = ! isempty (regexp (name, '(^|\.)(encoder|decoder)$', "once"));
    for k = 1:numel (S)
      pre = name;
      sk = subs;
      if (layers)                  # a model's stack: numbered even with one layer
        pre = sprintf ("%s.%d", name, k);
      elseif (numel (S) > 1)
        pre = sprintf ("%s(%d)", name, k);
      endif
      if (layers || numel (S) > 1)
        sk(end+1) = struct ("type", "()", "subs", {{k}});
      endif
      for i = 1:numel (f)
        dot = ifelse_dot (pre);
        L = walk (S(k).(f{i}), [pre, dot, f{i}], [sk, struct("type", ".", "subs", f{i})], L);
      endfor
    endfor
  elseif (iscell (S))
    for k = 1:numel (S)
      L = walk (S{k}, sprintf ("%s{%d}", name, k), [subs, struct("type", "{}", "subs", {{k}})], L);
    endfor
  elseif (isnumeric (S) && isreal (S) && ! isempty (S))
    L(end+1) = struct ("name", name, "subs", subs);
  endif
endfunction

function d = ifelse_dot (pre)
  d = "";
  if (! isempty (pre))
    d = ".";
  endif
endfunction

%!function [L, G] = masked_loss (P, R, wrong)
%!  B = rmfield (P, "X");
%!  [Y, T] = attn_masked (P.X, B);
%!  L = sum (R(:) .* Y(:));
%!  G = attn_backward (R, T, B);
%!  G.W_O *= wrong;
%!endfunction

%!function [L, G] = nested_loss (Q)
%!  W1 = Q.layer(1).W;
%!  W2 = Q.layer(2).W;
%!  L = sum (W1(:) .^ 3) + prod (W2(:) + 1) + sum (Q.c{1});
%!  G.layer(1).W = 3 * W1 .^ 2;
%!  G.layer(2).W = prod (W2(:) + 1) ./ (W2 + 1);
%!  G.c = {ones(1, 3)};
%!endfunction

%!shared P, R
%! rand ("seed", 3);  randn ("seed", 3);
%! P = struct ("X", randn (4, 6), "W_Q", randn (6, 4) / 2, "W_K", randn (6, 4) / 2,
%!             "W_V", randn (6, 2), "W_O", randn (2, 6), "heads", 2);
%! R = randn (4, 6);

%!test
%! ## the kernels' backward of the masked block passes, dX matched to X
%! [ok, r] = attn_gradcheck (@(Q) masked_loss (Q, R, 1), P);
%! assert (ok);
%! assert ({r.name}, {"W_Q", "W_K", "W_V", "W_O", "X"});
%! assert ([r.checked], [24 24 12 12 24]);
%! assert (all ([r.rel] < 1e-7));

%!test
%! ## a wrong W_O gradient fails, and only W_O
%! [ok, r] = attn_gradcheck (@(Q) masked_loss (Q, R, 2), P);
%! assert (! ok);
%! assert ([r.ok], [true true true false true]);
%! w = r(4);
%! assert (w.analytic, 2 * w.numerical, 1e-6 * abs (w.numerical));
%! assert (w.rel, 0.5, 1e-6);

%!test
%! ## nested parameters: struct arrays and cells, and the "samples" option
%! P2.layer(1).W = [1 2; 3 4];
%! P2.layer(2).W = [0.5 -1; 2 0];
%! P2.c = {[1 2 3]};
%! f = @nested_loss;
%! [ok, r] = attn_gradcheck (f, P2);
%! assert (ok);
%! assert ({r.name}, {"layer(1).W", "layer(2).W", "c{1}"});
%! ## a model's layers as attn_show lists them, one layer too
%! m = attn_toy ("river");
%! [~, r] = attn_gradcheck (@(p) attn_loss (p, "the river bank", "la rive"), m, "samples", 1);
%! names = {r.name};
%! assert (names([5 9 13]), {"encoder.1.self.W_Q", "decoder.1.self.W_Q", "decoder.1.cross.W_Q"});
%! listed = regexp (attn_show (m), '(?<=\n)(\S+)\s+\d+×', "tokens");
%! assert (names, cellfun (@(t) t{1}, listed, "UniformOutput", false));
%! [ok, r] = attn_gradcheck (f, P2, "samples", 2);
%! assert ([r.checked], [2 2 2]);

%!test
%! ## a plain array parameter; an all-zero gradient passes by atol
%! [ok, r] = attn_gradcheck (@(x) deal (sum (exp (x(:))), exp (x)), [0 1; -1 2]);
%! assert (ok);
%! assert (r.name, "x");
%! [ok, r] = attn_gradcheck (@(x) deal (5, zeros (size (x))), [1 2]);
%! assert (ok && r.max_abs == 0);

%!test
%! out = evalc ("attn_gradcheck (@(Q) masked_loss (Q, R, 2), P)");
%! [~, ~, txt] = attn_gradcheck (@(Q) masked_loss (Q, R, 2), P);
%! assert (txt, out);
%! assert (! isempty (strfind (out, "1 of 5 parameters FAIL")));
%! assert (! isempty (regexp (out, 'W_O +2×6 +12 .* FAIL')));

%!error id=attention:type attn_gradcheck (1, 2)
%!error id=attention:type attn_gradcheck (@(x) deal ([1 2], x), 1)
%!error id=attention:size attn_gradcheck (@(x) deal (1, [1 2 3]), [1 2])
%!error id=attention:field attn_gradcheck (@(P) deal (1, struct ("y", 1)), struct ("x", 1))
%!error <no numeric gradient> attn_gradcheck (@(P) deal (1, struct ()), struct ("x", 1))
%!error id=attention:option attn_gradcheck (@(x) deal (1, x), 1, "stepsize", 1e-3)
%!error id=attention:option attn_gradcheck (@(x) deal (1, x), 1, "step", -1)
%!error id=attention:option attn_gradcheck (@(x) deal (1, x), 1, "samples", 0.5)
