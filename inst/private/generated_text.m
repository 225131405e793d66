## [text, info] = generated_text (info, ids, v): the end of a generation:
## info.ids (the generated ids), info.tokens, info.stopped ("eos" when the
## last id is <eos>, else "length") and the text without <eos>.
function [text, info] = generated_text (info, ids, v)
  info.ids = ids;
  info.tokens = v.words(ids);
  info.stopped = "length";
  if (! isempty (ids) && ids(end) == v.eos)
    info.stopped = "eos";
  endif
  text = strjoin (info.tokens(ids != v.eos), " ");
endfunction
