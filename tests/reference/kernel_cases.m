## -*- texinfo -*-
## @deftypefn {} {@var{cases} =} kernel_cases (@var{what})
## The shapes of the random test cases shared by the kernel test files.
##
## @var{what} = @qcode{"sdpa"}: rows @{n, m, dk, dv, pages, mask@} with mask
## one of @qcode{"none"}, @qcode{"shared"} (n×m), @qcode{"paged"}
## (n×m×pages), @qcode{"causal"}, @qcode{"holes"} (paged, rows 1 and 3
## fully masked).  Build the arrays with @code{kernel_sdpa_inputs}.
##
## @var{what} = @qcode{"block"}: rows @{kind, n, m, d, d_src, h, dk, dv, Bt,
## masked@} covering several head counts, dk != dv, d_src != d, n != m,
## key masks and batches.  Build them with @code{kernel_block_inputs}.
##
## @example
## for c = 1:rows (cases = kernel_cases ("block"))
##   [B, Xq, Xkv, key_allow] = kernel_block_inputs (cases(c,:));
## endfor
## @end example
## @end deftypefn

function cases = kernel_cases (what)
  switch (what)
    case "sdpa"
      cases = {4, 4, 3, 3, [],     "none"
               3, 5, 2, 4, [],     "shared"
               5, 3, 4, 2, [2 3],  "none"
               3, 4, 2, 3, [2 3],  "paged"
               4, 6, 3, 2, 3,      "shared"
               4, 4, 2, 2, [2 2],  "causal"
               2, 5, 3, 1, 2,      "causal"
               5, 2, 2, 3, [3 2],  "causal"
               4, 3, 2, 2, 2,      "holes"};
    case "block"
      cases = {"self",   4, 4, 3, 3, 1, 3, 3, 1, false
               "self",   5, 5, 4, 4, 2, 3, 2, 3, true
               "self",   3, 3, 6, 6, 3, 1, 4, 1, true
               "masked", 4, 4, 3, 3, 1, 3, 3, 1, false
               "masked", 6, 6, 5, 5, 3, 2, 4, 2, true
               "masked", 3, 3, 4, 4, 4, 2, 1, 3, false
               "cross",  4, 4, 3, 3, 1, 3, 3, 1, false
               "cross",  3, 5, 4, 6, 2, 3, 5, 2, true
               "cross",  5, 2, 8, 3, 4, 2, 1, 1, false
               "cross",  2, 7, 2, 5, 1, 4, 3, 3, true};
    otherwise
      error ("kernel_cases: WHAT must be \"sdpa\" or \"block\"");
  endswitch
endfunction
