## -*- texinfo -*-
## @deftypefn {} {} ref_assert_close (@var{got}, @var{want}, @var{tol})
## @deftypefnx {} {} ref_assert_close (@var{got}, @var{want}, @var{tol}, @var{fields})
## Assert that arrays or structs agree to a relative tolerance.
##
## For arrays: norm (got - want) <= tol * max (norm (want), 1), taken over
## all elements; -Inf entries must match exactly.  For structs: every field
## of @var{want} (or the listed @var{fields}) must be in @var{got} with the
## same size and agree likewise; logical and char fields must be equal.  The
## error names the field and the relative error found.
##
## @example
## ref_assert_close (T_mex, T_ref, 1e-12, @{"Q", "scores", "A"@})
## @end example
## @end deftypefn

function ref_assert_close (got, want, tol, fields = [])
  if (isstruct (want))
    if (isempty (fields))
      fields = fieldnames (want);
    endif
    for f = fields(:)'
      if (! isfield (got, f{1}))
        error ("ref_assert_close: field '%s' missing", f{1});
      endif
      check (got.(f{1}), want.(f{1}), tol, f{1});
    endfor
  else
    check (got, want, tol, "value");
  endif
endfunction

function check (got, want, tol, name)
  if (! isequal (size (got), size (want)))
    error ("ref_assert_close: %s is %s, expected %s", name,
           mat2str (size (got)), mat2str (size (want)));
  endif
  if (ischar (want) || islogical (want))
    if (! isequal (got, want))
      error ("ref_assert_close: %s differs", name);
    endif
    return;
  endif
  inf_want = isinf (want);
  if (! isequal (isinf (got), inf_want) || any (got(inf_want) != want(inf_want)))
    error ("ref_assert_close: %s has Inf in other places", name);
  endif
  err = norm (got(! inf_want) - want(! inf_want));
  scale = max (norm (want(! inf_want)), 1);
  if (! (err <= tol * scale))     # false for NaN too
    error ("ref_assert_close: %s relative error %.3g > %.3g", name, err / scale, tol);
  endif
endfunction

%!test ref_assert_close ([1 -Inf], [1+1e-14 -Inf], 1e-12)
%!error <relative error> ref_assert_close ([1 2], [1 2.1], 1e-12)
%!error <Inf> ref_assert_close ([1 -Inf], [1 0], 1e-12)
%!error <NaN|relative> ref_assert_close ([1 NaN], [1 0], 1e-12)
%!error <missing> ref_assert_close (struct ("a", 1), struct ("b", 1), 1e-12)
%!error <differs> ref_assert_close (struct ("k", "self"), struct ("k", "mask"), 1e-12)
