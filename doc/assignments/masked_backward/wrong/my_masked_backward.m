## -*- texinfo -*-
## @deftypefn {} {@var{G} =} my_masked_backward (@var{dY}, @var{T}, @var{B})
## A wrong solution, for testing the grader: dX misses the residual path.
##
##
## @var{dY} (n×d) is dL/dY; @var{T} the trace of @code{attn_masked (X, B)};
## @var{G} holds @code{W_Q}, @code{W_K}, @code{W_V}, @code{W_O} and
## @code{dX}, each the shape of what it differentiates.
## @end deftypefn

function G = my_masked_backward (dY, T, B)
  h = B.heads;
  dk = columns (B.W_Q) / h;
  dv = columns (B.W_V) / h;
  X = T.X;
  ## delta = message*W_O, Y = X + delta
  G.W_O = T.message' * dY;                       # h·dv×d
  dmessage = dY * B.W_O';                        # n×h·dv
  dQ = zeros (size (T.Q));
  dK = zeros (size (T.K));
  dV = zeros (size (T.V));
  for j = 1:h
    qk = (j - 1) * dk + (1:dk);
    vv = (j - 1) * dv + (1:dv);
    A = T.A(:,:,j);                              # n×n
    ## message_j = A*V_j
    dA = dmessage(:,vv) * T.V(:,vv)';            # n×n
    dV(:,vv) = A' * dmessage(:,vv);
    ## A = row softmax of scores (masked entries have A = 0, so dS = 0 there)
    dS = A .* (dA - sum (dA .* A, 2));
    ## scores = Q_j*K_j'/sqrt(dk)
    dQ(:,qk) = dS * T.K(:,qk) / sqrt (dk);
    dK(:,qk) = dS' * T.Q(:,qk) / sqrt (dk);
  endfor
  ## Q = X*W_Q, K = X*W_K, V = X*W_V (wrong: the residual dY is left out)
  G.W_Q = X' * dQ;
  G.W_K = X' * dK;
  G.W_V = X' * dV;
  G.dX = dQ * B.W_Q' + dK * B.W_K' + dV * B.W_V';
endfunction
