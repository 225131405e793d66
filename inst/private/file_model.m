## -*- texinfo -*-
## @deftypefn  {} {[@var{names}, @var{arrays}, @var{meta}] =} file_model ("parts", @var{m}, @var{caller})
## @deftypefnx {} {[@var{m}, @var{parts}, @var{at}] =} file_model ("plan", @var{meta}, @var{info}, @var{prefix}, @var{where}, @var{caller}, @var{own})
## @deftypefnx {} {@var{m} =} file_model ("assemble", @var{m}, @var{parts}, @var{arrays}, @var{where}, @var{caller})
## A model in a safetensors file (@code{attn_save}, @code{attn_load} and
## the checkpoints of @code{attn_train}): what is written, and what is
## checked before and after the arrays are read.
##
## @table @code
## @item "parts"
## what a file of the model @var{m} (which @code{check_model} accepted)
## holds: every array of @code{model_schema} in its order (@var{names} =
## paths, @var{arrays} a cell row) and as @var{meta} (N×2 cell) the format
## tag @qcode{"attention-model 1"}, @code{id_base} @qcode{"1"} (ids count
## from 1) and the config and vocabularies as JSON text
## (@code{file_json}); a decoder-only model whose two vocabularies are
## one has @code{tgt_vocab} only.  Refused before anything is written: values a
## file cannot hold (@code{attention:type}), a config or vocabulary a file
## may not have (@code{attention:config}, @code{attention:vocab}), an array
## the schema does not have or a sparse one (@code{attention:model}), one
## not finite (@code{attention:nonfinite}).
## @item "plan"
## from a file's header (@var{meta} and @var{info} of
## @code{safetensors_header}; the caller has checked the format tag):
## the metadata keys must be the caller's @var{own} (a cellstr, the format
## tag's key included), @code{config} and @code{tgt_vocab}, and may be
## @code{src_vocab} (required unless the family is decoder-only, whose
## source vocabulary is then its @code{tgt_vocab}: files of an earlier
## version stored it twice) and @code{id_base}.  The ids must count from 1:
## @code{id_base} @qcode{"1"}, or, in a file without one (an earlier
## version's), each special's id that of its word (@qcode{"<pad>"} @dots{})
## or 0 where there is none, as @code{attn_vocab} gives them; a file
## counting from 0 is refused, saying how to convert it.
## @var{m}: the config (as @code{check_config}
## returns it) and the vocabularies of the metadata, @var{parts} the
## arrays the model must have (@code{model_schema}, with the field
## @code{name}: @var{prefix} and the path, the array's name in the file),
## and @var{at}: @code{info(at(i))} describes @code{parts(i)}.  Each part
## must be in the file with its shape; arrays beyond the model's are the
## caller's to check.
## @item "assemble"
## @var{m} with every part's array (@var{arrays}, in the order of
## @var{parts}) in its place, after checking it is finite, and the whole
## model checked (@code{check_model} as @var{caller}).
## @end table
##
## Every refusal of @qcode{"plan"} and @qcode{"assemble"} is an
## @code{attention:file} error starting with @var{where}.
## @end deftypefn

function varargout = file_model (action, varargin)
  switch (action)
    case "parts"
      [varargout{1:3}] = model_parts (varargin{:});
    case "plan"
      [varargout{1:3}] = file_plan (varargin{:});
    case "assemble"
      varargout{1} = assemble (varargin{:});
  endswitch
endfunction

## the arrays and metadata a file of the model m holds
function [names, arrays, meta] = model_parts (m, caller)
  need = {"config", "src_vocab", "tgt_vocab"};
  meta = {"format", "attention-model 1";
          "id_base", "1";
          "config", file_json("encode_meta", m.config, "M.config", caller);
          "src_vocab", file_json("encode_meta", m.src_vocab, "M.src_vocab", caller);
          "tgt_vocab", file_json("encode_meta", m.tgt_vocab, "M.tgt_vocab", caller)};
  [parts, config] = schema_plan (m.config, m.src_vocab, m.tgt_vocab, caller, Inf);
  if (! model_family (config).source && strcmp (meta{4,2}, meta{5,2}))
    meta(4,:) = [];                    # one stack, one vocabulary (src_vocab): stored once
  endif
  names = {parts.path};
  [held, values] = leaves (rmfield (m, need), "", names, {}, {});
  extra = setdiff (held, names);
  if (! isempty (extra))
    error ("attention:model",
           "%s: M.%s is not an array of a %s model with this config, so a model file cannot hold it",
           caller, extra{1}, m.config.family);
  endif
  [~, at] = ismember (names, held);
  arrays = values(at);
  for i = 1:numel (parts)
    x = arrays{i};
    if (issparse (x))                  # check_model checked class and shape
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

