## -*- texinfo -*-
## @deftypefn  {} {@var{A} =} my_softmax (@var{S})
## @deftypefnx {} {@var{A} =} my_softmax (@var{S}, @var{allow})
## Your masked row softmax (see handout.md).
##
## @var{S}: n×m×h scores (one page per head).  @var{allow}: n×m logical,
## true = the query may read the key, shared by every page (default: all
## true).  Return the weights @var{A} (n×m×h): each row a softmax over its
## allowed keys, 0 elsewhere, a row with no allowed key all 0.
## @end deftypefn

function A = my_softmax (S, allow)
  if (nargin < 2)
    allow = true (rows (S), columns (S));
  endif

  ## 1. Mask: not allowed (and -Inf) scores must give weight 0.

  ## 2. Subtract each row's largest allowed score (max along dimension 2).

  ## 3. exp, then divide each row by its sum; a row with nothing allowed
  ##    stays 0.

  error ("my_softmax: not written yet (see handout.md)");
endfunction
