## -*- texinfo -*-
## @deftypefn  {} {[@var{m}, @var{state}] =} attn_adam (@var{m}, @var{G}, @var{state})
## @deftypefnx {} {[@var{m}, @var{state}] =} attn_adam (@var{m}, @var{G}, @var{state}, @var{name}, @var{value}, @dots{})
## Adam step (Kingma & Ba) on an attention model's arrays.  One step on
## every learned array of @var{m}.
##
## @var{state} is @code{[]} at the first step, then the struct returned by
## the previous call: @code{t} (steps taken), @code{m} and @code{v} (first
## and second moment estimates: one column holding every array of @var{G},
## depth first in field order).  The step is one fused pass over the
## arrays (@code{attn_step}).  For each array
## with gradient g:
## @display
## m_t = beta1*m + (1-beta1)*g,   v_t = beta2*v + (1-beta2)*g.^2
## w  -= lr * (m_t/(1-beta1^t)) ./ (sqrt (v_t/(1-beta2^t)) + epsilon)
## @end display
## Options: @code{lr} (1e-3), @code{beta1} (0.9), @code{beta2} (0.999),
## @code{epsilon} (1e-8).
##
## @example
## @group
## m = attn_toy ("river");
## [~, G] = attn_loss (m, "the river bank", "la rive");
## [m2, s] = attn_adam (m, G, [], "lr", 0.01);
## s.t
##   @result{} ans = 1
## @end group
## @end example
## @seealso{attn_sgd, attn_clip, attn_train, attn_step}
## @end deftypefn

function [m, state] = attn_adam (m, G, state, varargin)
  if (nargin < 3)
    print_usage ();
  endif
  o = parse_options ("attn_adam", {"lr", 1e-3, "real (0, Inf)";
                                   "beta1", 0.9, "real [0, 1)";
                                   "beta2", 0.999, "real [0, 1)";
                                   "epsilon", 1e-8, "real (0, Inf)"}, varargin);
  check_model (m, "attn_adam", G);
  if (! isempty (state) && (! isstruct (state) || ! all (isfield (state, {"t", "m", "v"}))))
    error ("attention:type",
           "attn_adam: STATE must be [] or the state a previous call returned, got %s",
           disp_arg (state));
  endif
  if (isempty (state))
    state = struct ("t", 0, "m", [], "v", []);
  endif
  t = state.t + 1;
  try
    [m, state.m, state.v] = attn_step (m, G, o.lr, state.m, state.v, o.beta1, o.beta2,
                                       o.epsilon, t);
  catch err
    error ("attention:type",
           "attn_adam: STATE must be [] or the state a previous call with gradients of this layout returned (%s)",
           err.message);
  end_try_catch
  state.t = t;
endfunction

%!test
%! ## two steps against the formula written out on one array
%! m = attn_toy ("blackcat");
%! [~, G1] = attn_loss (m, "the black cat", "le chat noir");
%! [m1, s] = attn_adam (m, G1, [], "lr", 0.1);
%! [~, G2] = attn_loss (m1, "the white dog", "le chien blanc");
%! [m2, s] = attn_adam (m1, G2, s, "lr", 0.1);
%! g1 = G1.W_vocab;  g2 = G2.W_vocab;
%! mo = 0.9 * (0.1 * g1) + 0.1 * g2;
%! ve = 0.999 * (0.001 * g1 .^ 2) + 0.001 * g2 .^ 2;
%! w1 = m.W_vocab - 0.1 * g1 ./ (abs (g1) + 1e-8);
%! w2 = w1 - 0.1 * (mo / (1 - 0.81)) ./ (sqrt (ve / (1 - 0.999^2)) + 1e-8);
%! assert (s.t, 2);
%! assert (m2.W_vocab, w2, 1e-12);
%! assert (s.m(end-numel (mo)-6:end-7), mo(:), 1e-15);   # W_vocab, then b_vocab

%!error id=attention:option attn_adam (attn_toy ("blackcat"), struct (), [], "momentum", 1)
%!error id=attention:type attn_adam (attn_toy ("blackcat"), struct (), 3)
%!error <option "lr" must be a real number in \(0, Inf\)> attn_adam (attn_toy ("blackcat"), struct (), [], "lr", -1)
%!error <option "beta1" must be a real number in \[0, 1\)> attn_adam (attn_toy ("blackcat"), struct (), [], "beta1", 1)
