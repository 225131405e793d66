## -*- texinfo -*-
## @deftypefn {} {@var{p} =} kernel_softmax (@var{z})
## Softmax of the row @var{z} computed by the attention kernel itself: one
## query of width 1 against keys @code{z'}, so the scores are @var{z} and the
## weights are its softmax (the same operation, seed 003's point).
## @end deftypefn

function p = kernel_softmax (z)
  [~, p] = attn_sdpa (1, z(:), zeros (numel (z), 1));
endfunction
