## -*- texinfo -*-
## @deftypefn  {} {} attn_compare (@var{ref}, @var{got})
## @deftypefnx {} {} attn_compare (@var{ref}, @var{got}, @var{tol})
## @deftypefnx {} {} attn_compare (@dots{}, "fields", @var{names})
## @deftypefnx {} {[@var{ok}, @var{msg}] =} attn_compare (@dots{})
## Compare a student's trace or gradients with a reference, for grading.
##
## @var{ref} and @var{got} are structs (a kernel trace, a gradient struct, a
## model trace), struct arrays, cells or numeric arrays.  Every field of
## @var{ref} is looked up in @var{got} (extra fields of @var{got} are
## ignored) in the order of @var{ref}, descending into nested structs and
## cells.  The first difference found is reported: a missing field, a
## different class or size (both shapes given), a different string, or the
## first element where
## @code{abs (got - ref) > tol * max (1, abs (ref))}, with its subscript and
## both values.  Equal non-finite values (e.g. the @code{-Inf} of masked
## scores) agree.  @var{tol} defaults to @code{1e-10}.
##
## @code{"fields", @var{names}} restricts the comparison to the top-level
## fields in the cellstr @var{names}.
##
## Without output arguments a difference is an error with identifier
## @code{attention:mismatch} and the report as message, and agreement is
## silent: write @code{attn_compare (ref, got)} in a @code{%!test} block.
## With outputs, @var{ok} is true or false and @var{msg} the report
## (@code{"pass: @dots{}"} on agreement).
##
## @example
## @group
## ref = struct ("A", [0.5 0.5; 1 0], "message", [1 2; 3 4]);
## got = ref;  got.A(2, 1) = 0.9;
## [ok, msg] = attn_compare (ref, got)
## @result{} ok = 0
## @result{} msg = A (2×2): element (2,1) differs: expected 1, got 0.9 (difference 0.1 > tolerance 1e-10)
## [ok, msg] = attn_compare (ref, ref)
## @result{} ok = 1
## @result{} msg = pass: 2 fields, 8 numbers agree within 1e-10
## @end group
## @end example
##
## @seealso{attn_gradcheck}
## @end deftypefn

function [ok, msg] = attn_compare (ref, got, varargin)
  if (nargin < 2)
    print_usage ();
  endif
  tol = 1e-10;
  if (! isempty (varargin) && isnumeric (varargin{1}))
    tol = varargin{1};
    varargin(1) = [];
  endif
  if (! (isscalar (tol) && isreal (tol) && tol >= 0))
    error ("attention:type", "attn_compare: TOL: expected a non-negative real scalar");
  endif
  fields = {};
  if (numel (varargin) == 2 && strcmpi (varargin{1}, "fields") && iscellstr (varargin{2}))
    fields = varargin{2};
  elseif (! isempty (varargin))
    error ("attention:nargin", "attn_compare: expected (REF, GOT [, TOL] [, \"fields\", NAMES])");
  endif
  if (! isempty (fields))
    if (! isstruct (ref))
      error ("attention:type", "attn_compare: \"fields\" needs REF to be a struct, got %s", class (ref));
    endif
    missing = setdiff (fields, fieldnames (ref));
    if (! isempty (missing))
      error ("attention:field", "attn_compare: REF has no field \"%s\"", missing{1});
    endif
    ref = rmfield (ref, setdiff (fieldnames (ref), fields));
  endif
  [msg, nf, nn] = walk (ref, got, "", tol);
  ok = isempty (msg);
  if (ok)
    msg = sprintf ("pass: %d fields, %d numbers agree within %g", nf, nn, tol);
  elseif (nargout == 0)
    error ("attention:mismatch", "%s", msg);
  endif
endfunction

## First difference between r and g below path name ("" when none), and
## how many leaf fields and numbers were compared.
function [msg, nf, nn] = walk (r, g, name, tol)
  msg = "";
  nf = 0;
  nn = 0;
  label = name;
  if (isempty (label))
    label = "value";
  endif
  if (isstruct (r))
    if (! isstruct (g))
      msg = sprintf ("%s: expected a struct, got %s", label, describe (g));
    elseif (numel (r) != numel (g))
      msg = sprintf ("%s: expected a %s struct array, got %s", label,
                     shape_str (size (r)), shape_str (size (g)));
    else
      f = fieldnames (r);
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
            msg = sprintf ("%s: missing (expected %s)", sub, describe (r(k).(f{i})));
            return;
          endif
          [msg, a, b] = walk (r(k).(f{i}), g(k).(f{i}), sub, tol);
          nf += a;
          nn += b;
          if (! isempty (msg)), return; endif
        endfor
      endfor
    endif
  elseif (iscell (r))
    if (! iscell (g))
      msg = sprintf ("%s: expected a cell, got %s", label, describe (g));
    elseif (! isequal (size (r), size (g)))
      msg = sprintf ("%s: expected a %s cell, got %s", label,
                     shape_str (size (r)), shape_str (size (g)));
    else
      for k = 1:numel (r)
        [msg, a, b] = walk (r{k}, g{k}, sprintf ("%s{%d}", name, k), tol);
        nf += a;
        nn += b;
        if (! isempty (msg)), return; endif
      endfor
    endif
  elseif (ischar (r))
    nf = 1;
    if (! ischar (g) || ! strcmp (r, g))
      msg = sprintf ("%s: expected \"%s\", got %s", label, r, describe (g));
    endif
  else
    nf = 1;
    [msg, nn] = compare_numbers (r, g, label, tol);
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
    same = (r == g) | (isnan (r) & isnan (g));
    ## a non-finite value agrees only with the same non-finite value
    close = isfinite (r) & isfinite (g) & abs (g - r) <= tol * max (1, abs (r));
    bad = ! (same | close);
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
    endif
  endif
endfunction

function s = describe (x)
  if (ischar (x) && rows (x) <= 1)
    s = sprintf ("\"%s\"", x);
  else
    s = sprintf ("a %s %s", shape_str (size (x)), class (x));
  endif
endfunction

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
%! assert (msg, "scores (2×2): element (1,2) differs: expected -Inf, got 0 (non-finite values must match exactly)");
%! got.kind = "self";
%! [~, msg] = attn_compare (ref, got);
%! assert (msg, "kind: expected \"cross\", got \"self\"");
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
%!   assert (err.message, "A (2×2): element (2,1) differs: expected 0.2, got 0.5 (difference 0.3 > tolerance 1e-10)");
%! end_try_catch

%!error id=attention:type attn_compare (1, 1, -1)
%!error id=attention:field attn_compare (ref, ref, "fields", {"nope"})
%!error id=attention:nargin attn_compare (ref, ref, "fieldz", {"A"})
