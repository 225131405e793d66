## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{report} =} fuzz_gateways (@var{ncases})
## @deftypefnx {} {@var{report} =} fuzz_gateways (@var{ncases}, @var{seed})
## @deftypefnx {} {@var{report} =} fuzz_gateways (@var{ncases}, @var{seed}, @var{first})
## @deftypefnx {} {@var{report} =} fuzz_gateways (@dots{}, "verbose")
## @deftypefnx {} {@var{report} =} fuzz_gateways (@dots{}, "print")
## Call every MEX gateway of the package with generated bad input.
##
## Case @var{i} (@var{first} @dots{} @var{first}+@var{ncases}-1, @var{first}
## defaults to 1) draws its own random numbers from
## @code{rand ("twister", @var{seed} * 2^20 + @var{i})}, so any case can be
## replayed alone: @code{fuzz_gateways (1, @var{seed}, @var{i}, "verbose")}.
## @var{seed} defaults to 1.  The caller's generator state is restored.
##
## A case starts from a valid call of one of @code{attn_sdpa},
## @code{attn_sdpa_backward}, @code{attn_self}, @code{attn_masked} (also
## with a K/V cache), @code{attn_cross}, @code{attn_backward},
## @code{attn_rows}, @code{attn_rows_backward}, @code{attn_layernorm} and
## @code{attn_layernorm_backward} (random small sizes, zero
## sizes included) and applies 0 to 3 mutations: wrong classes (single,
## integers, char, cell, struct, logical, complex, sparse, function
## handle), wrong and zero sizes, arrays of the wrong rank, NaN and Inf,
## empty arrays with huge dimensions, finite values near the double range,
## missing, extra and misshaped struct fields, bad @code{heads},
## @code{kv_heads} and @code{rope_base} (blocks also carry some of their
## optional fields: biases, kv_heads, rope_base), masks of the
## wrong size, class or string, wrong argument and output counts.
##
## Each case must either return normally with finite outputs (scores may
## hold @code{-Inf} for disallowed pairs; the row-wise maps pass Inf and
## NaN through, as @code{X*W} does, so any outputs) or raise an error whose
## identifier starts with @code{attention:}.  Anything else is a failure.
## (A crash ends Octave: replay the cases with @qcode{"verbose"} to find
## the one.)
##
## @var{report} has fields @code{ncases}, @code{outcomes} (one per case:
## @qcode{"ok"}, an @code{attention:*} identifier, or a
## @qcode{"FAIL:@dots{}"} class), @code{ids} and @code{counts} (each
## distinct outcome and how often it occurred), @code{nfail}, and
## @code{failures}, a
## struct array with the case number, gateway, mutations, arguments and
## message of every failure.  The report is printed when there is no output
## argument or with @qcode{"print"}; @qcode{"verbose"} also prints every
## case before it runs.
##
## @example
## r = fuzz_gateways (200);
## r.nfail
##   @result{} 0
## @end example
## @end deftypefn

function report = fuzz_gateways (ncases, varargin)
  flags = cellfun (@ischar, varargin);
  verbose = any (strcmp (varargin(flags), "verbose"));
  show = any (strcmp (varargin(flags), "print")) || nargout == 0;
  varargin(flags) = [];
  seed = 1;
  first = 1;
  if (numel (varargin) >= 1)
    seed = varargin{1};
  endif
  if (numel (varargin) >= 2)
    first = varargin{2};
  endif

  saved = rand ("twister");
  outcomes = cell (ncases, 1);
  failures = struct ("case", {}, "fn", {}, "what", {}, "args", {},
                     "message", {});
  unwind_protect
    for c = 1:ncases
      i = first + c - 1;
      rand ("twister", seed * 2^20 + i);
      try
        [fn, args, nout, what] = make_case ();
      catch err
        ## a fault of this harness, not of the package: still counted
        outcomes{c} = "FAIL:harness";
        failures(end+1) = struct ("case", i, "fn", "", "what", "",
                                  "args", "", "message", err.message);
        continue;
      end_try_catch
      if (verbose)
        printf ("case %d: [%d outputs] = %s (%s)  mutations: %s\n", i, nout,
                fn, describe_args (args), strjoin (what, ", "));
        fflush (stdout);
      endif
      [outcome, msg] = run_case (fn, args, nout);
      outcomes{c} = outcome;
      if (strncmp (outcome, "FAIL", 4))
        failures(end+1) = struct ("case", i, "fn", fn,
                                  "what", strjoin (what, ", "),
                                  "args", describe_args (args),
                                  "message", msg);
        if (verbose)
          printf ("  -> %s: %s\n", outcome, msg);
        endif
      endif
    endfor
  unwind_protect_cleanup
    rand ("twister", saved);
  end_unwind_protect

  [ids, ~, j] = unique (outcomes);
  r.ncases = ncases;
  r.outcomes = outcomes;
  r.ids = ids;
  r.counts = accumarray (j(:), 1);
  r.nfail = numel (failures);
  r.failures = failures;
  if (show)
    print_report (r);
  endif
  if (nargout > 0)
    report = r;
  endif
