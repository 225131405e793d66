## -*- texinfo -*-
## @deftypefn {} {[@var{count}, @var{elements}] =} ref_arrays (@var{S})
## The numeric arrays held anywhere in struct (array) @var{S}, found by
## walking every field: how many there are and how many numbers they hold.
## An independent count for the tests of the model schema, which lists a
## model's arrays from its config instead.
## @end deftypefn

function [count, elements] = ref_arrays (S)
  count = elements = 0;
  for k = 1:numel (S)
    for f = fieldnames (S)'
      x = S(k).(f{1});
      if (isstruct (x))
        [c, e] = ref_arrays (x);
        count += c;
        elements += e;
      elseif (isnumeric (x))
        count += 1;
        elements += numel (x);
      endif
    endfor
  endfor
endfunction

%!test
%! [c, e] = ref_arrays (struct ("a", {1:3, struct("b", ones (2), "t", "x")}, "z", 5));
%! assert ([c, e], [4, 9]);
