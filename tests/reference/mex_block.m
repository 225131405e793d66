## -*- texinfo -*-
## @deftypefn  {} {[@var{Y}, @var{T}] =} mex_block (@var{kind}, @var{Xq}, @var{Xkv}, @var{B})
## @deftypefnx {} {[@var{Y}, @var{T}] =} mex_block (@var{kind}, @var{Xq}, @var{Xkv}, @var{B}, @var{key_allow})
## Call the package's block of @var{kind} with @code{attn_ref_block}'s arguments.
##
## @qcode{"self"} and @qcode{"masked"} call @code{attn_self (Xq, B, key_allow)}
## and @code{attn_masked (Xq, B, key_allow)} (@var{Xkv} is ignored);
## @qcode{"cross"} calls @code{attn_cross (Xq, Xkv, B, key_allow)}.  Lets a
## test run the same case through the MEX and the reference.
##
## @example
## [Y, T] = mex_block ("cross", D, E, B, key_allow);
## @end example
## @seealso{attn_ref_block}
## @end deftypefn

function [Y, T] = mex_block (kind, Xq, Xkv, B, key_allow = [])
  switch (kind)
    case "self"
      [Y, T] = attn_self (Xq, B, key_allow);
    case "masked"
      [Y, T] = attn_masked (Xq, B, key_allow);
    case "cross"
      [Y, T] = attn_cross (Xq, Xkv, B, key_allow);
    otherwise
      error ("mex_block: unknown KIND '%s'", kind);
  endswitch
endfunction