endfunction

function print_report (r)
  printf ("%d cases\n", r.ncases);
  for k = 1:numel (r.ids)
    printf ("  %-24s %8d\n", r.ids{k}, r.counts(k));
  endfor
  for f = r.failures
    printf ("FAIL case %d: %s (%s); mutations: %s\n  %s\n", f.case, f.fn,
            f.args, f.what, f.message);
  endfor
  printf ("%d failures\n", r.nfail);
endfunction

## ---- one case ---------------------------------------------------------

function [fn, args, nout, what] = make_case ()
  persistent gateways = {"attn_sdpa", "attn_sdpa_backward", "attn_self", ...
                         "attn_masked", "attn_cross", "attn_backward", ...
                         "attn_rows", "attn_rows_backward", "attn_layernorm", ...
                         "attn_layernorm_backward"};
  if (rand () < 0.04)
    [fn, args, nout, what] = huge_call ();
    return;
  endif
  fn = gateways{ri (numel (gateways))};
  [args, nout] = valid_call (fn);
  what = {};
  nmut = ri (0, 3);
  for k = 1:nmut
    [args, nout, what{end+1}] = mutate (args, nout);
  endfor
  if (isempty (what))
    what = {"none"};
  endif
endfunction

## Calls FN and classifies what happened.
function [outcome, msg] = run_case (fn, args, nout)
  msg = "";
  outs = cell (1, nout);
  try
    if (nout == 0)
      feval (fn, args{:});
    else
      [outs{:}] = feval (fn, args{:});
    endif
  catch err
    if (strncmp (err.identifier, "attention:", 10)
        && ! isempty (regexp (err.identifier, '^attention:[a-z]+$', "once"))
        && ! isempty (err.message))
      outcome = err.identifier;
    else
      outcome = ["FAIL:error " err.identifier];
      msg = err.message;
    endif
    return;
  end_try_catch
  outcome = "ok";
  if (any (strcmp (fn, {"attn_rows", "attn_rows_backward", "attn_layernorm", ...
                        "attn_layernorm_backward"})))
    return;                                   # Inf and NaN pass through, as in X*W
  endif
  for k = 1:nout
    bad = nonfinite_part (outs{k}, "");
    if (! isempty (bad))
      outcome = "FAIL:nonfinite output";
      msg = sprintf ("output %d%s is not finite though every input was", k,
                     bad);
      return;
    endif
  endfor
endfunction

## "" when X (an output) is finite, else the path to a non-finite part.
## Scores may be -Inf (disallowed pairs), never NaN or +Inf.
function bad = nonfinite_part (x, path)
  bad = "";
  if (isstruct (x))
    for f = fieldnames (x)'
      bad = nonfinite_part (x.(f{1}), [path "." f{1}]);
      if (! isempty (bad))
        return;
      endif
    endfor
  elseif (isfloat (x))
    if (any (strcmp (path, {".scores", ""})) && ! isempty (x))
      ok = ! any (isnan (x(:)) | x(:) == Inf);
    else
      ok = all (isfinite (x(:)));
    endif
    if (! ok)
      bad = path;
      if (isempty (bad))
        bad = " ";
      endif
    endif
  endif
endfunction

