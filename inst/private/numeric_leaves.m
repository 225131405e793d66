## -*- texinfo -*-
## @deftypefn {} {@var{L} =} numeric_leaves (@var{S})
## The numeric arrays inside @var{S} (struct, struct array, cell, or array),
## depth first in field order: a struct array with @code{name} (e.g.
## @code{"decoder(1).cross.W_Q"}) and @code{subs} (for @code{subsref} and
## @code{subsasgn}).  A numeric @var{S} itself is one leaf named @code{"x"}.
## @end deftypefn

function L = numeric_leaves (S)
  L = struct ("name", {}, "subs", {});
  if (isnumeric (S))
    L(1).name = "x";
    L(1).subs = struct ("type", {}, "subs", {});
    return;
  endif
  L = walk (S, "", struct ("type", {}, "subs", {}), L);
endfunction

function L = walk (S, name, subs, L)
  if (isstruct (S))
    f = fieldnames (S);
    for k = 1:numel (S)
      pre = name;
      sk = subs;
      if (numel (S) > 1)
        pre = sprintf ("%s(%d)", name, k);
        sk(end+1) = struct ("type", "()", "subs", {{k}});
      endif
      for i = 1:numel (f)
        dot = ifelse_dot (pre);
        L = walk (S(k).(f{i}), [pre, dot, f{i}], [sk, struct("type", ".", "subs", f{i})], L);
      endfor
    endfor
  elseif (iscell (S))
    for k = 1:numel (S)
      L = walk (S{k}, sprintf ("%s{%d}", name, k), [subs, struct("type", "{}", "subs", {{k}})], L);
    endfor
  elseif (isnumeric (S) && isreal (S) && ! isempty (S))
    L(end+1) = struct ("name", name, "subs", subs);
  endif
endfunction

function d = ifelse_dot (pre)
  d = "";
  if (! isempty (pre))
    d = ".";
  endif
endfunction
