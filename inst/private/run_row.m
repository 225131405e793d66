## [state, x] = run_row (m, state, x): one new input row x (1×d) through
## every layer of m.decoder (a causal stack), updating the caches state.K,
## state.V; x comes back as the last layer's output row.
function [state, x] = run_row (m, state, x)
  for l = 1:numel (m.decoder)
    [x, state.K{l}, state.V{l}] = causal_step (x, m.decoder(l), state.K{l}, state.V{l},
                                               m.config.norm);
  endfor
endfunction
