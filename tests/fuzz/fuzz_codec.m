## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{report} =} fuzz_codec (@var{ncases})
## @deftypefnx {} {@var{report} =} fuzz_codec (@var{ncases}, @var{seed})
## @deftypefnx {} {@var{report} =} fuzz_codec (@var{ncases}, @var{seed}, @var{first})
## @deftypefnx {} {@var{report} =} fuzz_codec (@dots{}, "verbose")
## @deftypefnx {} {@var{report} =} fuzz_codec (@dots{}, "print")
## Decode mutated encodings with the grading channel's codec
## (@code{__grade_value__}, the MEX function behind the private
## @code{grade_value}).
##
## Forty random values (every class, complex, empty and N-d arrays, cells
## and struct arrays nested up to 4 deep) are drawn from @var{seed}
## (default 1) and encoded.  Case @var{i} (@var{first} @dots{}
## @var{first}+@var{ncases}-1, @var{first} defaults to 1) draws its own
## random numbers from @code{rand ("twister", @var{seed} * 2^20 + @var{i})},
## so any case can be replayed alone with @qcode{"verbose"}: it takes one
## encoding, or two spliced, and applies 1 to 4 mutations (bytes
## overwritten, set to extreme values, dropped, inserted, repeated; a
## dimension or a count set to an extreme 64- or 16-bit value; the end cut
## off; in 5% of the cases none), then decodes it with a limit of 64 KiB, 1 MiB or its own length.
##
## A case must decode to a value, which must then encode and decode to an
## equal value (outcome @qcode{"ok"}), or raise an
## @code{attention:channel} error.  Anything else is a failure; a crash
## ends Octave (replay with @qcode{"verbose"} to find the case).
##
## @var{report} has fields @code{ncases}, @code{outcomes} (one per case),
## @code{ids} and @code{counts}
## (each distinct outcome and how often it occurred), @code{nfail} and
## @code{failures} (case number, mutations, message).  It is printed
## without an output argument or with @qcode{"print"}.
## @end deftypefn

function report = fuzz_codec (ncases, varargin)
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
  failures = struct ("case", {}, "what", {}, "message", {});
  unwind_protect
    rand ("twister", seed);
    pool = cell (1, 40);
    for k = 1:numel (pool)
      pool{k} = __grade_value__ ("encode", random_value (1));
    endfor
    for c = 1:ncases
      i = first + c - 1;
      rand ("twister", seed * 2^20 + i);
      [bytes, what] = make_case (pool);
      limit = [2^16, 2^20, numel(bytes)](ri (3));
      if (verbose)
        printf ("case %d: %d bytes, limit %d; %s\n", i, numel (bytes), limit,
                strjoin (what, ", "));
        fflush (stdout);
      endif
      [outcomes{c}, msg] = run_case (bytes, limit);
      if (strncmp (outcomes{c}, "FAIL", 4))
        failures(end+1) = struct ("case", i, "what", strjoin (what, ", "),
                                  "message", msg);
        if (verbose)
          printf ("  -> %s: %s\n", outcomes{c}, msg);
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
    printf ("%d cases\n", r.ncases);
    for k = 1:numel (r.ids)
      printf ("  %-24s %8d\n", r.ids{k}, r.counts(k));
    endfor
    for f = r.failures
      printf ("FAIL case %d: mutations: %s\n  %s\n", f.case, f.what, f.message);
    endfor
    printf ("%d failures\n", r.nfail);
  endif
  if (nargout > 0)
    report = r;
  endif
endfunction

## A decoded value must survive another round trip; an error must be
## attention:channel.
function [outcome, msg] = run_case (bytes, limit)
  msg = "";
  try
    v = __grade_value__ ("decode", bytes, limit);
  catch err
    if (strcmp (err.identifier, "attention:channel"))
      outcome = "attention:channel";
    else
      outcome = "FAIL:identifier";
      msg = sprintf ("%s: %s", err.identifier, err.message);
    endif
    return;
  end_try_catch
  try
    w = __grade_value__ ("decode", __grade_value__ ("encode", v));
    if (isequaln (w, v) && strcmp (class (w), class (v)))
      outcome = "ok";
    else
      outcome = "FAIL:roundtrip";
      msg = "a decoded value changed on another round trip";
    endif
  catch err
    outcome = "FAIL:reencode";
    msg = sprintf ("%s: %s", err.identifier, err.message);
  end_try_catch