## Arguments that agree with each other but whose dimensions pass what
## BLAS's 32-bit integers address; every array is empty, so nothing big is
## allocated.  (Zero-width blocks with a huge head count are left out: the
## kernel would loop over 2^31 heads.)
function [fn, args, nout, what] = huge_call ()
  G = 2^31;
  z = @(varargin) zeros (varargin{:});
  wide = struct ("W_Q", z(G, 0), "W_K", z(G, 0), "W_V", z(G, 0),
                 "W_O", z(0, G), "heads", 1);
  narrow = struct ("W_Q", z(0, 1), "W_K", z(0, 1), "W_V", z(0, 1),
                   "W_O", z(1, 0), "heads", 1);
  tall = struct ("W_Q", z(1, 0), "W_K", z(0, 0), "W_V", z(0, 0),
                 "W_O", z(0, 1), "heads", 1);
  calls = {"attn_sdpa", {z(0, G), z(0, G), z(0, 1)}, "dk = 2^31";
           "attn_sdpa", {z(G, 0), z(1, 0), z(1, 1)}, "n = 2^31";
           "attn_sdpa", {z(1, 0), z(G, 0), z(G, 0)}, "m = 2^31";
           "attn_sdpa", {z(0, 1), z(0, 1), z(0, G)}, "dv = 2^31";
           "attn_sdpa", {z(1, 0), z(G, 0), z(G, 0), "causal"}, "m = 2^31";
           "attn_self", {z(0, G), wide}, "d = 2^31";
           "attn_masked", {z(G, 0), narrow}, "n = 2^31";
           "attn_cross", {z(1, 1), z(G, 0), tall}, "m = 2^31";
           "attn_cross", {z(0, G), z(0, G), wide}, "d = d_src = 2^31"};
  k = ri (rows (calls));
  [fn, args] = calls{k, 1:2};
  nout = ri (0, 2);
  what = {["huge " calls{k, 3}]};
endfunction

## ---- valid calls -------------------------------------------------------

## COUNT random integers from LO to HI (1 to LO with one argument); much
## cheaper than randi, which dominated the run time.
function k = ri (lo, hi, count)
  if (nargin == 1)
    hi = lo;
    lo = 1;
  endif
  if (nargin < 3)
    count = 1;
  endif
  k = lo + floor (rand (1, count) * (hi - lo + 1));
endfunction

function k = dim ()
  ## mostly 1..4, sometimes 0
  k = ri (1, 4) * (rand () > 0.08);
endfunction

function x = arr (varargin)
  x = rand ([varargin{:}, 1, 1]) - 0.5;
endfunction

## Trailing page dimensions of attn_sdpa: none, one or two.
function p = pages ()
  p = ri (1, 3, ri (0, 2));
endfunction

## A block; in 4 cases of 10 with some of its optional fields (biases,
## kv_heads, and rope_base where rows have positions, self and masked).
function B = block (d, d_src, positions)
  h = ri (1, 4);
  dk = ri (1, 3);
  dv = ri (1, 3);
  h_kv = h;
  options = rand () < 0.4;
  if (options && rand () < 0.5)
    divisors = find (mod (h, 1:h) == 0);
    h_kv = divisors(ri (numel (divisors)));
  endif
  B = struct ("W_Q", arr (d, h*dk), "W_K", arr (d_src, h_kv*dk),
              "W_V", arr (d_src, h_kv*dv), "W_O", arr (h*dv, d), "heads", h);
  if (! options)
    return;
  endif
  if (h_kv != h || rand () < 0.2)
    B.kv_heads = h_kv;
  endif
  widths = {"b_Q", h*dk; "b_K", h_kv*dk; "b_V", h_kv*dv; "b_O", d};
  for k = find (rand (1, 4) < 0.5)
    B.(widths{k,1}) = arr (1, widths{k,2});
  endfor
  if (positions && mod (dk, 2) == 0 && rand () < 0.5)
    B.rope_base = 10^ri (1, 4);
  endif
endfunction

## The optional key mask argument: a mask, [] (no mask), or nothing.
function mask = key_mask (m, Bt)
  switch (ri (3))
    case 1
      mask = {rand(m, Bt) > 0.3};
    case 2
      mask = {[]};
    otherwise
      mask = {};
  endswitch
endfunction

