## -*- texinfo -*-
## @deftypefn  {} {} attn_compare (@var{ref}, @var{got})
## @deftypefnx {} {} attn_compare (@var{ref}, @var{got}, @var{tol})
## @deftypefnx {} {} attn_compare (@dots{}, @var{name}, @var{value}, @dots{})
## @deftypefnx {} {[@var{ok}, @var{msg}, @var{differ}] =} attn_compare (@dots{})
## Compare attention traces or gradients with a reference. Compare a
## student's trace or gradients with a reference, for grading.
##
## @var{ref} and @var{got} are structs (a kernel trace, a gradient struct, a
## model trace), struct arrays, cells or numeric arrays.  Every field of
## @var{ref} is looked up in @var{got} (extra fields of @var{got} are
## ignored), descending into nested structs and cells.  A quantity differs
## when it is missing, of another class or size (both shapes given), a
## different string, or has an element where
## @code{abs (got - ref) > tol * max (1, abs (ref))}.  Equal non-finite
## values (e.g. the @code{-Inf} of masked scores) agree.  @var{tol}
## defaults to @code{1e-10}.
##
## The fields of a struct are visited @strong{in the order of the
## computation}, so that the first difference reported is the first wrong
## quantity, the one every later difference may come from:
## @itemize
## @item a trace (it has @code{Q}, @code{scores}, @code{A} or
## @code{logits}): @code{X}, @code{D}, @code{E}, @code{Q}, @code{K},
## @code{V}, @code{scores}, @code{A}, @code{message}, @code{delta},
## @code{out}, @code{logits}, @code{probs}, and a model trace's
## @code{source_rows} @dots{} @code{decoder_out} in the order of the pass;
## @item gradients (any other struct): backward from the loss,
## @code{dlogits}, @code{W_vocab}, @code{b_vocab}, @code{dout},
## @code{W_O}, @code{dmessage}, @code{dA}, @code{dV}, @code{W_V},
## @code{dscores}, @code{dQ}, @code{dK}, @code{W_Q}, @code{W_K},
## @code{dX}, @code{dD}, @code{dE}, then a model's @code{decoder},
## @code{encoder} and embedding tables.
## @end itemize
## Other fields follow in the order of @var{ref}.  The report gives the
## first difference in full (the subscript and both values of its first
## wrong element) and then names every other quantity that differs:
## @samp{also differ: delta, out}.
##
## Options (name, value):
## @table @code
## @item "fields"
## a cellstr: compare only these top-level fields of @var{ref}.
## @item "order"
## a cellstr of field names visited first, in this order (the order of
## the computation of a struct this function does not know).
## @item "name"
## the name of @var{ref} when it is a bare array (default @qcode{"value"}),
## e.g. @qcode{"A"} for a student's weights.
## @end table
##
## Without output arguments a difference is an error with identifier
## @code{attention:mismatch} and the report as message, and agreement is
## silent: write @code{attn_compare (ref, got)} in a @code{%!test} block.
## With outputs, @var{ok} is true or false, @var{msg} the report
## (@code{"pass: @dots{}"} on agreement) and @var{differ} a cellstr of the
## names of the quantities that differ, in the order of the computation.
##
## @example
## @group
## ref = struct ("A", [0.5 0.5; 1 0], "message", [1 2; 3 4]);
## got = ref;  got.A(2, 1) = 0.9;  got.message(1) = 0;
## [ok, msg] = attn_compare (ref, got)
## @result{} ok = 0
## @result{} msg = A (2×2): element (2,1) differs: expected 1, got 0.9 (difference 0.1 > tolerance 1e-10); also differ: message
## [ok, msg] = attn_compare (ref, ref)
## @result{} ok = 1
## @result{} msg = pass: 2 fields, 8 numbers agree within 1e-10
## [ok, msg] = attn_compare ([1 2], [1 3], "name", "A")
## @result{} ok = 0
## @result{} msg = A (1×2): element (1,2) differs: expected 2, got 3 (difference 1 > tolerance 2e-10)
## @end group
## @end example
##
## @seealso{attn_gradcheck, attn_grade, attn_softmax}
## @end deftypefn

