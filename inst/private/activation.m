## -*- texinfo -*-
## @deftypefn  {} {[@var{hidden}, @var{slope}] =} activation (@var{name}, @var{pre})
## @deftypefnx {} {@var{names} =} activation ()
## The FFN's activation function, applied to every entry of @var{pre}
## (@code{X*W_1 + b_1}), and with a second output its derivative at
## @var{pre} (the factor the backward pass multiplies by).  The one place
## that knows the activations: the config's @code{activation} field may
## name any of them, and adding one here is all a new activation takes.
##
## Without arguments, returns the names (a cellstr, the first the default):
## @table @asis
## @item @qcode{"relu"}
## @code{max (x, 0)}
## @end table
## @end deftypefn

function [hidden, slope] = activation (name, pre)
  if (nargin == 0)
    hidden = {"relu"};
    return;
  endif
  switch (name)
    case "relu"
      hidden = max (pre, 0);
      if (nargout > 1)
        slope = pre > 0;
      endif
  endswitch
endfunction

%!test
%! ## every activation's slope against central differences
%! x = [-3 -1.2 -0.3 0.2 0.7 2.5];
%! for name = activation ()
%!   [~, slope] = activation (name{1}, x);
%!   h = 1e-6;
%!   fd = (activation (name{1}, x + h) - activation (name{1}, x - h)) / (2*h);
%!   assert (double (slope), fd, 1e-8);
%! endfor
%!assert (activation ("relu", [-1 0 2]), [0 0 2])