function [args, nout] = valid_call (fn)
  switch (fn)
    case {"attn_sdpa", "attn_sdpa_backward"}
      n = dim (); m = dim (); dk = ri (4); dv = dim (); p = pages ();
      Q = arr (n, dk, p); K = arr (m, dk, p); V = arr (m, dv, p);
      switch (ri (4))
        case 1
          args = {Q, K, V};
        case 2
          args = {Q, K, V, rand(n, m) > 0.3};
        case 3
          args = {Q, K, V, rand([n, m, p]) > 0.3};
        otherwise
          args = {Q, K, V, "causal"};
      endswitch
      nout = ri (0, 3);
      if (strcmp (fn, "attn_sdpa_backward"))
        [M, A] = attn_sdpa (args{:});
        args = {arr(size (M)), Q, K, V, A};
      endif
    case {"attn_self", "attn_masked"}
      n = dim (); d = ri (4); Bt = ri (2);
      mask = key_mask (n, Bt);
      B = block (d, d, true);
      args = [{arr(n, d, Bt), B}, mask, trace_mode(mask)];
      if (rand () < 0.2)                        # rows after cached ones
        [~, C] = feval (fn, arr (dim (), d, Bt), B, [], "lean");
        args = {arr(n, d, Bt), B, [], "lean", C};
      endif
      nout = ri (0, 2);
    case "attn_cross"
      n = dim (); m = dim (); d = ri (4); ds = ri (4); Bt = ri (2);
      mask = key_mask (m, Bt);
      args = [{arr(n, d, Bt), arr(m, ds, Bt), block(d, ds, false)}, mask, ...
              trace_mode(mask)];
      nout = ri (0, 2);
    case "attn_rows"
      n = dim (); a = ri (4); c = ri (4); p = pages ();
      args = {arr(n, a, p), arr(a, c), arr(1, c)}(1:ri (2, 3));
      nout = ri (0, 1);
    case "attn_rows_backward"
      n = dim (); a = ri (4); c = ri (4); p = pages ();
      args = {arr(n, c, p), arr(n, a, p), arr(a, c)};
      nout = ri (0, 3);
    case "attn_layernorm"
      n = dim (); d = ri (4); p = pages ();
      args = {arr(n, d, p), arr(1, d), arr(1, d), 1e-5};
      nout = ri (0, 4);
    case "attn_layernorm_backward"
      n = dim (); d = ri (4); p = pages ();
      args = {arr(n, d, p), arr(n, d, p), arr(n, 1, p) + 1, arr(1, d)};
      nout = ri (0, 3);
    case "attn_backward"
      kinds = {"attn_self", "attn_masked", "attn_cross"};
      fwd = kinds{ri (3)};
      fargs = valid_call (fwd);
      [Y, T] = feval (fwd, fargs{:});
      args = {arr(size (Y)), T, fargs{2 + strcmp(fwd, "attn_cross")}};
      nout = ri (0, 1);
  endswitch
endfunction

## Sometimes the trace mode after the mask (which it needs, if only []).
function mode = trace_mode (mask)
  mode = {};
  if (rand () < 0.3)
    modes = {"lean", "full", "step"};
    mode = [repmat({[]}, 1, isempty (mask)), modes(ri (3))];
  endif
endfunction

## ---- mutations ---------------------------------------------------------

function [args, nout, what] = mutate (args, nout)
  r = rand ();
  if (r < 0.06 || isempty (args))
    ## wrong number of inputs
    if (rand () < 0.5 && ! isempty (args))
      keep = ri (0, numel(args)-1);
      args = args(1:keep);
      what = sprintf ("nargin %d", keep);
    else
      extra = {1, true, "causal", rand(2), struct()};
      args = [args, extra(ri (1, numel (extra), ri (2)))];
      what = sprintf ("nargin %d", numel (args));
    endif
  elseif (r < 0.11)
    nout = ri (0, 5);
    what = sprintf ("nargout %d", nout);
  else
    k = ri (numel (args));
    [args{k}, w] = bad_arg (args{k});
    what = sprintf ("arg %d: %s", k, w);
  endif
endfunction

