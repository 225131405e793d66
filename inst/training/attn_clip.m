## -*- texinfo -*-
## @deftypefn {} {[@var{G}, @var{total}] =} attn_clip (@var{G}, @var{max_norm})
## Clip an attention model's gradients by their global norm.
##
## @var{total} is the 2-norm of all arrays of @var{G} taken together; when it
## exceeds @var{max_norm}, every array is scaled by @var{max_norm}/@var{total}
## (directions kept).  @var{max_norm} = Inf leaves @var{G} unchanged.  A
## @var{G} holding NaN or Inf has no norm to clip by: it is returned as
## it is, with @var{total} NaN or Inf for the caller to see (the optimisers
## refuse it with @code{attention:nonfinite}, and @code{attn_train} stops
## at such a step with @code{attention:diverged}).
##
## @example
## @group
## G = struct ("W", [3 0], "b", 4);
## [G, total] = attn_clip (G, 1);
## total
##   @result{} total = 5
## mat2str (G.W)
##   @result{} ans = [0.6 0]
## @end group
## @end example
## @seealso{attn_sgd, attn_adam, attn_train}
## @end deftypefn

function [G, total] = attn_clip (G, max_norm)
  if (nargin != 2)
    print_usage ();
  endif
  if (! isnumeric (max_norm) || ! isscalar (max_norm) || ! isreal (max_norm) || ! (max_norm > 0))
    error ("attention:type", "attn_clip: MAX_NORM must be a positive scalar, got %s",
           disp_arg (max_norm));
  endif
  g = tree_flat (G);
  total = norm (g);
  if (total > max_norm && isfinite (total))
    G = scaled (G, max_norm / total);
  endif
endfunction

## every numeric array of the struct G times s (struct arrays element by
## element)
function G = scaled (G, s)
  for k = 1:numel (G)
    for n = fieldnames (G)'
      x = G(k).(n{1});
      if (isstruct (x))
        G(k).(n{1}) = scaled (x, s);
      else
        G(k).(n{1}) = x * s;
      endif
    endfor
  endfor
endfunction

%!test
%! G = struct ("a", struct ("W", {[1 2], [2; 0]}), "b", 4);
%! [C, total] = attn_clip (G, 2.5);
%! assert (total, 5);
%! assert (C.a(2).W, [1; 0]);
%! assert (C.b, 2);
%! [C, total] = attn_clip (G, 6);
%! assert (C, G);

%!test
%! ## NaN or Inf: G as it is, the total says so
%! G = struct ("W", [3 NaN], "b", 4);
%! [C, total] = attn_clip (G, 1);
%! assert (isnan (total));
%! assert (isequaln (C, G));
%! [C, total] = attn_clip (struct ("W", [Inf 1]), 1);
%! assert (total, Inf);
%! assert (C.W, [Inf 1]);

%!error id=attention:type attn_clip (struct ("W", 1), 0)
%!error <MAX_NORM must be a positive scalar, got NaN> attn_clip (struct ("W", 1), NaN)
%!error <MAX_NORM must be a positive scalar> attn_clip (struct ("W", 1), 1i)
