## -*- texinfo -*-
## @deftypefn {} {@var{G} =} my_masked_backward (@var{dY}, @var{T}, @var{B})
## Your backward pass of the masked self-attention block (see handout.md).
##
## @var{dY}: n×d, the gradient of the loss with respect to the block's
## output Y.  @var{T}: the trace of @code{[Y, T] = attn_masked (X, B)}
## (fields @code{X}, @code{Q}, @code{K}, @code{V}, @code{scores}, @code{A}
## (n×n×h), @code{message}, @code{delta}, @code{out}).  @var{B}: the block
## struct.
##
## Return @var{G} with @code{W_Q}, @code{W_K}, @code{W_V}, @code{W_O} (the
## shapes of B's matrices) and @code{dX} (n×d), and the intermediate
## gradients @code{dmessage} (n×h·dv), @code{dA} and @code{dscores}
## (n×n×h), @code{dQ}, @code{dK}, @code{dV} (the shapes of T's).
## @end deftypefn

function G = my_masked_backward (dY, T, B)
  h = B.heads;
  dk = columns (B.W_Q) / h;
  dv = columns (B.W_V) / h;

  ## Walk the forward pass backwards, one line at a time:
  ##   Y = X + delta           ->  dX gets dY; d(delta) = dY
  ##   delta = message*W_O     ->  G.W_O and G.dmessage
  ##   message_j = A_j*V_j     ->  G.dA(:,:,j) and dV_j   (for each head j)
  ##   A_j = softmax(scores_j) ->  G.dscores(:,:,j)       (row by row)
  ##   scores_j = Q_j*K_j'/sqrt(dk)  ->  dQ_j and dK_j
  ##   Q = X*W_Q, K = X*W_K, V = X*W_V  ->  G.W_Q, G.W_K, G.W_V, and more dX

  error ("my_masked_backward: not written yet (see handout.md)");
endfunction