function [ok, msg, differ] = attn_compare (ref, got, varargin)
  if (nargin < 2)
    print_usage ();
  endif
  tol = 1e-10;
  if (! isempty (varargin) && isnumeric (varargin{1}))
    tol = varargin{1};
    varargin(1) = [];
  endif
  if (! (isscalar (tol) && isreal (tol) && tol >= 0))
    error ("attention:type", "attn_compare: TOL: expected a non-negative real scalar, got %s",
           disp_arg (tol));
  endif
  opts = parse_options ("attn_compare", {"fields", {}, "any"; "order", {}, "any";
                                         "name", "value", "text"}, varargin);
  for opt = {"fields", "order"}
    if (! iscellstr (opts.(opt{1})))
      error ("attention:option", "attn_compare: option \"%s\" must be a cellstr of field names, got %s",
             opt{1}, disp_arg (opts.(opt{1})));
    endif
  endfor
  if (! isempty (opts.fields))
    if (! isstruct (ref))
      error ("attention:type", "attn_compare: \"fields\" needs REF to be a struct, got %s", class (ref));
    endif
    missing = setdiff (opts.fields, fieldnames (ref));
    if (! isempty (missing))
      error ("attention:field", "attn_compare: REF has no field \"%s\"", missing{1});
    endif
    ref = rmfield (ref, setdiff (fieldnames (ref), opts.fields));
  endif
  [diffs, nf, nn] = walk (ref, got, "", tol, opts);
  ok = isempty (diffs);
  differ = cell (1, 0);
  if (ok)
    msg = sprintf ("pass: %d fields, %d numbers agree within %g", nf, nn, tol);
    return;
  endif
  differ = diffs(1, :);
  msg = diffs{2, 1};
  if (columns (diffs) > 1)
    msg = sprintf ("%s; also differ: %s", msg, strjoin (diffs(1, 2:end), ", "));
  endif
  if (nargout == 0)
    error ("attention:mismatch", "%s", msg);
  endif
endfunction

## The order of the computation, forward and backward (see the help).
function names = forward_order ()
  names = {"X", "D", "E", "Q", "K", "V", "scores", "A", "message", "delta", "out", ...
           "source_rows", "encoder", "encoded", "target_rows", "decoder", ...
           "decoder_out", "logits", "probs"};
endfunction

function names = backward_order ()
  names = {"loss", "dlogits", "W_vocab", "b_vocab", "dout", "W_O", "dmessage", "dA", ...
           "dV", "W_V", "dscores", "dQ", "dK", "W_Q", "W_K", "dX", "dD", "dE", ...
           "decoder", "encoder", "tgt_pos", "tgt_embed", "src_pos", "src_embed"};
endfunction

## The fields F of a struct in the order they are computed.
function f = computation_order (f, first)
  if (isempty (first))
    if (any (ismember ({"Q", "scores", "A", "logits"}, f)))
      first = forward_order ();
    else
      first = backward_order ();
    endif
  endif
  [known, at] = ismember (f, first);
  [~, k] = sort (at(known));
  listed = f(known);
  f = [listed(k); f(! known)];
endfunction

