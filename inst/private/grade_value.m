## -*- texinfo -*-
## @deftypefn  {} {@var{bytes} =} grade_value ("encode", @var{value})
## @deftypefnx {} {@var{value} =} grade_value ("decode", @var{bytes})
## @deftypefnx {} {@var{value} =} grade_value ("decode", @var{bytes}, @var{max_bytes})
## Octave values as bytes and back: the data that crosses from a grading
## worker (which runs a student's code) to the trusted grader.
##
## @qcode{"encode"}: @var{value} as a uint8 row.  Supported: real and
## complex double and single, int8 @dots{} uint64, logical, char (bytes,
## kept exact), cell arrays and struct arrays, of any size with 2 to 32
## dimensions, nested at most 64 deep.  Anything else (sparse, function
## handles, objects, java, ...) is an @code{attention:channel} error naming
## its class.
##
## @qcode{"decode"}: the value of @var{bytes}, read strictly, as hostile
## input: nothing is evaluated, every length is checked against the bytes
## left before anything is allocated, and the input length and the decoded
## size (the sum of element bytes over the whole tree, counting 8 per cell
## element and per struct element and field, at least 8 per struct
## element) are at most @var{max_bytes} (default 64 MiB).  Bytes that are
## not exactly one encoded value raise an @code{attention:channel} error,
## never another.
##
## The format, little-endian (the only hosts supported): the header
## @samp{ATGV} and version byte 1, then one node, then nothing.  A node:
## class code (uint8: 1 double, 2 single, 3 int8, 4 uint8, 5 int16,
## 6 uint16, 7 int32, 8 uint32, 9 int64, 10 uint64, 11 logical, 12 char,
## 13 cell, 14 struct), flags (uint8: 1 = complex, double and single
## only), number of dimensions (uint8, 2 to 32), the dimensions (uint64
## each, at most 2^31-1, the product of the nonzero ones at most 2^53),
## then the data of its N elements in column-major order:
## @itemize
## @item numeric: the N values raw; complex: the N real parts, then the N
## imaginary parts.
## @item logical: N bytes, each 0 or 1.  char: N bytes.
## @item cell: N nodes.
## @item struct: the number of fields F (uint16), each name as its length
## (uint8, 1 to 63) and bytes (a valid Octave identifier, all distinct),
## then element-major the N×F values: element 1's F fields in the order
## of the names, then element 2's, and so on.
## @end itemize
## @end deftypefn

function out = grade_value (action, varargin)
  ## the codec is the MEX function __grade_value__ (src/__grade_value__.c);
  ## Octave starts the messages of its errors with its name: they are
  ## raised again as this function's
  try
    out = __grade_value__ (action, varargin{:});
  catch err
    msg = err.message;
    if (strncmp (msg, "__grade_value__: ", 17))
      msg = ["grade_value: ", msg(18:end)];
    endif
    error (struct ("message", msg, "identifier", err.identifier));
  end_try_catch
endfunction

%!function check_round_trip (x)
%!  y = grade_value ("decode", grade_value ("encode", x));
%!  assert (class (y), class (x));
%!  assert (size (y), size (x));
%!  assert (iscomplex (y), iscomplex (x));
%!  assert (isequal (y, x));
%!endfunction

## An attention:channel error from decoding BYTES, its message matching PAT.
%!function check_refused (bytes, pat, max_bytes = 64 * 2^20)
%!  try
%!    grade_value ("decode", bytes, max_bytes);
%!  catch err
%!    assert (err.identifier, "attention:channel");
%!    assert (! isempty (regexp (err.message, pat, "once")), err.message);
%!    return;
%!  end_try_catch
%!  error ("decoded bytes that should have been refused (%s)", pat);
%!endfunction

%!function b = u64 (v)
%!  b = typecast (uint64 (v), "uint8");
%!endfunction

## A node header: class code, flags, dimensions.
%!function b = node (code, flags, dims)
%!  b = [uint8([code, flags, numel(dims)]), u64(dims)];
%!endfunction

%!function b = header ()
%!  b = uint8 ([double("ATGV"), 1]);
%!endfunction

