## -*- texinfo -*-
## @deftypefn {} {@var{opts} =} name_value (@var{args}, @var{opts}, @var{caller})
## The name, value pairs in the cell @var{args} over the defaults in the
## struct @var{opts} (lower-case field names; the names given are matched
## without regard to case).  An odd number of arguments or an unknown name
## is an @code{attention:nargin} error naming @var{caller} and the known
## options.
## @end deftypefn

function opts = name_value (args, opts, caller)
  if (mod (numel (args), 2))
    error ("attention:nargin", "%s: options come in name, value pairs", caller);
  endif
  for k = 1:2:numel (args)
    if (! ischar (args{k}) || ! isfield (opts, lower (args{k})))
      known = regexprep (strjoin (fieldnames (opts)', ", "), ', (\w+)$', ' or $1');
      error ("attention:nargin", "%s: unknown option %s (expected %s)", caller,
             disp_arg (args{k}), known);
    endif
    opts.(lower (args{k})) = args{k+1};
  endfor
endfunction
