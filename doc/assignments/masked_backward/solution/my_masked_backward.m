## -*- texinfo -*-
## @deftypefn {} {@var{G} =} my_masked_backward (@var{dY}, @var{T}, @var{B})
## Reference solution: the backward pass of the masked self-attention block
## in plain Octave.
##
## @var{dY} (n×d) is dL/dY; @var{T} the trace of @code{attn_masked (X, B)};
## @var{G} holds @code{W_Q}, @code{W_K}, @code{W_V}, @code{W_O} and
## @code{dX}, each the shape of what it differentiates, and the
## intermediate gradients @code{dmessage}, @code{dA}, @code{dV},
## @code{dscores}, @code{dQ}, @code{dK}.
## @end deftypefn

function G = my_masked_backward (dY, T, B)
  h = B.heads;
  dk = columns (B.W_Q) / h;
  dv = columns (B.W_V) / h;
  X = T.X;
  ## delta = message*W_O, Y = X + delta
  G.W_O = T.message' * dY;                       # h·dv×d
  G.dmessage = dY * B.W_O';                      # n×h·dv
  G.dA = zeros (size (T.A));                     # n×n×h
  G.dscores = zeros (size (T.A));
  G.dQ = zeros (size (T.Q));
  G.dK = zeros (size (T.K));
  G.dV = zeros (size (T.V));
  for j = 1:h
    qk = (j - 1) * dk + (1:dk);
    vv = (j - 1) * dv + (1:dv);
    A = T.A(:,:,j);                              # n×n
    ## message_j = A*V_j
    dA = G.dmessage(:,vv) * T.V(:,vv)';          # n×n
    G.dV(:,vv) = A' * G.dmessage(:,vv);
    ## A = row softmax of scores (masked entries have A = 0, so dS = 0 there)
    dS = A .* (dA - sum (dA .* A, 2));
    ## scores = Q_j*K_j'/sqrt(dk)
    G.dQ(:,qk) = dS * T.K(:,qk) / sqrt (dk);
    G.dK(:,qk) = dS' * T.Q(:,qk) / sqrt (dk);
    G.dA(:,:,j) = dA;
    G.dscores(:,:,j) = dS;
  endfor
  ## Q = X*W_Q, K = X*W_K, V = X*W_V, and the residual path
  G.W_Q = X' * G.dQ;
  G.W_K = X' * G.dK;
  G.W_V = X' * G.dV;
  G.dX = dY + G.dQ * B.W_Q' + G.dK * B.W_K' + G.dV * B.W_V';
endfunction
