## -*- texinfo -*-
## @deftypefn  {} {[@var{hidden}, @var{slope}] =} activation (@var{name}, @var{pre})
## @deftypefnx {} {@var{names} =} activation ()
## The FFN's activation function, applied to every entry of @var{pre}
## (@code{X*W_1 + b_1}), and with a second output its derivative at
## @var{pre} (the factor the backward pass multiplies by; asked for the
## slope alone, @code{[~, slope] = activation (@dots{})}, it does not make
## @var{hidden} where the slope does not need it).  The one place
## that knows the activations: the config's @code{activation} field may
## name any of them, and adding one here is all a new activation takes.
##
## Without arguments, returns the names (a cellstr, the first the default):
## @table @asis
## @item @qcode{"relu"}
## @code{max (x, 0)}
## @item @qcode{"gelu"}
## @code{x .* Phi (x)}, Phi the standard normal distribution function
## (through @code{erfc}, exact to the last digits for negative x)
## @item @qcode{"gelu_tanh"}
## the tanh approximation of GELU,
## @code{0.5*x .* (1 + tanh (sqrt (2/pi) * (x + 0.044715*x.^3)))}
## @item @qcode{"silu"}
## @code{x .* sigmoid (x)} (also called swish)
## @item @qcode{"tanh"}
## @code{tanh (x)} (BERT's pooler before a sentence classifier)
## @end table
## @end deftypefn

function [hidden, slope] = activation (name, pre)
  if (nargin == 0)
    hidden = {"relu", "gelu", "gelu_tanh", "silu", "tanh"};
    return;
  endif
  switch (name)
    case "relu"
      if (isargout (1))
        hidden = max (pre, 0);
      endif
      if (nargout > 1)                         # pre's class: Octave multiplies by a
        if (isa (pre, "single"))               # logical array five times slower, and
          slope = single (pre > 0);            # a single one by a double through a
        else                                   # single copy of it
          slope = double (pre > 0);
        endif
      endif
    case "gelu"
      Phi = erfc (-pre / sqrt (2)) / 2;
      if (isargout (1))
        hidden = pre .* Phi;
      endif
      if (nargout > 1)
        slope = Phi + pre .* exp (-pre .^ 2 / 2) / sqrt (2 * pi);
      endif
    case "gelu_tanh"
      k = sqrt (2 / pi);
      t = tanh (k * (pre + 0.044715 * pre .^ 3));
      if (isargout (1))
        hidden = pre .* (1 + t) / 2;
      endif
      if (nargout > 1)
        slope = (1 + t) / 2 + pre .* (1 - t .^ 2) .* (k * (1 + 3 * 0.044715 * pre .^ 2)) / 2;
      endif
    case "silu"
      sigma = 1 ./ (1 + exp (-pre));
      if (isargout (1))
        hidden = pre .* sigma;
      endif
      if (nargout > 1)
        slope = sigma .* (1 + pre .* (1 - sigma));
      endif
    case "tanh"
      hidden = tanh (pre);
      if (nargout > 1)
        slope = 1 - hidden .^ 2;
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
%!test
%! ## hidden and slope keep pre's class, every activation
%! for name = activation ()
%!   for cls = {"double", "single"}
%!     [h, s] = activation (name{1}, cast ([-1 0.5 2], cls{1}));
%!     assert ({class(h), class(s)}, {cls{1}, cls{1}});
%!   endfor
%! endfor
%!test
%! ## GELU's values printed in its definition's table of Phi: Phi(1) =
%! ## 0.841344746068543, Phi(-2) = 0.0227501319481792
%! assert (activation ("gelu", [1 -2]), [0.841344746068543, -2*0.0227501319481792], 1e-15);
%! ## the tanh form stays within 1e-3 of the exact one
%! x = linspace (-5, 5, 101);
%! assert (activation ("gelu_tanh", x), activation ("gelu", x), 1e-3);
%! assert (activation ("silu", [0 1]), [0, 1 / (1 + exp (-1))], 1e-16);
