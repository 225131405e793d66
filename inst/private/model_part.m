## [stack, l, what] = model_part (m, part, caller): the place of a block or
## FFN that PART names as the trace does ("decoder(2).self",
## "encoder(1).ffn"): the stack ("encoder" or "decoder"), the layer l and
## "self", "cross" or "ffn".  A name that is no part of m is an
## attention:field error listing m's parts; a PART that is no string is an
## attention:type error.  Errors name caller.
function [stack, l, what] = model_part (m, part, caller)
  if (! (ischar (part) && rows (part) == 1))
    error ("attention:type",
           "%s: PART must be a string such as \"decoder(2).self\", got %s", caller,
           disp_arg (part));
  endif
  where = regexp (part, '^(encoder|decoder)\((\d+)\)\.(self|cross|ffn)$', "tokens", "once");
  if (isempty (where) || ! isfield (m, where{1}) || str2double (where{2}) < 1
      || str2double (where{2}) > numel (m.(where{1})) || ! isfield (m.(where{1}), where{3}))
    error ("attention:field", "%s: this %s model has no part \"%s\"; its parts: %s",
           caller, m.config.family, part, strjoin (part_names (m), ", "));
  endif
  [stack, l, what] = deal (where{1}, str2double (where{2}), where{3});
endfunction

## the names of the blocks and FFNs of m, as PART spells them
function names = part_names (m)
  names = {};
  for stack = {"encoder", "decoder"}
    if (isfield (m, stack{1}))
      for l = 1:numel (m.(stack{1}))
        for what = intersect ({"self", "cross", "ffn"}, fieldnames (m.(stack{1}))', "stable")
          names{end+1} = sprintf ("%s(%d).%s", stack{1}, l, what{1});
        endfor
      endfor
    endif
  endfor
endfunction
