## -*- texinfo -*-
## @deftypefn  {} {@var{c} =} check_model (@var{m}, @var{caller})
## @deftypefnx {} {@var{c} =} check_model (@var{m}, @var{caller}, @var{G})
## @deftypefnx {} {@var{c} =} check_model (@var{m}, @var{caller}, "keep", true)
## Check a model struct against its schema: @code{config}, @code{src_vocab}
## and @code{tgt_vocab} present, the config valid (@code{check_config}), and
## every array of @code{model_schema (m)} there, real, of its shape, all
## double or all single (@code{attn_cast}; the config's numbers in the
## blocks, @code{heads}, @code{kv_heads}, @code{rope_base}, double)
## (the stacks holding as many layers as the config says, every block
## @code{heads} equal to @code{config.heads}).  Any failure is an
## @code{attention:model} error naming @var{caller} and the first bad part.
## With @var{G}, a gradient for @var{m} (the optimisers' argument), it is
## checked too: every learned part of the schema there with its shape and
## the model's class and no other array (@code{attention:type} naming the
## part), every number
## finite (@code{attention:nonfinite}).  NaN or Inf in an array of
## @var{m} is an @code{attention:nonfinite} error naming the array.
## @var{c} is the checked config with the vocabularies.
##
## A config seen before is not checked again (memo keeps the last few
## with their schema), and one with the config of the last model checked
## (memo's @qcode{"last model"}) is one pass of the MEX function
## @code{__model_fits__} over its arrays in place; only when that pass
## finds something wrong does Octave look at the arrays again, to name it.
## With @qcode{"keep"} (the decoding functions, which read one model call
## after call) that last model is kept whole, and an array of @var{m} that
## is the kept model's own (the same memory: copy-on-write changed none of
## it) is not read again for NaN and Inf.  The kept model lives until
## another model is checked with @qcode{"keep"} (or @code{clear
## functions}).
## @end deftypefn

function c = check_model (m, caller, varargin)
  if (! isstruct (m) || ! isscalar (m) || ! all (isfield (m, {"config", "src_vocab", "tgt_vocab"})))
    if (isstruct (m))
      got = "a struct without config, src_vocab and tgt_vocab";
    else
      got = class (m);
    endif
    error ("attention:model", "%s: M must be a model struct (see attn_model), got %s",
           caller, got);
  endif
  check_vocab (m.src_vocab, caller);
  check_vocab (m.tgt_vocab, caller);
  grad = {};                               # {G} or {}
  if (nargin == 3)
    grad = varargin;
  endif
  keep = nargin == 4 && varargin{2};
  [found, last] = memo ("last model", "");
  if (found && __model_fits__ (m, last.spec{:}, last.ref, grad{:}))
    c = last.c;
    c.src_vocab = m.src_vocab;
    c.tgt_vocab = m.tgt_vocab;
    if (keep)
      memo ("last model", "", setfield (last, "ref", m));
    endif
    return;
  endif
  key = config_key (m);
  found = false;
  if (! isempty (key))                     # a config checked before (memo)
    [found, checked] = memo ("configs", key);
  endif
  if (! found)
    config = m.config;
    config.src_vocab = m.src_vocab;
    config.tgt_vocab = m.tgt_vocab;
    try
      c = check_config (config, caller);
    catch err
      error ("attention:model", "%s: M.config is not a valid model config: %s", caller,
             regexprep (err.message, ['^' caller ': '], ""));
    end_try_catch
    missing = setdiff (fieldnames (c), [fieldnames(config); {"src_vocab"; "tgt_vocab"}]);
    if (! isempty (missing))                 # the layers read m.config itself
      error ("attention:model",
             "%s: M.config.%s is missing (a model made by an older version: set it to %s)",
             caller, missing{1}, disp_arg (c.(missing{1})));
    endif
    parts = model_schema (c);
    learned = parts([parts.learned]);
    fixed = ismember ({parts.init}, {"heads", "kv_heads", "rope_base"});   # numbers of the config
    fixed_values = cellfun (@(f) c.(f), {parts(fixed).init});
    nodes = struct_nodes (learned);
    checked = {c, parts, rows_groups(parts), rows_groups(learned), nodes, ...
               fixed, fixed_values, fits_spec(parts, nodes, fixed, fixed_values)};
    if (! isempty (key))
      memo ("configs", key, checked);
    endif
  endif
  c = checked{1};
  spec = checked{end};
  if (! __model_fits__ (m, spec{:}, [], grad{:}))
    explain (m, caller, grad, checked{1:end-1});  # the error naming what is wrong
  endif
  ref = m;
  if (! keep)                              # no arrays held: the config alone
    ref = struct ("config", m.config, "src_vocab", m.src_vocab, "tgt_vocab", m.tgt_vocab);
  endif
  memo ("last model", "", struct ("c", c, "spec", {spec}, "ref", ref));
  c.src_vocab = m.src_vocab;
  c.tgt_vocab = m.tgt_vocab;
