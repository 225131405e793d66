## -*- texinfo -*-
## @deftypefn {} {[@var{v}, @var{parent}, @var{leaf}] =} trace_get (@var{T}, @var{path})
## The value at @var{path} (e.g. @code{"decoder@{2@}.cross.A"}) inside struct
## @var{T}, the struct that holds it and the last field name.  A missing
## field is an @code{attention:field} error naming the path.
## @end deftypefn

function [v, parent, leaf] = trace_get (T, path)
  parts = regexp (path, '([A-Za-z_]\w*)(?:\{(\d+)\}|\((\d+)\))?', "tokens");
  if (isempty (parts))
    error ("attention:field", "trace path \"%s\": expected names such as \"cross.A\" or \"decoder{1}.cross.A\"", path);
  endif
  v = T;
  parent = T;
  for k = 1:numel (parts)
    name = parts{k}{1};
    if (! isstruct (v) || ! isfield (v, name))
      error ("attention:field", "trace path \"%s\": no field \"%s\"", path, name);
    endif
    parent = v;
    v = v.(name);
    if (numel (parts{k}) > 1 && ! isempty (parts{k}{2}))
      i = str2double (parts{k}{2});
      if (i > numel (v))
        error ("attention:field", "trace path \"%s\": %s has %d elements, asked for %d",
               path, name, numel (v), i);
      endif
      if (iscell (v))
        v = v{i};
      else
        v = v(i);
      endif
    endif
  endfor
  leaf = parts{end}{1};
endfunction
