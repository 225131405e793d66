## c = check_config (config, caller): config (a model's config, with its
## vocabularies in src_vocab and tgt_vocab), after checking that it holds
## values a model can have: attention:config naming the field, what it
## allows and what it holds.
function c = check_config (config, caller)
  if (! isstruct (config) || ! isscalar (config))
    error ("attention:config", "%s: CONFIG must be a scalar struct, got %s", caller, class (config));
  endif
  known = {"family", "d", "heads", "dk", "dv", "d_ff", "norm", "positions", "max_len", ...
           "encoder_layers", "decoder_layers", "seed", "readout", "head", "d_hidden", ...
           "src_vocab", "tgt_vocab"};
  unknown = setdiff (fieldnames (config), known);
  if (! isempty (unknown))
    error ("attention:config", "%s: unknown CONFIG field \"%s\" (known: %s)", caller,
           unknown{1}, strjoin (known, ", "));
  endif
  sets = {"family", {"encoder-decoder", "decoder-only", "encoder-token", "encoder-sentence", ...
                     "pooled-add", "pooled-concat", "pooled-prefix"};
          "norm", {"post", "pre", "none"};
          "positions", {"learned", "sinusoidal"}};
  if (isfield (config, "family") && strcmp (config.family, "encoder-sentence"))
    sets = [sets; {"readout", {"cls", "mean"}; "head", {"linear", "mlp"}}];
  endif
  for i = 1:rows (sets)
    name = sets{i,1};
    if (! isfield (config, name) || ! ischar (config.(name))
        || ! any (strcmp (config.(name), sets{i,2})))
      error ("attention:config", "%s: CONFIG.%s must be one of \"%s\", got %s", caller, name,
             strjoin (sets{i,2}, "\", \""), given (config, name));
    endif
  endfor
  ints = {"d", 1; "heads", 1; "dk", 1; "dv", 1; "d_ff", 0; "max_len", 1;
          "encoder_layers", 1; "decoder_layers", 1; "seed", 0};
  if (isfield (config, "d_hidden"))
    ints(end+1,:) = {"d_hidden", 1};
  endif
  for i = 1:rows (ints)
    name = ints{i,1};
    if (! isfield (config, name) || ! isa (config.(name), "double") || ! isreal (config.(name))
        || ! isscalar (config.(name)) || config.(name) != fix (config.(name))
        || config.(name) < ints{i,2} || config.(name) > flintmax ())
      error ("attention:config", "%s: CONFIG.%s must be an integer of at least %d, got %s",
             caller, name, ints{i,2}, given (config, name));
    endif
  endfor
  for name = {"src_vocab", "tgt_vocab"}
    if (isfield (config, name{1}))
      check_vocab (config.(name{1}), caller);
    endif
  endfor
  c = config;
endfunction

function s = given (config, name)
  if (isfield (config, name))
    s = disp_arg (config.(name));
  else
    s = "nothing";
  endif
endfunction