## Every difference between r and g below path name, as a 2×N cell of
## {name; report} in the order of the computation, and how many leaf
## fields and numbers were compared.
function [diffs, nf, nn] = walk (r, g, name, tol, opts)
  diffs = cell (2, 0);
  nf = 0;
  nn = 0;
  label = name;
  if (isempty (label))
    label = opts.name;
  endif
  if (isstruct (r))
    if (! isstruct (g))
      diffs = {label; sprintf("%s: expected a struct, got %s", label, describe (g))};
    elseif (numel (r) != numel (g))
      diffs = {label; sprintf("%s: expected a %s struct array, got %s", label,
                              shape_str (size (r)), shape_str (size (g)))};
    else
      order = {};
      if (isempty (name))
        order = opts.order;
      endif
      f = computation_order (fieldnames (r), order);
      for k = 1:numel (r)
        prefix = name;
        if (numel (r) > 1)
          prefix = sprintf ("%s(%d)", name, k);
        endif
        if (! isempty (prefix))
          prefix = [prefix, "."];
        endif
        for i = 1:numel (f)
          sub = [prefix, f{i}];
          if (! isfield (g, f{i}))
            diffs(:, end+1) = {sub; sprintf("%s: missing (expected %s)", sub,
                                             describe (r(k).(f{i})))};
            continue;
          endif
          [d, a, b] = walk (r(k).(f{i}), g(k).(f{i}), sub, tol, opts);
          diffs = [diffs, d];
          nf += a;
          nn += b;
        endfor
      endfor
    endif
  elseif (iscell (r))
    if (! iscell (g))
      diffs = {label; sprintf("%s: expected a cell, got %s", label, describe (g))};
    elseif (! isequal (size (r), size (g)))
      diffs = {label; sprintf("%s: expected a %s cell, got %s", label,
                              shape_str (size (r)), shape_str (size (g)))};
    else
      for k = 1:numel (r)
        [d, a, b] = walk (r{k}, g{k}, sprintf ("%s{%d}", name, k), tol, opts);
        diffs = [diffs, d];
        nf += a;
        nn += b;
      endfor
    endif
  elseif (ischar (r))
    nf = 1;
    if (! ischar (g) || ! strcmp (r, g))
      diffs = {label; sprintf("%s: expected \"%s\", got %s", label, r, describe (g))};
    endif
  else
    nf = 1;
    [msg, nn] = compare_numbers (r, g, label, tol);
    if (! isempty (msg))
      diffs = {label; msg};
    endif
  endif
endfunction

function [msg, nn] = compare_numbers (r, g, label, tol)
  msg = "";
  nn = 0;
  if (! (isnumeric (g) || islogical (g)))
    msg = sprintf ("%s: expected a %s numeric array, got %s", label,
                   shape_str (size (r)), describe (g));
  elseif (! isequal (size (r), size (g)))
    msg = sprintf ("%s: expected size %s, got %s", label,
                   shape_str (size (r)), shape_str (size (g)));
  elseif (iscomplex (g) && ! iscomplex (r))
    msg = sprintf ("%s: expected real numbers, got complex", label);
  else
    r = double (r);
    g = double (g);
    bad = ! agree (r, g, tol);
    nn = numel (r);
    k = find (bad, 1);
    if (! isempty (k))
      sub = cell (1, ndims (r));
      [sub{:}] = ind2sub (size (r), k);
      if (isfinite (r(k)) && isfinite (g(k)))
        why = sprintf ("difference %.2g > tolerance %.2g", abs (g(k) - r(k)), tol * max (1, abs (r(k))));
      else
        why = "non-finite values must match exactly";
      endif
      msg = sprintf ("%s (%s): element (%s) differs: expected %.12g, got %.12g (%s)",
                     label, shape_str (size (r)), sprintf ("%d,", sub{:})(1:end-1), r(k), g(k), why);
      kind = wrong_pattern (r, g, bad, tol);
      if (! isempty (kind))
        msg = sprintf ("%s (%s)", msg, kind);
      endif
    endif
  endif
endfunction

## Where g agrees with the reference r: equal (non-finite values only with
## the same non-finite value), or within tol * max (1, |r|).
function ok = agree (r, g, tol)
  ok = (r == g) | (isnan (r) & isnan (g)) ...
       | (isfinite (r) & isfinite (g) & abs (g - r) <= tol * max (1, abs (r)));
