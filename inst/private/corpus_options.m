## opts = corpus_options (opts, defaults, caller)
## Fill OPTS from DEFAULTS (both scalar structs) and check every value: an
## unknown field, a count (name starting "n_" or "max_") that is not a
## non-negative integer, or a fraction outside [0, 0.5) is an error naming
## the field and the value given.
function opts = corpus_options (opts, defaults, caller)
  for f = fieldnames (opts)'
    if (! isfield (defaults, f{1}))
      error ("attention:field", "%s: unknown option '%s' (known: %s)",
             caller, f{1}, strjoin (fieldnames (defaults)', ", "));
    endif
  endfor
  for f = fieldnames (defaults)'
    name = f{1};
    if (! isfield (opts, name))
      opts.(name) = defaults.(name);
    endif
    v = opts.(name);
    if (! (isnumeric (v) && isreal (v) && isscalar (v) && isfinite (v)))
      error ("attention:type", "%s: OPTS.%s must be a real finite scalar, got a %s of size %s",
             caller, name, class (v), mat2str (size (v)));
    endif
    if (any (strncmp (name, {"n_", "max_"}, [2 4])) && (v < 0 || v != fix (v)))
      error ("attention:size", "%s: OPTS.%s must be a non-negative integer, got %g",
             caller, name, v);
    endif
    if (strcmp (name, "heldout") && ! (v > 0 && v < 0.5))
      error ("attention:size", "%s: OPTS.heldout must lie in (0, 0.5), got %g", caller, v);
    endif
    opts.(name) = double (v);
  endfor
endfunction