endfunction

function [b, what] = make_case (pool)
  b = pool{ri (numel (pool))};
  what = {};
  if (rand () < 0.1)                      # a node of one spliced into another
    c = pool{ri (numel (pool))};
    k = ri (6, numel (b));
    b = [b(1:k-1), c(ri (6, numel (c)):end)];
    what{end+1} = "spliced";
  endif
  nmut = ri (4);
  if (rand () < 0.05)
    nmut = 0;                             # the value itself, or the splice
  endif
  for m = 1:nmut
    n = numel (b);
    switch (ri (8))
      case 1
        k = ri (1, n, ri (3));
        b(k) = ri (0, 255, numel (k));
        what{end+1} = "bytes overwritten";
      case 2
        b(ri (n)) = [0 1 2 13 14 15 32 33 63 64 127 128 254 255](ri (14));
        what{end+1} = "a byte extreme";
      case 3
        b(ri (1, n, ri (4))) = [];
        what{end+1} = "bytes dropped";
      case 4
        k = ri (n + 1);
        b = [b(1:k-1), uint8(ri (0, 255, ri (3))), b(k:end)];
        what{end+1} = "bytes inserted";
      case 5                              # a dimension, a count
        v = [0, 1, 2^16-1, 2^31-1, 2^31, 2^32, 2^53, 2^53+2, 2^63, 2^64-1](ri (10));
        k = ri (n);
        b(k:k+7) = typecast (uint64 (v), "uint8");
        what{end+1} = sprintf ("uint64 %.0f at %d", v, k);
      case 6
        k = ri (n);
        b(k:k+1) = typecast (uint16 ([0 1 63 64 65535](ri (5))), "uint8");
        what{end+1} = "uint16 extreme";
      case 7
        k = ri (n);
        len = ri (min (40, n - k + 1));
        b = [b(1:k+len-1), b(k:end)];
        what{end+1} = "bytes repeated";
      case 8
        b = b(1:ri (0, n));
        what{end+1} = "cut";
    endswitch
    if (isempty (b))
      break;
    endif
  endfor
endfunction

## A random value of every kind the format has, at nesting DEPTH.
function v = random_value (depth)
  persistent numeric = {"double", "single", "int8", "uint8", "int16", ...
                        "uint16", "int32", "uint32", "int64", "uint64"};
  kinds = 3;
  if (depth < 4)
    kinds = 5;                  # cells and structs only this deep
  endif
  kind = ri (kinds);
  dims = [ri(0, 3, 1, 2), ri(1, 2, 1, ri (0, 2))];
  switch (kind)
    case 1
      c = numeric{ri (numel (numeric))};
      v = cast (100 * randn (dims), c);
      if (ri (4) == 1 && any (strcmp (c, {"double", "single"})))
        v = complex (v, cast (randn (dims), c));
      endif
    case 2
      v = rand (dims) > 0.5;
    case 3
      v = char (ri (0, 255, dims));
    case 4
      v = cell (dims);
      for k = 1:numel (v)
        v{k} = random_value (depth + 1);
      endfor
    case 5
      names = {"a", "bb", "W_Q", "z9", repmat("q", 1, 63)};
      names = names(randperm (numel (names), ri (0, 3)));
      if (isempty (names))
        v = repmat (struct (), dims);
      else
        args = [names; repmat({cell(dims)}, 1, numel (names))];
        v = struct (args{:});
      endif
      for k = 1:numel (v)
        for f = 1:numel (names)
          v(k).(names{f}) = random_value (depth + 1);
        endfor
      endfor
  endswitch
endfunction

## ri (hi): a random integer 1..hi; ri (lo, hi): lo..hi; ri (lo, hi, n):
## a row of n of them; ri (lo, hi, r, c, ...): an r×c×... array.
function k = ri (lo, hi, varargin)
  if (nargin == 1)
    hi = lo;
    lo = 1;
  endif
  if (isempty (varargin))
    varargin = {1};
  endif
  if (isscalar (varargin))
    varargin = [{1}, varargin];
  endif
  k = lo + floor (rand (varargin{:}) * (hi - lo + 1));
endfunction