%!test
%! b = grade_value ("encode", 1);
%! assert (class (b), "uint8");
%! assert (rows (b), 1);
%! assert (b, [header(), node(1, 0, [1 1]), typecast(1, "uint8")]);

## the bytes of small values, written out by hand from the format above:
## header "ATGV" 1; class code, flags, number of dimensions; uint64
## dimensions; the data
%!test
%! head = uint8 ([65 84 71 86 1]);
%! z7 = zeros (1, 7);
%! ## 1×1 double 3: 3 is 0x4008000000000000
%! assert (grade_value ("encode", 3), ...
%!         [head, uint8([1 0 2, 1 z7, 1 z7, 0 0 0 0 0 0 8 64])]);
%! ## 1×2 char "ab"
%! assert (grade_value ("encode", "ab"), [head, uint8([12 0 2, 1 z7, 2 z7, 97 98])]);
%! ## 0×0 cell
%! assert (grade_value ("encode", {}), [head, uint8([13 0 2, 0 z7, 0 z7])]);
%! ## 1×1 struct, one field x = int8 (-1): 1 field (uint16), the name as
%! ## length 1 and "x", then the int8 node
%! assert (grade_value ("encode", struct ("x", int8 (-1))), ...
%!         [head, uint8([14 0 2, 1 z7, 1 z7, 1 0, 1 120, 3 0 2, 1 z7, 1 z7, 255])]);
%! ## complex single 1+2i: flags 1, the real part then the imaginary part
%! assert (grade_value ("encode", single (1 + 2i)), ...
%!         [head, uint8([2 1 2, 1 z7, 1 z7, 0 0 128 63, 0 0 0 64])]);
%! ## logical 2×1 [true; false], uint16 [258 1] in a 1×1×2 array
%! assert (grade_value ("encode", [true; false]), [head, uint8([11 0 2, 2 z7, 1 z7, 1 0])]);
%! assert (grade_value ("encode", cat (3, uint16 (258), uint16 (1))), ...
%!         [head, uint8([6 0 3, 1 z7, 1 z7, 2 z7, 2 1 1 0])]);
%! ## and back
%! assert (grade_value ("decode", [head, uint8([12 0 2, 1 z7, 2 z7, 97 98])]), "ab");
%! assert (grade_value ("decode", [head, uint8([14 0 2, 1 z7, 1 z7, 1 0, 1 120, ...
%!                                           3 0 2, 1 z7, 1 z7, 255])]), ...
%!         struct ("x", int8 (-1)));

## the codec is the MEX function __grade_value__; its errors are
## grade_value's
%!test
%! assert (exist ("__grade_value__"), 3);
%! try
%!   grade_value ("decode", uint8 ("ATGV"));
%!   error ("decoded a truncated header");
%! catch err
%!   assert (err.identifier, "attention:channel");
%!   assert (strncmp (err.message, "grade_value: not a grade_value message", 38), err.message);
%! end_try_catch
%!error <unknown action 'frobnicate'> grade_value ("frobnicate", 1)
%!error id=attention:nargin grade_value ("encode")
%!error id=attention:nargin grade_value ("decode", uint8 ([]), 1, 2)

## values Octave would change on the way out of a MEX function: complex
## with no nonzero imaginary part, inside cells and structs too; and large
## arrays, which Octave makes (zeros) and the codec fills
%!test
%! check_round_trip ({complex(zeros(2, 0)), complex(single([0 -0]), 0)});
%! check_round_trip (struct ("c", {complex(1, 0), complex(0, -0)}));
%! check_round_trip (complex (zeros (300), 0));
%! check_round_trip ({int16(reshape(1:2^20, 2^10, 2^10)), true(2^20, 1), ...
%!                    repmat("x", 1, 2^20), single(rand(2^9, 2^9))});
%! check_round_trip (eye (3));                      # a diagonal matrix
%! check_round_trip (1:5);                          # a range
%! check_round_trip (int8 (1):int8 (4));