## A bad version of one argument, by what it is.  Earlier mutations may
## have left a huge or sparse array: those are first replaced by a small
## one so that no mutation allocates much.
function [x, what] = bad_arg (x)
  if ((isnumeric (x) || islogical (x) || ischar (x))
      && (issparse (x) || any (size (x) > 64)))
    x = rand (2) > 0.5;
  endif
  if (isstruct (x) && isscalar (x) && rand () < 0.75)
    [x, what] = bad_struct (x);
  elseif ((islogical (x) || ischar (x)) && rand () < 0.75)
    [x, what] = bad_mask (x);
  else
    [x, what] = bad_value (x);
  endif
endfunction

function [x, what] = bad_value (x)
  switch (ri (9))
    case 1
      [x, what] = wrong_class (x);
    case {2, 3}
      [x, what] = wrong_size (x);
    case {4, 5}
      [x, what] = put_nonfinite (x);
    case 6
      ## finite but near the top of the double range
      if (isfloat (x))
        x = x * 10^(250 + ri (58));
      endif
      what = "scaled to ~1e300";
    case 7
      [x, what] = huge_empty ();
    case 8
      ## a random small-size valid-looking double of the wrong shape
      x = arr (ri (0, 3), ri (0, 3), ri (1, 2));
      what = sprintf ("random %s", mat2str (size (x)));
    otherwise
      others = {[], zeros(0, 3), {}, "", @sin, struct(), ...
                struct("a", {1, 2}), int8([]), true, NA};
      k = ri (numel (others));
      x = others{k};
      what = sprintf ("replaced by %s", class (x));
  endswitch
endfunction

function [x, what] = wrong_class (x)
  classes = {"single", "int8", "int16", "int32", "int64", "uint8", ...
             "uint16", "uint32", "uint64", "char", "cell", "struct", ...
             "logical", "complex", "sparse", "handle"};
  what = classes{ri (numel (classes))};
  if (! isnumeric (x) && ! islogical (x) && ! ischar (x))
    x = rand (2);
  endif
  if (iscomplex (x))
    x = real (x);
  endif
  switch (what)
    case "char"
      x(! isfinite (x)) = 0;
      x = char (65 + mod (round (abs (double (x)) * 10), 26));
    case "cell"
      x = {x};
    case "struct"
      x = struct ("x", x);
    case "logical"
      x = double (x) > 0;
    case "complex"
      x = complex (double (x), 0.5 * ones (size (x)));
    case "sparse"
      if (ndims (x) == 2)
        x = sparse (double (x));
      else
        x = sparse (double (x(:, :, 1)));
      endif
    case "handle"
      x = @(t) t;
    otherwise
      x = feval (what, double (x) * 3);
  endswitch
  what = ["class " what];
endfunction

function [x, what] = wrong_size (x)
  if (! isnumeric (x) && ! islogical (x))
    x = rand (2);
  endif
  s = size (x);
  idx = repmat ({":"}, 1, numel (s));
  switch (ri (9))
    case 1
      idx{1} = 1:s(1)-1;
      x = x(idx{:});
      what = "one row less";
    case 2
      idx{2} = [1:s(2), ones(1, s(2) > 0)];
      x = x(idx{:});
      what = "one column more";
    case 3
      x = permute (x, [2 1 3:ndims(x)]);
      what = "transposed";
    case 4
      x = repmat (x, [1 1 1 2]);
      what = "4-d";
    case 5
      x = repmat (x, [1 1 1 1 1 1 1 1 2]);
      what = "9-d";
    case 6
      x = x(:);
      what = "column";
    case 7
      x = reshape (x, s(1), []);
      what = "pages folded";
    case 8
      x = resize (x, [0 s(2:end)]);
      what = "zero rows";
    otherwise
      x = resize (x, [s(1) 0 s(3:end)]);
      what = "zero columns";
  endswitch
  what = ["size " what];
endfunction

function [x, what] = put_nonfinite (x)
  v = [NaN, Inf, -Inf, NA](ri (4));
  what = sprintf ("nonfinite %g", v);
  if (isstruct (x) && isscalar (x) && numfields (x) > 0)
    f = fieldnames (x);
    k = ri (numel (f));
    [x.(f{k}), w] = put_nonfinite (x.(f{k}));
    what = sprintf ("field %s %s", f{k}, w);
  elseif (isfloat (x) && ! isempty (x))
    x(ri (numel (x))) = v;
  endif
