## -*- texinfo -*-
## @deftypefn {} {@var{s} =} show_model (@var{m}, @var{name})
## One screen of text about model @var{m} (titled @var{name}): its
## configuration, vocabularies, parameter count, then one row per array in
## model order with its path (@code{"decoder.1.cross.W_Q"}), shape,
## parameter count and Frobenius norm.  The layers of a stack share one row
## per array (@code{encoder.1-2.self.W_Q}, a norm per layer; the smallest and
## largest beyond four layers).  Arrays that are not learned (sinusoidal
## positions) are marked @code{fixed}.
## @end deftypefn

function s = show_model (m, name)
  parts = model_parts (m);
  ## head counts are numbers of the config, not arrays
  parts = parts(cellfun (@isempty, regexp ({parts.path}, '(^|\.)heads$', "once")));
  vals = arrayfun (@(p) model_array (m, p.path), parts, "UniformOutput", false);
  count = cellfun (@numel, vals);
  norms = cellfun (@(v) norm (v(:)), vals);
  s = sprintf ("%s: %s\n", name, config_text (m.config));
  vocabs = vocab_fields (m);
  words = cell (1, numel (vocabs));
  for k = 1:numel (vocabs)
    same = find (cellfun (@(f) isequal (m.(f), m.(vocabs{k})), vocabs(1:k-1)), 1);
    if (isempty (same))
      words{k} = sprintf ("%s %d words", vocabs{k}, numel (m.(vocabs{k}).words));
    else
      words{k} = sprintf ("%s = %s", vocabs{k}, vocabs{same});
    endif
  endfor
  learned = [parts.learned];
  nlearned = "all";
  if (! all (learned))
    nlearned = thousands (sum (count(learned)));
  endif
  s = [s, strjoin(words, ", "), sprintf("; %d arrays, %s parameters, %s learned\n",
                                        numel (parts), thousands (sum (count)), nlearned)];
  ## rows: one per array, or per array of a stack's layers
  [key, layer] = stack_keys ({parts.path}, cellfun (@size, vals, "UniformOutput", false));
  [~, first, g] = unique (key, "first");
  tab = cell (numel (first), 4);
  ## rows in model order: by the first array of each group
  [~, order] = sort (first);
  for r = 1:numel (first)
    in = find (g == order(r))';
    p = parts(in(1));
    path = p.path;
    nparam = thousands (count(in(1)));
    if (numel (in) > 1)
      path = regexprep (path, '^(\w+)\.\d+\.', sprintf ('$1.%d-%d.', layer(in([1 end]))));
      nparam = sprintf ("%d × %s", numel (in), nparam);
    endif
    if (! p.learned)
      path = [path, " (fixed)"];
    endif
    if (all (norms(in) == norms(in(1))))
      nrm = sprintf ("%.2f", norms(in(1)));
    elseif (numel (in) <= 4)
      nrm = strjoin (arrayfun (@(x) sprintf ("%.2f", x), norms(in), "UniformOutput", false), "  ");
    else
      nrm = sprintf ("%.2f to %.2f", min (norms(in)), max (norms(in)));
    endif
    tab(r,:) = {path, shape_str(p.shape), nparam, nrm};
  endfor
  tab = [{"path", "shape", "parameters", merge(numel (first) < numel (parts), "norm (by layer)", "norm")}; tab];
  w = max (cellfun (@(c) utf8_width ({c}), tab), [], 1);
  for r = 1:rows (tab)
    s = [s, sprintf("%s%s  %s%s  %s%s  %s\n", tab{r,1}, blanks(w(1) - utf8_width (tab(r,1))),
                    tab{r,2}, blanks(w(2) - utf8_width (tab(r,2))),
                    blanks(w(3) - utf8_width (tab(r,3))), tab{r,3}, tab{r,4})];
  endfor
endfunction

## The arrays of M in model order: path, shape, learned; the list
## model_schema (m) gives, read from the struct itself: every numeric array
## outside config and the vocabularies.  The stacks (encoder, decoder)
## number their layers even when there is one; other struct arrays only
## when they have several elements.  Head counts and sinusoidal position
## tables are not learned.
function parts = model_parts (m)
  skip = [{"config"}, vocab_fields(m)];
  paths = leaf_paths (rmfield (m, skip), "", {"encoder", "decoder"});
  fixed = isfield (m.config, "positions") && strcmp (m.config.positions, "sinusoidal");
  parts = struct ("path", paths, "shape", [], "learned", true);
  for k = 1:numel (parts)
    parts(k).shape = size (model_array (m, paths{k}));
    parts(k).learned = ! (! isempty (regexp (paths{k}, '(^|\.)heads$', "once"))
                          || (fixed && ! isempty (regexp (paths{k}, '^\w+_pos$', "once"))));
  endfor
endfunction

## Dotted paths of the numeric arrays inside the scalar struct S, below the
## path PRE; fields named in STACKS are always indexed.
function paths = leaf_paths (S, pre, stacks)
  paths = {};
  for f = fieldnames (S)'
    v = S.(f{1});
    here = [pre, merge(isempty (pre), "", "."), f{1}];
    if (isstruct (v))
      for k = 1:numel (v)
        sub = here;
        if (numel (v) > 1 || any (strcmp (f{1}, stacks)))
          sub = sprintf ("%s.%d", here, k);
        endif
        paths = [paths, leaf_paths(v(k), sub, {})];
      endfor
    elseif (isnumeric (v))
      paths{end+1} = here;
    endif
  endfor
endfunction

## The vocabularies of M (structs with a word list).
function f = vocab_fields (m)
  f = fieldnames (m)';
  f = f(cellfun (@(n) isstruct (m.(n)) && isfield (m.(n), "words"), f));
endfunction

## The array at a dotted PATH ("decoder.1.cross.W_Q") of M.
function v = model_array (m, path)
  v = m;
  for name = strsplit (path, ".")
    k = str2double (name{1});
    if (isnan (k))
      v = v.(name{1});
    else
      v = v(k);
    endif
  endfor
endfunction

## Rows of a stack's layers share a key (stack, rest of the path, shape);
## LAYER is the layer number (0 outside a stack).
function [key, layer] = stack_keys (paths, shapes)
  tok = regexp (paths, '^(\w+)\.(\d+)\.(.*)$', "tokens", "once");
  layer = zeros (1, numel (paths));
  key = paths;
  for k = 1:numel (paths)
    if (! isempty (tok{k}))
      layer(k) = str2double (tok{k}{2});
      key{k} = sprintf ("%s.*.%s %s", tok{k}{1}, tok{k}{3}, mat2str (shapes{k}));
    endif
  endfor
endfunction

function s = config_text (c)
  f = fieldnames (c)';
  keep = cellfun (@(n) ischar (c.(n)) || (isnumeric (c.(n)) && isscalar (c.(n))), f);
  items = cellfun (@(n) sprintf ("%s = %s", n, num2str (c.(n))), f(keep), "UniformOutput", false);
  s = strjoin (items, ", ");
  ## wrapped at 78 characters, continuation lines indented
  s = regexprep (s, '(.{1,74})(, |$)', "$1,\n  ");
  s = regexprep (s, ',\n  $', "");
endfunction

function s = thousands (n)
  s = regexprep (sprintf ("%d", n), '(\d)(?=(\d{3})+$)', '$1,');
endfunction