## the model a file's header declares, and where each of its arrays is
function [m, parts, at] = file_plan (meta, info, prefix, where, caller, own)
  need = [own, {"config", "tgt_vocab"}];
  may = {"id_base", "src_vocab"};
  keys = fieldnames (meta)';
  if (! all (isfield (meta, need)) || ! all (ismember (keys, [need, may])))
    error ("attention:file", "%s: the __metadata__ must hold %s and may hold %s; it holds %s",
           where, strjoin (need, ", "), strjoin (may, ", "), strjoin (keys, ", "));
  endif
  m.config = file_json ("decode_meta", meta.config, "the config", where);
  m.tgt_vocab = file_json ("decode_meta", meta.tgt_vocab, "tgt_vocab", where);
  m.src_vocab = m.tgt_vocab;
  if (isfield (meta, "src_vocab"))
    m.src_vocab = file_json ("decode_meta", meta.src_vocab, "src_vocab", where);
  endif
  try
    [parts, m.config] = schema_plan (m.config, m.src_vocab, m.tgt_vocab, caller, numel (info));
  catch err
    error ("attention:file", "%s holds a damaged model: %s", where,
           regexprep (err.message, ['^' caller ': '], ''));
  end_try_catch
  if (! isfield (meta, "src_vocab") && model_family (m).source)
    error ("attention:file",
           "%s: the __metadata__ has no src_vocab, which a %s model needs (a decoder-only model's is its tgt_vocab)",
           where, m.config.family);
  endif
  check_id_base (meta, m, where);
  [parts.name] = deal (strcat (prefix, {parts.path}){:});
  [found, at] = ismember ({parts.name}, {info.name});
  if (! all (found))
    error ("attention:file", "%s: a %s model with this config has an array \"%s\"; the file has none",
           where, m.config.family, parts(find (! found, 1)).name);
  endif
  for i = 1:numel (parts)
    if (! isequal (info(at(i)).shape, parts(i).shape))
      error ("attention:file", "%s: array \"%s\" is %s, a %s model with this config has %s",
             where, parts(i).name, shape_str (info(at(i)).shape), m.config.family,
             shape_str (parts(i).shape));
    endif
  endfor
endfunction

