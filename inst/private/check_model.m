## check_model (m, fname): error attention:model unless m is an
## encoder-decoder model struct (attn_model, attn_toy, attn_load).
function check_model (m, fname)
  if (isstruct (m) && isscalar (m) && isfield (m, "config")
      && ! strcmp (family_kind (m), "encoder-decoder"))
    need = family_fields (m);                # seed 003's other families (attn_family)
  else
    need = {"config", "src_vocab", "tgt_vocab", "src_embed", "src_pos", "tgt_embed", ...
            "tgt_pos", "encoder", "decoder", "W_vocab", "b_vocab"};
  endif
  if (! isstruct (m) || ! isscalar (m) || ! all (isfield (m, need)))
    if (isstruct (m))
      missing = need(! isfield (m, need));
      got = ["a struct without " strjoin(missing, ", ")];
    else
      got = class (m);
    endif
    error ("attention:model", "%s: M must be a model struct (see attn_model), got %s",
           fname, got);
  endif
endfunction
