## -*- texinfo -*-
## @deftypefn {} {[@var{B}, @var{Xq}, @var{Xkv}, @var{key_allow}, @var{dY}] =} kernel_block_inputs (@var{c})
## Random block, inputs and upstream gradient for one row @var{c} of
## @code{kernel_cases ("block")}.
##
## @var{Xkv} is [] for self and masked blocks; @var{key_allow} is [] when the
## case has no mask, else random m×Bt with the last key of item 1 padding
## and the first key of every item real.  @var{dY} is n×d×Bt.
##
## @example
## [B, Xq, Xkv, key_allow, dY] = kernel_block_inputs (kernel_cases ("block")(8,:));
## @end example
## @end deftypefn

function [B, Xq, Xkv, key_allow, dY] = kernel_block_inputs (c)
  [kind, n, m, d, d_src, h, dk, dv, Bt, masked] = c{:};
  B = ref_rand_block (d, d_src, h, dk, dv);
  Xq = randn (n, d, Bt);
  Xkv = [];
  if (strcmp (kind, "cross"))
    Xkv = randn (m, d_src, Bt);
  endif
  key_allow = [];
  if (masked)
    key_allow = rand (m, Bt) > 0.3;
    key_allow(1,:) = true;
    key_allow(end,1) = false;
  endif
  dY = randn (n, d, Bt);
endfunction