## error unless the file's ids count from 1 (id k is word k of a vocabulary,
## row k of its tables): its id_base must be "1"; a file without one (of an
## attn_save before id_base) must give each special the id of its word
## ("<pad>" ...) or 0 where there is none, as attn_vocab does, which a file
## written with ids from 0 does not
function check_id_base (meta, m, where)
  see = "see doc/FILE-FORMAT.md of the attention package";
  if (isfield (meta, "id_base"))
    if (strcmp (meta.id_base, "0"))
      error ("attention:file",
             "%s counts ids from 0 (its __metadata__ id_base is \"0\"); model files count them from 1 (id k is word k of its vocabulary): write pad, unk, bos and eos 1 larger (0 stays: absent) and id_base \"1\"; %s",
             where, see);
    elseif (! strcmp (meta.id_base, "1"))
      error ("attention:file", "%s: the __metadata__ id_base must be \"1\" (ids count from 1), got \"%s\"; %s",
             where, meta.id_base, see);
    endif
    return;
  endif
  specials = {"pad", "unk", "bos", "eos"};
  for name = intersect ({"src_vocab", "tgt_vocab"}, fieldnames (meta)')
    v = m.(name{1});
    [~, word] = ismember (strcat ("<", specials, ">"), v.words);
    id = cellfun (@(s) v.(s), specials);
    k = find (id != word, 1);
    if (! isempty (k))
      error ("attention:file",
             "%s has no id_base in its __metadata__, and its %s.%s is %d where word \"<%s>\" has id %d: were its ids counted from 0?  Model files count ids from 1 and say so with id_base \"1\"; %s",
             where, name{1}, specials{k}, id(k), specials{k}, word(k), see);
    endif
  endfor
endfunction

## m with the file's arrays in place, each finite, the whole model checked
function m = assemble (m, parts, arrays, where, caller)
  for i = 1:numel (parts)
    x = arrays{i};
    if (! all (isfinite (x(:))))
      error ("attention:file", "%s: array \"%s\" holds NaN or Inf", where, parts(i).name);
    endif
    m = subsasgn (m, parts(i).subs, x);
  endfor
  try
    check_model (m, caller);
  catch err
    error ("attention:file", "%s holds a damaged model: %s", where, err.message);
  end_try_catch
endfunction

## [parts, config] = schema_plan (config, src_vocab, tgt_vocab, caller, most):
## the arrays (model_schema) of the model a file holds or will hold, and
## its config as check_config returns it (without the vocabularies), after
## checking the config and the vocabularies: each a struct of exactly
## words (a row of distinct text), pad, unk, bos, eos (integer ids in
## 0..numel (words), 0 = absent, distinct unless 0).  most: how many arrays
## the model may have (the file's count), checked before the schema is
## built, so that absurd layer counts cost nothing.
function [parts, config] = schema_plan (config, src_vocab, tgt_vocab, caller, most)
  check_vocab (src_vocab, caller, "src_vocab");
  check_vocab (tgt_vocab, caller, "tgt_vocab");
  c = config;
  c.src_vocab = src_vocab;
  c.tgt_vocab = tgt_vocab;
  for name = {"encoder_layers", "decoder_layers"}
    if (isfield (c, name{1}) && isnumeric (c.(name{1})) && isscalar (c.(name{1}))
        && c.(name{1}) > most)
      error ("attention:config", "%s: CONFIG.%s is %s, more than the %d arrays of the model",
             caller, name{1}, disp_arg (c.(name{1})), most);
    endif
  endfor
  c = check_config (c, caller);
  parts = model_schema (c);
  config = rmfield (c, {"src_vocab", "tgt_vocab"});
endfunction

%!shared m, meta, info
%! m = attn_toy ("blackcat");
%! [names, arrays, parts] = file_model ("parts", m, "attn_save");
%! meta = cell2struct (parts(:,2), parts(:,1), 1);
%! ## a checkpoint's header: the model's arrays under "model.", in reverse
%! info = struct ("name", strcat ("model.", fliplr (names)),
%!                "shape", cellfun (@size, fliplr (arrays), "UniformOutput", false));

%!error <M.W_vocab must be a real 10×7 double matrix> file_model ("parts", setfield (m, "W_vocab", sparse (m.W_vocab)), "attn_save")
%!error <M.note is not an array of a encoder-decoder model> file_model ("parts", setfield (m, "note", 1), "attn_save")
%!error id=attention:nonfinite file_model ("parts", setfield (m, "b_vocab", NaN (size (m.b_vocab))), "attn_save")

%!test
%! ## the header's model and where its arrays are; assembled, the model
%! [got, parts, at] = file_model ("plan", meta, info, "model.", "here", "attn_train", {"format"});
%! assert (isequal ({got.config, got.src_vocab, got.tgt_vocab}, {m.config, m.src_vocab, m.tgt_vocab}));
%! assert ({info(at).name}, strcat ("model.", {parts.path}));
%! assert (parts(end).name, "model.b_vocab");
%! x = cellfun (@(p) subsref (m, p), {parts.subs}, "UniformOutput", false);
%! assert (isequal (file_model ("assemble", got, parts, x, "here", "attn_train"), m));
%! fail ('file_model ("assemble", got, parts, [x(1:end-1), {NaN(size (x{end}))}], "here", "attn_train")',
%!       'here: array "model.b_vocab" holds NaN or Inf');
%! x{strcmp ({parts.path}, "encoder.1.self.heads")} = 3;
%! fail ('file_model ("assemble", got, parts, x, "here", "attn_train")',
%!       "here holds a damaged model: attn_train: ");

%!error <here: array "model.W_vocab" is 7×10, a encoder-decoder model with this config has 10×7> file_model ("plan", meta, setfield (info, {2}, "shape", [7 10]), "model.", "here", "attn_train", {"format"})
%!error <here: a encoder-decoder model with this config has an array "model.b_vocab"; the file has none> file_model ("plan", meta, info(2:end), "model.", "here", "attn_train", {"format"})
%!error <here holds a damaged model: CONFIG.d> file_model ("plan", setfield (meta, "config", strrep (meta.config, '"d":', '"d":-')), info, "", "here", "attn_load", {"format"})