## every class, real and complex
%!test
%! for c = {"double", "single", "int8", "uint8", "int16", "uint16", ...
%!          "int32", "uint32", "int64", "uint64"}
%!   check_round_trip (cast (magic (4), c{1}));
%!   check_round_trip (zeros (0, 3, c{1}));
%!   check_round_trip (zeros (1, 0, 2, c{1}));
%!   check_round_trip (cast (reshape (1:24, 2, 3, 4), c{1}));
%! endfor
%! for c = {"int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"}
%!   check_round_trip ([intmin(c{1}), intmax(c{1}), 0]);
%! endfor
%! check_round_trip (complex (1:3, [0 -2 5]));
%! check_round_trip (complex (0, 0));          # complex with no imaginary part
%! check_round_trip (single (complex (rand (2, 2, 2), rand (2, 2, 2))));
%! check_round_trip ([true false; false true]);
%! check_round_trip (true (2, 0, 3));
%! check_round_trip (pi);
%! check_round_trip ([]);
%! check_round_trip ("");
%! check_round_trip (zeros (1, 0));
%! check_round_trip (rand (2, 3, 1, 2));

## doubles bit for bit: NaN, Inf, the sign of zero, real and imaginary
%!test
%! x = [NaN, Inf, -Inf, -0, 0, realmin, -realmax, eps];
%! y = grade_value ("decode", grade_value ("encode", x));
%! assert (typecast (y, "uint64"), typecast (x, "uint64"));
%! assert (1 ./ y(4:5), [-Inf, Inf]);
%! z = grade_value ("decode", grade_value ("encode", complex (-0, -0)));
%! assert (iscomplex (z));
%! assert ([1/real(z), 1/imag(z)], [-Inf, -Inf]);
%! s = grade_value ("decode", grade_value ("encode", single ([-0 NaN Inf])));
%! assert (class (s), "single");
%! assert (1 ./ s(1), single (-Inf));
%! assert (isnan (s(2)) && isinf (s(3)));

## chars are bytes, all 256 of them, in any shape
%!test
%! check_round_trip (char (0:255));
%! check_round_trip (reshape (char (0:255), 16, 16));
%! check_round_trip (reshape (char (255:-1:0), 4, 8, 8));
%! y = grade_value ("decode", grade_value ("encode", char ([0 128 255])));
%! assert (double (y), [0 128 255]);

## N dimensions, up to 32
%!test
%! check_round_trip (zeros ([ones(1, 31) 2]));
%! check_round_trip (cell ([2 1 1 1 0 3]));
%! fail ('grade_value ("encode", zeros ([ones(1, 32) 2]))', "more than 32 dimensions");

## cells and structs, nested, empty, arrays of them
%!test
%! check_round_trip ({});
%! check_round_trip (cell (1, 0, 2));
%! check_round_trip (num2cell (int32 (1:2000)));          # many nodes
%! check_round_trip ({1, "two"; {int8(3), {}}, {true, {single(4)}}});
%! s = struct ("a", {1, "x", {2}}, "b_2", {[], struct("c", {5; 6}), int16(7)});
%! check_round_trip (s);
%! check_round_trip (reshape (s, 3, 1));
%! check_round_trip (repmat (struct ("p", 1, "q", 2), [2 3 2]));
%! check_round_trip (struct ());
%! check_round_trip (struct ([]));
%! check_round_trip (repmat (struct (), 2, 3));
%! check_round_trip (struct ("a", cell (0, 3), "b", cell (0, 3)));
%! check_round_trip ({complex(0, 0), struct("z", complex(-0, 0))});
%! check_round_trip (struct ("a", {{}}));
%! check_round_trip (struct (repmat ("z", 1, 63), 1));
%! ## field order kept
%! t = grade_value ("decode", grade_value ("encode", struct ("z", 1, "a", 2)));
%! assert (fieldnames (t), {"z"; "a"});

## element-major struct values: element 1's fields, then element 2's
%!test
%! b = grade_value ("encode", struct ("a", {int8(1), int8(2)}, "b", {int8(3), int8(4)}));
%! ## each value an int8 node of 19 + 1 bytes, its byte last
%! assert (b(end-60:20:end), uint8 ([1 3 2 4]));

%!function c = deep_cell (depth)
%!  c = 1;
%!  for k = 1:depth - 1
%!    c = {c};
%!  endfor
%!endfunction

