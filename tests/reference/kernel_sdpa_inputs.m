## -*- texinfo -*-
## @deftypefn {} {[@var{Q}, @var{K}, @var{V}, @var{allow}] =} kernel_sdpa_inputs (@var{c})
## Random normal inputs for one row @var{c} of @code{kernel_cases ("sdpa")}.
##
## Masks are random (about 60% true); @var{allow} is [] for @qcode{"none"}.
## Seed @code{randn} and @code{rand} first for repeatable numbers.
##
## @example
## [Q, K, V, allow] = kernel_sdpa_inputs (kernel_cases ("sdpa")(4,:));
## @end example
## @end deftypefn

function [Q, K, V, allow] = kernel_sdpa_inputs (c)
  [n, m, dk, dv, pages, mask] = c{:};
  Q = randn ([n, dk, pages]);
  K = randn ([m, dk, pages]);
  V = randn ([m, dv, pages]);
  switch (mask)
    case "none"
      allow = [];
    case "causal"
      allow = "causal";
    case "shared"
      allow = rand (n, m) > 0.4;
    case "paged"
      allow = rand ([n, m, pages]) > 0.4;
    case "holes"
      allow = rand ([n, m, pages]) > 0.2;
      allow([1 3],:,:) = false;
  endswitch
endfunction
