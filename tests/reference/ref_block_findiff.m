## -*- texinfo -*-
## @deftypefn {} {@var{G} =} ref_block_findiff (@var{fwd}, @var{kind}, @var{Xq}, @var{Xkv}, @var{B}, @var{key_allow}, @var{dY})
## Central finite-difference gradients of a block, field by field.
##
## The loss is L = sum (dY(:) .* Y(:)) with Y = fwd (kind, Xq, Xkv, B,
## key_allow), so dL/dY = @var{dY}.  @var{fwd} is @code{@@attn_ref_block} or
## @code{@@mex_block}.  @var{G} has the fields of a block gradient:
## @code{W_Q}, @code{W_K}, @code{W_V}, @code{W_O} and @code{dX} (self,
## masked: X perturbed as both query and key/value source) or @code{dD},
## @code{dE} (cross).
##
## @example
## @group
## G_fd = ref_block_findiff (@@mex_block, "masked", X, [], B, [], dY);
## ref_assert_close (attn_backward (dY, T, B), G_fd, 1e-7);
## @end group
## @end example
## @seealso{ref_findiff, attn_ref_block_backward}
## @end deftypefn

function G = ref_block_findiff (fwd, kind, Xq, Xkv, B, key_allow, dY)
  loss = @(xq, xkv, b) sum (dY(:) .* reshape (fwd (kind, xq, xkv, b, key_allow), [], 1));
  for f = {"W_Q", "W_K", "W_V", "W_O"}
    G.(f{1}) = ref_findiff (@(W) loss (Xq, Xkv, setfield (B, f{1}, W)), B.(f{1}));
  endfor
  if (strcmp (kind, "cross"))
    G.dD = ref_findiff (@(D) loss (D, Xkv, B), Xq);
    G.dE = ref_findiff (@(E) loss (Xq, E, B), Xkv);
  else
    G.dX = ref_findiff (@(X) loss (X, X, B), Xq);
  endif
endfunction