## what cannot be sent names its class
%!error <function_handle> grade_value ("encode", @sin)
%!error <sparse> grade_value ("encode", speye (3))
%!error <sparse> grade_value ("encode", sparse (true))
%!error <containers.Map> grade_value ("encode", containers.Map ())
%!error <function_handle> grade_value ("encode", {1, struct("f", @cos)})
%!error <nested deeper than 64> grade_value ("encode", deep_cell (65))
%!test
%! check_round_trip (deep_cell (64));
%! try
%!   grade_value ("encode", @sin);
%! catch err
%!   assert (err.identifier, "attention:channel");
%! end_try_catch

## every prefix of an encoding is refused
%!test
%! vals = {pi, complex(single(1), 2), "abc", {1, {true}}, ...
%!         struct("a", {1, 2}, "bc", {"x", {}}), int64([1 2; 3 4])};
%! for i = 1:numel (vals)
%!   b = grade_value ("encode", vals{i});
%!   for k = 0:numel (b) - 1
%!     check_refused (b(1:k), "truncated|not a grade_value");
%!   endfor
%!   check_refused ([b, uint8(0)], "1 trailing bytes");
%!   check_refused ([b, b], "trailing bytes");
%! endfor

## the header
%!test
%! b = grade_value ("encode", 1);
%! check_refused ([uint8("X"), b(2:end)], "bad header");
%! check_refused ([b(1:4), uint8(2), b(6:end)], "bad header");
%! check_refused (uint8 ([]), "bad header");
%! check_refused (double (b), "uint8 vector");
%! check_refused (b, "more than the limit of 0", 0);
%! check_refused (b, "max_bytes must be", -1);
%! assert (grade_value ("decode", b(:)), 1);            # a column is fine

## huge declared sizes fail before anything is allocated
%!test
%! tic;
%! check_refused ([header(), node(1, 0, [2^40 2^40])], "larger than 2147483647");
%! check_refused ([header(), node(1, 0, [2^31-1 2^31-1])], "too large");
%! check_refused ([header(), node(1, 0, [2^31-1 2^21])], "limit");
%! check_refused ([header(), node(1, 0, [2^10 2^5])], "truncated");
%! check_refused ([header(), node(13, 0, [2^10 2^5])], "truncated");
%! check_refused ([header(), node(14, 0, [2^10 2^5]), uint8([1 0])], "truncated");
%! check_refused ([header(), node(1, 0, [0 2^31-1 2^31-1 2^31-1])], "too large");
%! check_refused ([header(), uint8([1 0 2]), u64(2^64 - 1), u64(1)], "larger");
%! ## a struct with no fields takes no input per element but is charged
%! check_refused ([header(), node(14, 0, [2^31-1 2^20]), uint8([0 0])], "limit");
%! check_refused ([header(), node(14, 0, [1 1000]), uint8([0 0])], "limit", 4000);
%! assert (toc < 5);

## nesting is bounded: 1000 cells deep
%!test
%! one = [node(1, 0, [1 1]), typecast(1, "uint8")];
%! b = [header(), repmat(node(13, 0, [1 1]), 1, 1000), one];
%! check_refused (b, "nested deeper than 64");
%! b = [header(), repmat(node(13, 0, [1 1]), 1, 63), one];
%! assert (grade_value ("decode", b), deep_cell (64));
%! b = [header(), repmat(node(13, 0, [1 1]), 1, 64), one];
%! check_refused (b, "nested deeper than 64");

## class codes, flags and dimension counts
%!test
%! one = typecast (1, "uint8");
%! check_refused ([header(), node(0, 0, [1 1]), one], "class code 0");
%! check_refused ([header(), node(15, 0, [1 1]), one], "class code 15");
%! check_refused ([header(), node(3, 1, [1 1]), uint8([1 1])], "flags 1 for a int8");
%! check_refused ([header(), node(12, 1, [1 1]), uint8([65 65])], "flags");
%! check_refused ([header(), node(1, 2, [1 1]), one], "flags 2");
%! check_refused ([header(), node(1, 0, 1), one], "1 dimensions");
%! check_refused ([header(), node(1, 0, ones(1, 33)), one], "33 dimensions");
%! check_refused ([header(), node(11, 0, [1 3]), uint8([1 0 2])], "logical byte");
%! check_refused ([header(), node(11, 0, [1 1]), uint8(255)], "logical byte");
%! assert (grade_value ("decode", [header(), node(11, 0, [1 2]), uint8([1 0])]), [true false]);