endfunction

## Arrays with no elements but dimensions past 2^31, or tall sparse ones:
## all cheap, none allocates more than a few bytes.  Trailing (batch, page)
## dimensions stop at 2^20: an empty 0×d×2^40 X that fits the block would
## make the gateway loop over 2^40 empty batch items for hours.
function [x, what] = huge_empty ()
  cases = {@() zeros(0, 2^31), @() zeros(2^31, 0), @() zeros(0, 3, 2^20), ...
           @() zeros(2^33, 0, 2), @() zeros(0, 2^31, 2^31), ...
           @() sparse(2^40, 1), @() sparse(2^40, 1) != 0, @() false(0, 2^35)};
  k = ri (numel (cases));
  x = cases{k} ();
  what = sprintf ("huge %s %s", mat2str (size (x)), class (x));
endfunction

function [x, what] = bad_mask (x)
  strings = {"causa", "CAUSAL", "causal ", ["ca"; "us"], ...
             repmat("causal", 1, 12), "", char(0), "causal\0x", "none"};
  s = size (x);
  switch (ri (8))
    case 1
      x = strings{ri (numel (strings))};
      what = sprintf ("mask string '%s'", x(:)');
    case 2
      x = double (x);
      what = "mask double";
    case 3
      x = int8 (x);
      what = "mask int8";
    case 4
      x = sparse (double (x(:, :, 1)) != 0);
      what = "mask sparse";
    case 5
      x = rand (s(1) + 1, max (s(2), 1)) > 0.5;
      what = "mask one row more";
    case 6
      x = rand (s(1), s(2) + 1) > 0.5;
      what = "mask one column more";
    case 7
      x = rand ([s, 1, 3]) > 0.5;
      what = "mask extra pages";
    otherwise
      x = logical ([]);
      what = "mask empty logical";
  endswitch
endfunction

## Missing, extra or misshaped fields of a block struct or a trace.
function [x, what] = bad_struct (x)
  f = fieldnames (x);
  if (isempty (f))
    x = struct ("W_Q", 1);
    what = "one field only";
    return;
  endif
  k = ri (numel (f));
  switch (ri (7))
    case 1
      x = rmfield (x, f{k});
      what = ["missing field " f{k}];
    case 2
      x.extra = rand (2);
      what = "extra field";
    case {3, 4}
      [x.(f{k}), w] = bad_value (x.(f{k}));
      what = sprintf ("field %s: %s", f{k}, w);
    case 5
      bad = {0, -1, 1.5, NaN, Inf, 2^40, 2^31, 2^31-1, "2", [1 2], true, ...
             int8(2), single(2), 2+1i, {}, [], 3, 4, 7};
      v = bad{ri (numel (bad))};
      count = {"heads", "kv_heads", "rope_base"}{ri (3)};
      x.(count) = v;
      what = [count " " disp_value(v)];
    case 6
      kinds = {"selfish", "cross", "masked", "self", 5, "", ["se"; "lf"], ...
               {"self"}};
      v = kinds{ri (numel (kinds))};
      x.kind = v;
      what = ["kind " disp_value(v)];
    otherwise
      if (rand () < 0.5)
        x = [x, x];
        what = "struct array";
      else
        x = {x};
        what = "struct in a cell";
      endif
  endswitch
endfunction

function s = disp_value (v)
  if (ischar (v) && rows (v) <= 1)
    s = ["'" v "'"];
  elseif ((isnumeric (v) || islogical (v)) && numel (v) <= 2)
    s = sprintf ("%s %s", class (v), num2str (v));
  else
    s = sprintf ("%s %s", class (v), mat2str (size (v)));
  endif
endfunction

function s = describe_args (args)
  parts = cell (1, numel (args));
  for k = 1:numel (args)
    x = args{k};
    sz = sprintf ("%dx", size (x));
    parts{k} = sprintf ("%s %s", sz(1:end-1), class (x));
    if (issparse (x))
      parts{k} = ["sparse " parts{k}];
    endif
  endfor
  s = strjoin (parts, ", ");
endfunction
