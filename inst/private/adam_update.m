## [m, state] = adam_update (m, G, state, o): one Adam step on the arrays
## of m that G holds (attn_adam documents the formula and the state);
## o.lr, o.beta1, o.beta2, o.epsilon checked by the caller.
function [m, state] = adam_update (m, G, state, o)
  g = tree_flat (G);
  if (isempty (state))
    state = struct ("t", 0, "m", zeros (size (g)), "v", zeros (size (g)));
  elseif (! isequal (size (state.m), size (g)))
    error ("attention:type",
           "attn_adam: STATE must be [] or the state a previous call with gradients of this layout returned");
  endif
  state.t += 1;
  state.m = o.beta1 * state.m + (1 - o.beta1) * g;
  state.v = o.beta2 * state.v + (1 - o.beta2) * g .^ 2;
  mhat = state.m / (1 - o.beta1 ^ state.t);
  vhat = state.v / (1 - o.beta2 ^ state.t);
  m = tree_add (m, G, -o.lr * mhat ./ (sqrt (vhat) + o.epsilon));
endfunction