endfunction

## The checks __model_fits__ makes in one pass, one at a time: the error
## of the first failure (returns when there is none: a sparse array, which
## __model_fits__ does not read, passes here)
function explain (m, caller, grad, c, parts, groups, learned_groups, nodes, fixed,
                  fixed_values)
  for s = {"encoder", "decoder"}
    n = c.([s{1} "_layers"]);
    if (n > 0 && (! isfield (m, s{1}) || ! isstruct (m.(s{1})) || numel (m.(s{1})) != n))
      error ("attention:model", "%s: M.%s must be a struct array of %d layers (config.%s_layers)",
             caller, s{1}, n, s{1});
    endif
  endfor
  X = arrays (m, parts);
  cls = "double";                          # the class of the model's arrays
  if (any (! fixed) && isa (X{find (! fixed, 1)}, "single"))
    cls = "single";
  endif
  if (! isempty (grad))
    G = grad{1};
    learned = parts([parts.learned]);
    g = arrays (G, learned);
    if (! all_fit (g, learned, cls, false (1, numel (learned))))
      bad = learned(find (! fits (g, learned, cls, false (1, numel (learned))), 1));
      error ("attention:type", "%s: G must hold the gradient of every learned array of M: G.%s must be a real %s %s array",
             caller, bad.path, shape_str (bad.shape), cls);
    endif
    if (! only_nodes (G, nodes))           # then name what G has beside them
      extra = setdiff (leaf_paths (G, ""), {learned.path});
      if (! isempty (extra))
        error ("attention:type", "%s: G.%s is no learned array of M (G must be M's gradient)",
               caller, extra{1});
      endif
    endif
    check_finite (g, learned, learned_groups, caller, "G");
  endif
  if (all_fit (X, parts, cls, fixed) && all ([X{fixed}] == fixed_values))
    check_finite (X, parts, groups, caller, "M");
    return;
  endif
  for i = 1:numel (parts)
    p = parts(i);
    x = X{i};
    if (ndims (x) == 3)
      error ("attention:model", "%s: M has no %s (see attn_model)", caller, p.path);
    elseif (! isa (x, part_class (fixed(i), cls)) || ! isreal (x) || any (size (x) != p.shape))
      error ("attention:model", "%s: M.%s must be a real %s %s array%s, got %s", caller,
             p.path, shape_str (p.shape), part_class (fixed(i), cls),
             single_note (fixed(i), cls), disp_arg (x));
    elseif (fixed(i) && x != c.(p.init))
      error ("attention:model", "%s: M.%s must be %g (config.%s), got %s", caller, p.path,
             c.(p.init), p.init, disp_arg (x));
    endif
  endfor
endfunction

