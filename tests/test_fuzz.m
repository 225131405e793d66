## The MEX gateways under generated bad input (tests/fuzz/fuzz_gateways.m,
## fast mode, fixed seed): every case returns normally with finite outputs
## or raises an attention:* error.  `make fuzz` prints the full report,
## `make soak` runs many more cases.

%!shared r
%! d = "fuzz";
%! if (! isfolder (d))
%!   d = fullfile ("tests", "fuzz");
%! endif
%! addpath (canonicalize_file_name (d));
%! r = fuzz_gateways (1500, 1);

%!function show (r)
%!  for f = r.failures
%!    printf ("case %d: %s (%s); %s: %s\n", f.case, f.fn, f.args, f.what,
%!            f.message);
%!  endfor
%!endfunction

%!function n = outcome (r, id)
%!  n = sum (r.counts(strncmp (r.ids, id, numel (id))));
%!endfunction

## no error without an attention:* identifier (and no fault of the harness)
%!test
%! n = outcome (r, "FAIL:error") + outcome (r, "FAIL:harness");
%! if (n > 0)
%!   show (r);
%! endif
%! assert (n, 0);

## no Inf or NaN returned without an error
%!test
%! n = outcome (r, "FAIL:nonfinite");
%! if (n > 0)
%!   show (r);
%! endif
%! assert (n, 0);

## the harness reaches every kind of rejection and many normal returns
%!test
%! for id = {"ok", "attention:type", "attention:size", "attention:field", ...
%!           "attention:heads", "attention:mask", "attention:nonfinite", ...
%!           "attention:nargin", "attention:nargout", "attention:toolarge"}
%!   assert (outcome (r, id{1}) >= 5, sprintf ("only %d cases of %s",
%!                                             outcome (r, id{1}), id{1}));
%! endfor
%! assert (sum (r.counts), 1500);
%! assert (numel (r.outcomes), 1500);

## a case replayed alone has the outcome it had in the run
%!test
%! for i = [17 400 1234]
%!   one = fuzz_gateways (1, 1, i);
%!   assert (one.outcomes, r.outcomes(i));
%! endfor

## The grading channel's decoder (tests/fuzz/fuzz_codec.m): mutated
## encodings decode to a value that survives another round trip, or raise
## attention:channel; a case replayed alone has the outcome it had.
%!test
%! d = "fuzz";
%! if (! isfolder (d))
%!   d = fullfile ("tests", "fuzz");
%! endif
%! addpath (canonicalize_file_name (d));
%! q = fuzz_codec (1000, 1);
%! for f = q.failures
%!   printf ("case %d: %s: %s\n", f.case, f.what, f.message);
%! endfor
%! assert (q.nfail, 0);
%! assert (sort (q.ids(:)'), {"attention:channel", "ok"});
%! assert (min (q.counts) >= 20, sprintf ("%d %s", [num2cell(q.counts'); q.ids(:)']{:}));
%! for i = [3 500]
%!   one = fuzz_codec (1, 1, i);
%!   assert (one.outcomes, q.outcomes(i));
%! endfor

## The model layer (tests/fuzz/fuzz_models.m, a few hundred cases): damaged
## model files are attention:file or a valid model; bad calls of the public
## functions an attention:* error or a correct result; nothing slow.
%!test
%! d = "fuzz";
%! if (! isfolder (d))
%!   d = fullfile ("tests", "fuzz");
%! endif
%! addpath (canonicalize_file_name (d));
%! q = fuzz_models (300, 11);
%! for f = q.failures
%!   printf ("case %d: %s (%s); %s: %s\n", f.case, f.fn, f.args, f.what, f.message);
%! endfor
%! assert (q.nfail, 0);
%! assert (sum (q.table(:)), 300);
%! count = @(id) sum (q.table(:, strcmp (q.ids, id)));
%! ## the cases reach files refused and loaded, and every kind of refusal
%! load = strcmp (q.fns, "attn_load");
%! assert (q.table(load, strcmp (q.ids, "attention:file")) >= 20);
%! for id = {"ok", "attention:option", "attention:type", "attention:model", ...
%!           "attention:vocab", "attention:config", "attention:encoding"}
%!   assert (count (id{1}) >= 2, sprintf ("only %d cases of %s", count (id{1}), id{1}));
%! endfor
