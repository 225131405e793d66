## [names, arrays, meta] = model_file_parts (m, caller): what a model file
## of m holds: every array of model_schema in its order (names = paths),
## and as metadata the format tag and the config and vocabularies as JSON
## text (file_meta_json).  Refused before anything is written: a struct
## that is not a model (attention:model), values a file cannot hold
## (attention:type), a bad config or vocabulary (attention:config,
## attention:vocab), an array that is missing, extra, of the wrong class or
## shape (attention:model) or not finite (attention:nonfinite).
function [names, arrays, meta] = model_file_parts (m, caller)
  need = {"config", "src_vocab", "tgt_vocab"};
  if (! isstruct (m) || ! isscalar (m) || ! all (isfield (m, need)))
    error ("attention:model", "%s: M must be a model struct (config, vocabularies and arrays), got %s",
           caller, disp_arg (m));
  endif
  meta = {"format", "attention-model 1";
          "config", file_meta_json(m.config, "M.config", caller);
          "src_vocab", file_meta_json(m.src_vocab, "M.src_vocab", caller);
          "tgt_vocab", file_meta_json(m.tgt_vocab, "M.tgt_vocab", caller)};
  parts = model_file_plan (m.config, m.src_vocab, m.tgt_vocab, caller, Inf);
  names = {parts.path};
  [held, values] = leaves (rmfield (m, need), "", names, {}, {});
  extra = setdiff (held, names);
  if (! isempty (extra))
    error ("attention:model",
           "%s: M.%s is not an array of a %s model with this config, so a model file cannot hold it",
           caller, extra{1}, m.config.family);
  endif
  [found, at] = ismember (names, held);
  if (! all (found))
    error ("attention:model", "%s: M lacks %s", caller, names{find (! found, 1)});
  endif
  arrays = values(at);
  for i = 1:numel (parts)
    x = arrays{i};
    if (! isa (x, "double") || ! isreal (x) || issparse (x) || ! isequal (size (x), parts(i).shape))
      error ("attention:model", "%s: M.%s must be a real %d×%d double matrix, got %s",
             caller, names{i}, parts(i).shape, disp_arg (x));
    elseif (! all (isfinite (x(:))))
      error ("attention:nonfinite", "%s: M.%s holds NaN or Inf; a model file holds finite weights only",
             caller, names{i});
    endif
  endfor
endfunction

## every leaf of s (anything but a struct) with its dotted path; struct
## arrays are indexed (from 1) when they have several elements or the
## schema indexes them
function [held, values] = leaves (s, pre, paths, held, values)
  for f = fieldnames (s)'
    x = s.(f{1});
    p = [pre f{1}];
    if (isstruct (x))
      indexed = numel (x) != 1 || any (strncmp (paths, [p ".1."], numel (p) + 3));
      for k = 1:numel (x)
        q = p;
        if (indexed)
          q = sprintf ("%s.%d", p, k);
        endif
        [held, values] = leaves (x(k), [q "."], paths, held, values);
      endfor
    else
      held{end+1} = p;
      values{end+1} = x;
    endif
  endfor
endfunction