## The schema as __model_fits__ reads it (src/__model_fits__.c): the field
## names of the paths (one row, spaces between); a column a part, [kind
## (1 an array, 2 a config number); learned; rows; cols; the number; the
## path]; a column a struct node of G, [count; fields; the path]; a path
## as a field name's index or -element, 0 after its end
function spec = fits_spec (parts, nodes, fixed, fixed_values)
  subs = [{parts.subs}, {nodes.subs}];
  steps = [subs{:}];
  names = unique ({steps(strcmp ({steps.type}, ".")).subs});
  depth = max (cellfun ("numel", subs));
  value = zeros (1, numel (parts));
  value(fixed) = fixed_values;
  P = zeros (5 + depth, numel (parts));
  for i = 1:numel (parts)
    P(1:5, i) = [1 + fixed(i); parts(i).learned; parts(i).shape(:); value(i)];
    P(5 + (1:numel (parts(i).subs)), i) = path_code (parts(i).subs, names);
  endfor
  N = zeros (2 + depth, numel (nodes));
  for k = 1:numel (nodes)
    N(1:2, k) = [nodes(k).count; nodes(k).fields];
    N(2 + (1:numel (nodes(k).subs)), k) = path_code (nodes(k).subs, names);
  endfor
  spec = {strjoin(names, " "), P, N};
endfunction

function v = path_code (subs, names)
  v = zeros (numel (subs), 1);
  for k = 1:numel (subs)
    if (strcmp (subs(k).type, "."))
      v(k) = find (strcmp (names, subs(k).subs));
    else
      v(k) = -subs(k).subs{1};
    endif
  endfor
endfunction

## error attention:nonfinite naming the first array with NaN or Inf: one sum
## finds them all (NaN and Inf survive a sum; a finite sum that overflows is
## looked at entry by entry and passes).  The arrays fit their parts, so
## those of a group (rows_groups) sit side by side in one sum.
function check_finite (X, parts, groups, caller, name)
  total = 0;
  for g = groups
    if (sum (cellfun ("numel", X(g{1}))) <= 2^20)
      total += sum (sum ([X{g{1}}]));         # small arrays: one call for the group
    else
      for k = g{1}                            # large ones read in place, not copied
        total += sum (X{k}(:));
      endfor
    endif
  endfor
  if (! isfinite (total))
    k = find (! cellfun (@(x) all (isfinite (x(:))), X), 1);
    if (! isempty (k))
      [i, j] = find (! isfinite (X{k}), 1);
      error ("attention:nonfinite",
             "%s: %s.%s must be finite, got %s at (%d,%d) and %d non-finite entries in all",
             caller, name, parts(k).path, disp_arg (X{k}(i,j)), i, j, nnz (! isfinite (X{k})));
    endif
  endif
endfunction

## the dotted paths of every array in the struct S (struct arrays indexed
## from 1, as model_schema writes them)
function p = leaf_paths (S, pre)
  if (! isstruct (S))
    p = {pre(1:end-1)};
    return;
  endif
  p = {};
  f = fieldnames (S);
  for i = 1:numel (S)
    at = pre;
    if (numel (S) > 1 || any (strcmp (pre, {"encoder.", "decoder."})))
      at = sprintf ("%s%d.", pre, i);
    endif
    for k = 1:numel (f)
      p = [p, leaf_paths(S(i).(f{k}), [at f{k} "."])];
    endfor
  endfor
endfunction

## every struct on the parts' paths (the top one first): its index, how
## many fields it holds (-1: a stack, indexed by layer) and its number of
## elements
function nodes = struct_nodes (parts)
  keys = {};
  nodes = struct ("subs", {}, "fields", {}, "count", {});
  for p = parts(:)'
    for k = 1:numel (p.subs)
      key = "";
      for s = p.subs(1:k-1)
        if (iscell (s.subs))
          key = sprintf ("%s(%d)", key, s.subs{1});
        else
          key = [key "." s.subs];
        endif
      endfor
      i = find (strcmp (keys, key), 1);
      if (isempty (i))
        i = numel (keys) + 1;
        keys{i} = key;
        nodes(i) = struct ("subs", p.subs(1:k-1), "fields", {{}}, "count", 1);
      endif
      if (strcmp (p.subs(k).type, "()"))
        nodes(i).count = max (nodes(i).count, p.subs(k).subs{1});
      else
        nodes(i).fields = union (nodes(i).fields, {p.subs(k).subs});
      endif
    endfor
  endfor
  nodes = struct ("subs", {nodes.subs}, "count", {nodes.count},
                  "fields", num2cell (cellfun (@(f) merge (isempty (f), -1, numel (f)),
                                               {nodes.fields})));
endfunction