endfunction

## The common mistake that explains every wrong element of g (BAD), or "":
## NaN where the reference has 0, a masked entry not 0 (or not -Inf), the
## sign flipped, everything off by one factor, transposed, or the rows
## shifted by one.
function kind = wrong_pattern (r, g, bad, tol)
  kind = "";
  all_ok = @(x, y) all (agree (x, y, tol)(:));
  nr = rows (r);
  pages = @(x, i) x(i, :, :);       # rows i of every page (dims 2.. kept)
  nz = isfinite (r) & r != 0 & isfinite (g);
  if (all (isnan (g(bad)) & r(bad) == 0))
    kind = sprintf ("NaN where the reference has 0, at %d element%s: a row with no allowed key must give 0, not 0/0",
                    nnz (bad), merge (nnz (bad) == 1, "", "s"));
  elseif (all (r(bad) == 0))
    kind = sprintf ("the reference is exactly 0 at every wrong element (%d): a masked entry that is not zero?",
                    nnz (bad));
  elseif (all (r(bad) == -Inf))
    kind = sprintf ("the reference is -Inf (masked) at every wrong element (%d): a masked score that is not -Inf?",
                    nnz (bad));
  elseif (any (nz(:)) && all_ok (-r, g))
    kind = "the sign is flipped: got = -expected everywhere";
  elseif (any (nz(:)) && g(find (nz, 1)) != 0
          && all_ok ((g(find (nz, 1)) / r(find (nz, 1))) * r, g))
    c = g(find (nz, 1)) / r(find (nz, 1));
    kind = sprintf ("off by one factor: got = %.6g × expected everywhere%s", c, root_note (c));
  elseif (nr > 1 && nr == columns (r) && all_ok (permute (r, [2 1 3:ndims(r)]), g))
    kind = "transposed: got = expected' (rows and columns swapped)";
  elseif (nr > 1 && all_ok (pages (r, 1:nr-1), pages (g, 2:nr)))
    kind = "shifted by one row: got row i+1 = expected row i";
  elseif (nr > 1 && all_ok (pages (r, 2:nr), pages (g, 1:nr-1)))
    kind = "shifted by one row: got row i = expected row i+1";
  endif
endfunction

## ", c = sqrt(n): ..." when the factor c or 1/c is the square root of a
## whole n from 2 to 4096 (e.g. a scaling by sqrt(dk) missing or applied
## twice).
function s = root_note (c)
  s = "";
  for v = [abs(c), 1 / abs(c)]
    n = round (v ^ 2);
    if (n >= 2 && n <= 4096 && abs (v - sqrt (n)) <= 1e-9 * v)
      s = sprintf (", %.6g = %ssqrt(%d): a scaling by sqrt(dk) missing or applied twice?",
                   c, merge (v == abs (c), "", "1/"), n);
      return;
    endif
  endfor
endfunction

function s = describe (x)
  if (ischar (x) && rows (x) <= 1)
    s = sprintf ("\"%s\"", x);
  else
    s = sprintf ("a %s %s", shape_str (size (x)), class (x));
  endif
endfunction

