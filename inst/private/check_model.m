## -*- texinfo -*-
## @deftypefn {} {@var{c} =} check_model (@var{m}, @var{caller})
## Check a model struct against its schema: @code{config}, @code{src_vocab}
## and @code{tgt_vocab} present, the config valid (@code{check_config}), and
## every array of @code{model_schema (m)} there, real double, of its shape
## (the stacks holding as many layers as the config says, every block
## @code{heads} equal to @code{config.heads}).  Any failure is an
## @code{attention:model} error naming @var{caller} and the first bad part.
## @var{c} is the checked config with the vocabularies.  A config seen
## before is not checked again (the last few are kept with their schema):
## what remains per call is one look at every array.
## @end deftypefn

function c = check_model (m, caller)
  if (! isstruct (m) || ! isscalar (m) || ! all (isfield (m, {"config", "src_vocab", "tgt_vocab"})))
    if (isstruct (m))
      got = "a struct without config, src_vocab and tgt_vocab";
    else
      got = class (m);
    endif
    error ("attention:model", "%s: M must be a model struct (see attn_model), got %s",
           caller, got);
  endif
  persistent seen = cell (0, 3);             # configs checked before: {key, c, parts}
  check_vocab (m.src_vocab, caller);
  check_vocab (m.tgt_vocab, caller);
  key = config_key (m);
  k = find (strcmp (key, seen(:,1)), 1);
  if (isempty (k))
    config = m.config;
    config.src_vocab = m.src_vocab;
    config.tgt_vocab = m.tgt_vocab;
    try
      c = check_config (config, caller);
    catch err
      error ("attention:model", "%s: M.config is not a valid model config: %s", caller,
             regexprep (err.message, ['^' caller ': '], ""));
    end_try_catch
    seen = [{key, c, model_schema(c)}; seen(1:min (end, 7),:)];
    k = 1;
  endif
  [c, parts] = seen{k,2:3};
  c.src_vocab = m.src_vocab;
  c.tgt_vocab = m.tgt_vocab;
  for s = {"encoder", "decoder"}
    n = c.([s{1} "_layers"]);
    if (n > 0 && (! isfield (m, s{1}) || ! isstruct (m.(s{1})) || numel (m.(s{1})) != n))
      error ("attention:model", "%s: M.%s must be a struct array of %d layers (config.%s_layers)",
             caller, s{1}, n, s{1});
    endif
  endfor
  ## every array at once; the loop below only finds the first bad one
  X = cellfun (@(S) subsref (m, S), {parts.subs}, "UniformOutput", false,
               "ErrorHandler", @(varargin) NaN (0, 0, 0));
  shapes = vertcat (parts.shape);
  heads = strcmp ({parts.init}, "heads");
  if (all (cellfun ("isclass", X, "double")) && all (cellfun ("isreal", X))
      && all (cellfun ("ndims", X) == 2) && isequal ([cellfun("size", X, 1)', cellfun("size", X, 2)'], shapes)
      && all ([X{heads}] == c.heads))
    return;
  endif
  for i = 1:numel (parts)
    p = parts(i);
    x = X{i};
    if (ndims (x) == 3)
      error ("attention:model", "%s: M has no %s (see attn_model)", caller, p.path);
    elseif (! isa (x, "double") || ! isreal (x) || any (size (x) != p.shape))
      error ("attention:model", "%s: M.%s must be a real %s double array, got %s", caller,
             p.path, shape_str (p.shape), disp_arg (x));
    elseif (heads(i) && x != c.heads)
      error ("attention:model", "%s: M.%s must be %d (config.heads), got %s", caller, p.path,
             c.heads, disp_arg (x));
    endif
  endfor
endfunction

## the config and the vocabularies' sizes and specials as one string
function key = config_key (m)
  v = struct2cell (m.config);
  text = cellfun ("ischar", v);
  v(! text) = cellfun (@(x) sprintf ("%.17g ", x), v(! text), "UniformOutput", false);
  s = m.src_vocab;
  t = m.tgt_vocab;
  key = [sprintf("%s,", fieldnames (m.config){:}), sprintf("%s;", v{:}), ...
         sprintf("%d ", numel (s.words), s.pad, s.unk, s.bos, s.eos, ...
                 numel (t.words), t.pad, t.unk, t.bos, t.eos)];
endfunction

%!shared m
%! m = attn_model (struct ("src_vocab", "a b", "tgt_vocab", "x y", "d", 4, "heads", 2,
%!                         "encoder_layers", 1, "decoder_layers", 2));

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