## whether S holds, in the structs of nodes, no field and no element beyond
## theirs (S has every part's array: nothing is missing)
function ok = only_nodes (S, nodes)
  ok = isstruct (S) && isscalar (S) && numfields (S) == nodes(1).fields;
  for k = 2:numel (nodes)
    if (! ok)
      return;
    endif
    v = subsref (S, nodes(k).subs);
    ok = (isstruct (v) && numel (v) == nodes(k).count
          && (nodes(k).fields < 0 || numfields (v) == nodes(k).fields));
  endfor
endfunction

## the parts as groups of equal row counts (a 1×G cell of index rows)
function groups = rows_groups (parts)
  shapes = vertcat (zeros (0, 2), parts.shape);
  [~, ~, g] = unique (shapes(:,1));
  groups = accumarray (g(:), (1:numel (parts))', [], @(i) {i'})';
endfunction

## the arrays of S at the parts' places (a 0×0×0 NaN where one is missing)
function X = arrays (S, parts)
  X = cellfun (@(s) subsref (S, s), {parts.subs}, "UniformOutput", false,
               "ErrorHandler", @(varargin) NaN (0, 0, 0));
endfunction

## which arrays are real arrays of their part's shape, of the class cls
## (double where fixed: the config's numbers)
function ok = fits (X, parts, cls, fixed)
  shapes = vertcat (parts.shape);
  ok = ((cellfun ("isclass", X, cls) & ! fixed | cellfun ("isclass", X, "double") & fixed)
        & cellfun ("isreal", X)
        & cellfun ("ndims", X) == 2 & cellfun ("size", X, 1) == shapes(:,1)'
        & cellfun ("size", X, 2) == shapes(:,2)');
endfunction

function ok = all_fit (X, parts, cls, fixed)
  ok = all (fits (X, parts, cls, fixed));
endfunction

## the class a part must have: the config's numbers are double
function c = part_class (fixed, cls)
  c = cls;
  if (fixed)
    c = "double";
  endif
endfunction

## what a single model's part was measured against
function s = single_note (fixed, cls)
  s = "";
  if (! fixed && strcmp (cls, "single"))
    s = " (the model's first array is single: every array is)";
  endif
endfunction

## the config and the vocabularies' sizes and specials as one string, or
## "" (never cached) unless every config value is text or a real double
## scalar and every special a real double scalar: the key is then the field
## names, which are text, the texts' lengths and characters and the
## numbers, so that two configs share a key only when they are equal
function key = config_key (m)
  v = struct2cell (m.config);
  text = cellfun ("isclass", v, "char") & cellfun ("size", v, 1) <= 1;
  s = m.src_vocab;
  t = m.tgt_vocab;
  numbers = [v(! text); {numel(s.words); s.pad; s.unk; s.bos; s.eos; ...
                         numel(t.words); t.pad; t.unk; t.bos; t.eos}];
  key = "";
  if (all ((cellfun ("isclass", numbers, "double") | cellfun ("islogical", numbers))
           & cellfun ("isreal", numbers) & cellfun ("numel", numbers) == 1))
    words = v(text);
    key = [sprintf("%s,", fieldnames (m.config){:}), sprintf("%d", text), ";", ...
           sprintf("%d ", cellfun ("numel", words)), ";", words{:}, ";", ...
           sprintf("%.17g ", double ([numbers{:}]))];
  endif
endfunction

%!shared m
%! m = attn_model (struct ("src_vocab", "a b", "tgt_vocab", "x y", "d", 4, "heads", 2,
%!                         "encoder_layers", 1, "decoder_layers", 2));

%!error <f: M.config.activation is missing \(a model made by an older version: set it to "relu"\)>
%! check_model (setfield (m, "config", rmfield (m.config, "activation")), "f");

%!test
%! ## a NaN in an array of a group too large to be joined is found too
%! words = strjoin (arrayfun (@(i) sprintf ("w%d", i), 1:16400, "UniformOutput", false), " ");
%! g = attn_family (struct ("family", "decoder-only", "vocab", words, "d", 64, "heads", 2,
%!                          "layers", 1, "d_ff", 0, "max_len", 4));
%! check_model (g, "f");
%! g.tgt_embed(end, 3) = NaN;
%! try
%!   check_model (g, "f");
%!   error ("test:nan", "the NaN was not found");
%! catch err
%!   assert (err.identifier, "attention:nonfinite");
%!   assert (strncmp (err.message, "f: M.tgt_embed must be finite, got NaN at (16404,3)", 50), err.message);
%! end_try_catch

%!test
%! c = check_model (m, "f");
%! assert (c.decoder_layers, 2);
%! check_model (attn_toy ("blackcat"), "f");

%!error <f: M must be a model struct> check_model (1, "f")
%!error <f: M must be a model struct> check_model (struct ("config", 1), "f")
%!error <f: M.config is not a valid model config: CONFIG.d must be> check_model (setfield (m, "config", setfield (m.config, "d", -1)), "f")
%!error <f: M.decoder must be a struct array of 2 layers> check_model (setfield (m, "decoder", m.decoder(1)), "f")
%!error <f: M has no decoder.1.cross.W_Q> check_model (setfield (m, "decoder", rmfield (m.decoder, "cross")), "f")
%!error <f: M.W_vocab must be a real 4×6 double array, got> check_model (setfield (m, "W_vocab", 1), "f")
%!error <f: M.encoder.1.self.heads must be 2> check_model (setfield (m, "encoder", setfield (m.encoder, "self", setfield (m.encoder.self, "heads", 1))), "f")
%!error id=attention:model check_model (setfield (m, "src_embed", single (m.src_embed)), "f")
%!error <f: M.decoder.2.ffn.W_2 must be finite, got NaN at \(3,1\) and 2 non-finite entries in all> check_model (setfield (m, "decoder", subsasgn (m.decoder, substruct ("()", {2}, ".", "ffn", ".", "W_2", "()", {[3 5]}), [NaN -Inf])), "f")
%!error id=attention:nonfinite check_model (setfield (m, "b_vocab", [0 0 0 0 0 Inf]), "f")
## a config is checked whenever it differs from one seen before, whatever
## value differs (text, a number, a class, a shape) and however often the
## valid one was seen
%!test
%! check_model (m, "f");
%! for bad = {{"norm", "pre;"}, {"heads", [2 2]}, {"d", "4"}, {"d_ff", {16}}, {"norm", ["pr"; "e "]}}
%!   for twice = 1:2
%!     fail ("check_model (setfield (m, \"config\", setfield (m.config, bad{1}{:})), \"f\")",
%!           "M.config is not a valid model config");
%!     assert (check_model (m, "f"), check_model (m, "g"));
%!   endfor
%! endfor

## a decoder-only model whose config says encoder_layers = 1 (as older
## versions wrote it) is refused with the fix in the message; once fixed
## it is the same model
%!test
%! g = attn_family (struct ("family", "decoder-only", "vocab", "a b c", "d", 4, "heads", 2,
%!                          "layers", 1));
%! old = g;
%! old.config.encoder_layers = 1;
%! try
%!   check_model (old, "attn_continue");
%!   error ("accepted");
%! catch err
%!   assert (err.identifier, "attention:model");
%!   assert (err.message, ["attn_continue: M.config is not a valid model config: ", ...
%!                         "CONFIG.encoder_layers must be 0 for the decoder-only family, got 1 ", ...
%!                         "(the stack the family lacks has 0 layers; a model made by an older ", ...
%!                         "version may say 1: set M.config.encoder_layers = 0)"]);
%! end_try_catch
%! fixed = old;
%! fixed.config.encoder_layers = 0;
%! assert (check_model (fixed, "f"), check_model (g, "f"));
%! fail ('attn_continue (old, "a b")', "set M.config.encoder_layers = 0");

%!test
%! ## finite weights whose sum overflows pass
%! check_model (setfield (m, "W_vocab", repmat ([1e308, 1e308], 4, 3)), "f");
%!test
%! [~, G] = attn_loss (m, "a b", "x y");
%! check_model (m, "f", G);
%! fail ('check_model (m, "f", rmfield (G, "W_vocab"))', "G.W_vocab must be a real 4×6 double array");
%! fail ('check_model (m, "f", setfield (G, "b_vocab", 1))', "G must hold the gradient of every learned array of M: G.b_vocab");
%! fail ('check_model (m, "f", setfield (G, "W_hidden", 1))', "f: G.W_hidden is no learned array of M");
%! fail ('check_model (m, "f", setfield (G, "b_vocab", [0 0 0 NaN 0 0]))', "f: G.b_vocab must be finite, got NaN at \\(1,4\\)");
%! ## once the model passed too: no struct, or one of another class
%! fail ('check_model (m, "f", [])', "G must hold the gradient of every learned array of M: G.src_embed");
%! fail ('check_model (m, "f", "keep")', "G must hold the gradient of every learned array of M: G.src_embed");
%! fail ('check_model (m, "f", setfield (G, "W_vocab", single (G.W_vocab)))', "G.W_vocab must be a real 4×6 double array");
%! ## a sparse array, which __model_fits__ does not read, passes the
%! ## Octave checks
%! s = setfield (m, "W_vocab", sparse (m.W_vocab));
%! assert (check_model (s, "f"), check_model (m, "f"));
%! assert (check_model (s, "f", G), check_model (m, "f"));
%! G.decoder(1).norm_self.scale = 1;
%! fail ('check_model (m, "f", G)', "f: G.decoder.1.norm_self.scale is no learned array of M");
%!test
%! ## what a gradient holds beside the model's arrays is found wherever it is
%! [~, G] = attn_loss (m, "a b", "x y");
%! fail ('check_model (m, "f", setfield (G, "decoder", [G.decoder, G.decoder(2)]))',
%!       "f: G.decoder.3.cross.W_K is no learned array of M");
%! G.encoder.ffn.extra = {};
%! fail ('check_model (m, "f", G)', "f: G.encoder.1.ffn.extra is no learned array of M");
%! G.encoder.ffn = rmfield (G.encoder.ffn, "extra");
%! G.decoder(2).cross.b_Q = 1;
%! fail ('check_model (m, "f", G)', "f: G.decoder.2.cross.b_Q is no learned array of M");
%! G.decoder = rmfield (G.decoder, "cross");
%! fail ('check_model (m, "f", G)', "G must hold the gradient of every learned array of M");

## the gradient of every family holds the learned parts of its schema with
## their shapes, and no other array (the values are checked against finite
## differences in tests/test_model_grad.m and tests/test_families_grad.m)
%!test
%! randn ("state", 3);  rand ("state", 3);
%! w = "raghav goes to school in delhi";
%! pairs = {w, "raghav va a delhi"};
%! base = struct ("d", 4, "heads", 2, "d_ff", 3, "max_len", 8, "norm", "pre", "seed", 2);
%! models = {attn_model(setfield (setfield (base, "src_vocab", w), "tgt_vocab", pairs{2}))};
%! for f = {"pooled-add", "pooled-concat", "pooled-prefix"}
%!   c = base;  c.family = f{1};  c.src_vocab = w;  c.tgt_vocab = pairs{2};
%!   models{end+1} = attn_family (c);
%! endfor
%! c = base;  c.vocab = w;  c.layers = 1;
%! models{end+1} = attn_family (setfield (c, "family", "decoder-only"));
%! c.classes = {"A", "B"};
%! models{end+1} = attn_family (setfield (c, "family", "encoder-token"));
%! models{end+1} = attn_family (setfield (setfield (setfield (c, "family", "encoder-sentence"),
%!                                                  "head", "mlp"), "readout", "mean"));
%! data = {pairs; pairs; pairs; pairs; {"raghav goes", "to school"};
%!         {"raghav goes", "A B"}; {"raghav goes", "B"}};
%! for k = 1:numel (models)
%!   m = models{k};
%!   [~, G] = attn_loss (m, data{k}{1}, data{k}{2});
%!   parts = model_schema (m);
%!   learned = parts([parts.learned]);
%!   assert (numel (tree_flat (G)), sum (arrayfun (@(p) prod (p.shape), learned)));
%!   for p = learned'
%!     assert (size (subsref (G, p.subs)), p.shape);
%!   endfor
%! endfor

## the memo never lets a changed model through: one element of a large
## array set to NaN between two calls is found, whether the last model was
## kept (the other arrays, still the kept model's own, are not read again)
## or not; a changed shape or number is named as before
%!test
%! g = attn_family (struct ("family", "decoder-only", "vocab", "a b c", "d", 64, "heads", 2,
%!                          "layers", 2, "max_len", 1024));
%! for how = {{}, {"keep", true}}
%!   check_model (g, "f", how{1}{:});
%!   check_model (g, "f", how{1}{:});
%!   bad = g;
%!   bad.tgt_pos(1000, 7) = NaN;
%!   try
%!     check_model (bad, "f", how{1}{:});
%!     error ("test:nan", "the NaN was not found");
%!   catch err
%!     assert (err.identifier, "attention:nonfinite");
%!     assert (err.message, "f: M.tgt_pos must be finite, got NaN at (1000,7) and 1 non-finite entries in all");
%!   end_try_catch
%!   bad = g;
%!   bad.decoder(2).self.W_V(1) = Inf;
%!   fail ("check_model (bad, 'f', how{1}{:})", "f: M.decoder.2.self.W_V must be finite, got Inf at \\(1,1\\)");
%!   fail ("check_model (setfield (g, 'tgt_pos', g.tgt_pos(1:end-1,:)), 'f', how{1}{:})",
%!         "f: M.tgt_pos must be a real 1024×64 double array");
%!   fail ("check_model (setfield (g, 'decoder', g.decoder(1)), 'f', how{1}{:})",
%!         "f: M.decoder must be a struct array of 2 layers");
%!   fail ("check_model (setfield (g, 'decoder', [g.decoder, g.decoder(1)]), 'f', how{1}{:})",
%!         "f: M.decoder must be a struct array of 2 layers");
%!   g2 = g;
%!   g2.decoder(1).self.heads = 1;
%!   fail ("check_model (g2, 'f', how{1}{:})", "f: M.decoder.1.self.heads must be 2");
%!   g2 = g;
%!   g2.config.d = 32;
%!   fail ("check_model (g2, 'f', how{1}{:})", "f: M.tgt_embed must be a real 7×32 double array");
%!   assert (check_model (g, "f", how{1}{:}), check_model (g, "g"));
%! endfor

## a config number need not be an integer (rope_base), nor below 2^53
%!test
%! for base = {10000.5, 1e20}
%!   r = attn_family (struct ("family", "decoder-only", "vocab", "a b", "d", 4, "heads", 2,
%!                            "layers", 1, "positions", "rope", "rope_base", base{1}));
%!   assert (check_model (r, "f").rope_base, base{1});
%!   assert (check_model (r, "f").rope_base, base{1});
%!   r.decoder.self.rope_base = 10000;
%!   fail ("check_model (r, 'f')", "f: M.decoder.1.self.rope_base must be");
%! endfor

## the one pass refuses a malformed description of the schema
%!test
%! m = attn_toy ("river");
%! for bad = {{"a b", [1; 0; 1; 1; 0; 3], zeros(2, 0), []},
%!            {"a b", [1; 0; 1; 1; 0; -1], zeros(2, 0), []},
%!            {"a b", [1; 0; 1; 1; 0; 1.5], zeros(2, 0), []},
%!            {"a b", [1; 0; 1; 1; 0; NaN], zeros(2, 0), []},
%!            {"a b", [1; 0; 1; 1; 0; 1], [1; -2; 1], []},
%!            {{"a"}, [1; 0; 1; 1; 0; 1], zeros(2, 0), []},
%!            {"a", zeros(6, 1), zeros(2, 0), 1},
%!            {"a", zeros(6, 1), zeros(2, 0)}}'
%!   fail ("__model_fits__ (m, bad{1}{:})", "malformed schema description|usage");
%! endfor
%! W = size (m.W_vocab);
%! assert (__model_fits__ (m, "W_vocab", [1; 0; W'; 0; 1], zeros (2, 0), []));
%! assert (! __model_fits__ (m, "W_vocab", [1; 0; W' + 1; 0; 1], zeros (2, 0), []));
%! assert (! __model_fits__ (1, "W_vocab", [1; 0; W'; 0; 1], zeros (2, 0), []));