%!test
%! ## the common mistakes are named: each wrong array built from the
%! ## reference by the mistake, the name checked against it
%! R = [0.6 0.4 0; 0.1 0.2 0.7; 0.3 0.3 0.4];
%! nan_row = R;  nan_row(1,3) = NaN;
%! unmasked = R;  unmasked(1,3) = 0.1;
%! cases = {2 * R, "off by one factor: got = 2 × expected everywhere, 2 = sqrt(4): a scaling by sqrt(dk) missing or applied twice?";
%!          1.5 * R, "off by one factor: got = 1.5 × expected everywhere)";
%!          -R, "the sign is flipped: got = -expected everywhere";
%!          R', "transposed: got = expected' (rows and columns swapped)";
%!          [0 0 0; R(1:2,:)], "shifted by one row: got row i+1 = expected row i";
%!          [R(2:3,:); 1 1 1], "shifted by one row: got row i = expected row i+1";
%!          nan_row, "NaN where the reference has 0, at 1 element";
%!          unmasked, "the reference is exactly 0 at every wrong element (1): a masked entry that is not zero?"};
%! for k = 1:rows (cases)
%!   [ok, msg] = attn_compare (R, cases{k,1}, "name", "A");
%!   assert (! ok);
%!   assert (! isempty (strfind (msg, cases{k,2})), "%s\n%s", cases{k,2}, msg);
%! endfor
%! [~, msg] = attn_compare ([1 -Inf; 2 3], [1 -1e9; 2 3], "name", "scores");
%! assert (! isempty (strfind (msg, "the reference is -Inf (masked) at every wrong element (1)")));
%! ## a mistake of no such kind names none; a trace's first wrong field does
%! wrong = R;  wrong(2,2) = 5;
%! [~, msg] = attn_compare (R, wrong, "name", "A");
%! assert (msg, "A (3×3): element (2,2) differs: expected 0.2, got 5 (difference 4.8 > tolerance 1e-10)");
%! [~, msg] = attn_compare (R, zeros (3), "name", "A");
%! assert (isempty (strfind (msg, "factor")));
%! [~, msg] = attn_compare (struct ("scores", R, "A", R), struct ("scores", R / 2, "A", R));
%! assert (regexp (msg, '^scores \(3×3\): .*off by one factor: got = 0.5 × expected everywhere, 0.5 = 1/sqrt\(4\)'), 1);

%!shared ref
%! ref = struct ("kind", "cross", "A", [0.5 0.5; 0.2 0.8], "scores", [0 -Inf; 1 2],
%!               "inner", struct ("W", {eye(2), 2 * eye(2)}), "c", {{1, [2 3]}});

%!test
%! [ok, msg] = attn_compare (ref, ref);
%! assert (ok);
%! assert (msg, "pass: 7 fields, 19 numbers agree within 1e-10");

%!test
%! got = ref;
%! got.extra = 1;
%! got.A(2, 2) += 1e-12;
%! assert (attn_compare (ref, got));
%! attn_compare (ref, got);

%!test
%! got = ref;
%! got.A(1, 2) = 0.5 + 1e-6;
%! [ok, msg] = attn_compare (ref, got);
%! assert (! ok);
%! assert (msg, "A (2×2): element (1,2) differs: expected 0.5, got 0.500001 (difference 1e-06 > tolerance 1e-10)");
%! [ok, msg] = attn_compare (ref, got, 1e-5);
%! assert (ok);

%!test
%! got = ref;
%! got.inner(2).W(2, 1) = 7;
%! [ok, msg] = attn_compare (ref, got);
%! assert (strncmp (msg, "inner(2).W (2×2): element (2,1) differs: expected 0, got 7 ", 59));

%!test
%! got = ref;
%! got.c{2} = [2; 3];
%! [~, msg] = attn_compare (ref, got);
%! assert (msg, "c{2}: expected size 1×2, got 2×1");
%! got = rmfield (ref, "scores");
%! [~, msg] = attn_compare (ref, got);
%! assert (msg, "scores: missing (expected a 2×2 double)");
%! got = ref;
%! got.scores(1, 2) = 0;
%! [~, msg] = attn_compare (ref, got);
%! assert (msg, ["scores (2×2): element (1,2) differs: expected -Inf, got 0 (non-finite values must match exactly)", ...
%!              " (the reference is -Inf (masked) at every wrong element (1): a masked score that is not -Inf?)"]);
%! got.kind = "self";
%! [~, msg, differ] = attn_compare (ref, got);
%! assert (msg, ["scores (2×2): element (1,2) differs: expected -Inf, got 0 (non-finite values must match exactly)", ...
%!              " (the reference is -Inf (masked) at every wrong element (1): a masked score that is not -Inf?);", ...
%!              " also differ: kind"]);
%! assert (differ, {"scores", "kind"});
%! [ok, msg] = attn_compare (ref, got, "fields", {"A", "c"});
%! assert (ok);
%! assert (msg, "pass: 3 fields, 7 numbers agree within 1e-10");