## struct field names: valid identifiers, distinct
%!test
%! b = grade_value ("encode", struct ("ab", 1, "cd", 2));
%! at = strfind (char (b), "cd");
%! c = b; c(at:at+1) = "ab";
%! check_refused (c, "duplicate struct field names");
%! for bad = {"1b", "a ", "_a", "é", [0 98], [200 201]}
%!   c = b; c(at:at+1) = uint8 (bad{1}); 
%!   check_refused (c, "invalid struct field name");
%! endfor
%! c = b; c(at-1) = 0;               # empty name
%! check_refused (c, "invalid struct field name|truncated");
%! long = struct (repmat ("z", 1, 63), 1);
%! c = grade_value ("encode", long);
%! c = [c(1:5+19+2), uint8(64), uint8(repmat("z", 1, 64)), c(5+19+2+1+63+1:end)];
%! check_refused (c, "invalid struct field name");

## the limit on input and on decoded size
%!test
%! b = grade_value ("encode", zeros (100));
%! assert (grade_value ("decode", b, numel (b)), zeros (100));
%! check_refused (b, "more than the limit", numel (b) - 1);
%! c = grade_value ("encode", {zeros(10), zeros(10), zeros(10)});
%! assert (size (grade_value ("decode", c, numel (c))), [1 3]);
%! check_refused (c, "limit", 100);

## hostile bytes: random mutations of valid encodings decode to a value or
## raise attention:channel, nothing else
%!test
%! vals = {pi, complex([1 -0], [NaN 2]), int16(magic(3)), "h\0i", true(2, 2), ...
%!         {1, {single(2), "x"}, {}}, struct("a", {1, {2}}, "bb", {"c", int8(4)}), ...
%!         struct(), cell(2, 0), uint64([1 2])};
%! enc = cellfun (@(v) grade_value ("encode", v), vals, "uniformoutput", false);
%! rand ("state", 42);
%! nval = 0; nerr = 0; other = {};
%! for t = 1:3000
%!   b = enc{randi(numel (enc))};
%!   switch (randi (4))
%!     case 1                                   # overwrite some bytes
%!       k = randi (numel (b), 1, randi (3));
%!       b(k) = randi ([0 255], 1, numel (k));
%!     case 2                                   # an extreme value
%!       b(randi (numel (b))) = [0 1 2 63 64 127 128 254 255](randi (9));
%!     case 3                                   # drop bytes
%!       b(randi (numel (b), 1, randi (4))) = [];
%!     case 4                                   # insert bytes
%!       k = randi (numel (b) + 1);
%!       b = [b(1:k-1), uint8(randi ([0 255], 1, randi (3))), b(k:end)];
%!   endswitch
%!   try
%!     grade_value ("decode", b, 2^20);
%!     nval += 1;
%!   catch err
%!     if (strcmp (err.identifier, "attention:channel"))
%!       nerr += 1;
%!     else
%!       other{end+1} = sprintf ("%s: %s", err.identifier, err.message);
%!     endif
%!   end_try_catch
%! endfor
%! assert (other, {});
%! assert (nval > 50 && nerr > 1000, sprintf ("%d values, %d errors", nval, nerr));

## a 1000×1000 double both ways (the time is printed, not checked)
%!test
%! x = rand (1000);
%! grade_value ("decode", grade_value ("encode", x(1:10)));   # parsed once
%! tic; b = grade_value ("encode", x); t_enc = toc;
%! tic; y = grade_value ("decode", b); t_dec = toc;
%! assert (isequal (y, x));
%! assert (numel (b), 8e6 + 5 + 19);
%! printf ("grade_value 1000x1000 double: encode %.1f ms, decode %.1f ms\n",
%!         1e3 * t_enc, 1e3 * t_dec);