%!test
%! ## the relative part of the tolerance: large values, small relative error
%! assert (attn_compare (1e6, 1e6 * (1 + 1e-11)));
%! assert (! attn_compare (1e6, 1e6 * (1 + 1e-9)));
%! assert (! attn_compare (1, NaN));
%! assert (attn_compare (NaN, NaN));

%!test
%! got = ref;
%! got.A = got.A';
%! try
%!   attn_compare (ref, got);
%!   error ("not reached");
%! catch err
%!   assert (err.identifier, "attention:mismatch");
%!   assert (err.message, ["A (2×2): element (2,1) differs: expected 0.2, got 0.5 (difference 0.3 > tolerance 1e-10)", ...
%!                         " (transposed: got = expected' (rows and columns swapped))"]);
%! end_try_catch

%!error id=attention:type attn_compare (1, 1, -1)
%!error id=attention:field attn_compare (ref, ref, "fields", {"nope"})
%!test
%! ## a trace: the first wrong quantity in the order of the computation,
%! ## whatever the order of the fields, and every other one named
%! T = struct ("out", ones (2), "delta", ones (2), "message", ones (2), "A", eye (2),
%!             "scores", eye (2), "V", eye (2), "K", eye (2), "Q", eye (2));
%! got = T;
%! got.out(1) = 0;
%! got.message(2) = 0;
%! got.delta(1) = 0;
%! [ok, msg, differ] = attn_compare (T, got);
%! assert (differ, {"message", "delta", "out"});
%! assert (strncmp (msg, "message (2×2): element (2,1) differs", 36));
%! assert (regexp (msg, '; also differ: delta, out$', "once") > 0);

%!test
%! ## gradients: backward from the loss, W_O first and dX last
%! G = struct ("W_Q", 1, "W_K", 2, "W_V", 3, "W_O", 4, "dX", 5);
%! got = struct ("W_Q", 0, "W_K", 0, "W_V", 0, "W_O", 4, "dX", 0);
%! [~, ~, differ] = attn_compare (G, got);
%! assert (differ, {"W_V", "W_Q", "W_K", "dX"});
%! ## nested: a model's gradient tree, head first
%! G = struct ("src_embed", 1, "decoder", struct ("cross", struct ("W_Q", 1, "W_O", 2)),
%!             "W_vocab", 3);
%! got = G;
%! got.src_embed = 0;
%! got.decoder.cross.W_Q = 0;
%! [~, ~, differ] = attn_compare (G, got);
%! assert (differ, {"decoder.cross.W_Q", "src_embed"});
%! [~, ~, differ] = attn_compare (G, got, "order", {"src_embed"});
%! assert (differ, {"src_embed", "decoder.cross.W_Q"});

%!test
%! ## a bare matrix named by "name"
%! [ok, msg] = attn_compare ([1 2; 3 4], [1 2; 3 5], "name", "A");
%! assert (msg, "A (2×2): element (2,2) differs: expected 4, got 5 (difference 1 > tolerance 4e-10)");
%! [~, msg] = attn_compare ([1 2], [1 2 3], 0.1, "name", "dS");
%! assert (msg, "dS: expected size 1×2, got 1×3");
%! [~, msg] = attn_compare ([1 2], [1 2]);
%! assert (msg, "pass: 1 fields, 2 numbers agree within 1e-10");

%!error id=attention:option attn_compare (ref, ref, "fieldz", {"A"})
%!error id=attention:option attn_compare (ref, ref, "order", "A")
%!error id=attention:option attn_compare (1, 1, "name", 3)
