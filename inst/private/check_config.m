## -*- texinfo -*-
## @deftypefn {} {@var{c} =} check_config (@var{config}, @var{caller})
## Check a model's CONFIG struct, every field of every family, and return it
## complete: defaults filled in, vocabularies built, in the layout a model
## keeps (@code{family, d, heads, kv_heads, dk, dv, attn_bias, d_ff,
## activation, ffn_gated, ffn_bias, norm, norm_kind,
## norm_eps, final_norm, positions, rope_base, embed_scale, embed_norm,
## tie_embeddings, head_bias,
## max_len,
## encoder_layers, decoder_layers, seed}, then @code{readout, head,
## d_hidden, head_activation} for a sentence classifier, @code{d_hidden,
## head_activation, head_norm} for a token classifier), with @code{src_vocab} and
## @code{tgt_vocab} at the end (what @code{model_schema} reads).
##
## @var{config} takes either form: as @code{attn_model} and
## @code{attn_family} document it (one-stack families give @code{vocab},
## @code{classes} and @code{layers}), or as a model holds it
## (@code{m.config} with @code{src_vocab}, @code{tgt_vocab}).  The stack a
## family lacks has 0 layers.  Widths, counts and the seed must be real
## integers in range; words one of those allowed; vocabularies well formed.
## Errors are @code{attention:config} (@code{attention:heads} when heads do
## not divide d, @code{attention:type} for a CONFIG that is no struct) and
## name @var{caller} and the field.
## @end deftypefn

function c = check_config (config, caller)
  if (! isstruct (config) || ! isscalar (config))
    error ("attention:type", "%s: CONFIG must be a scalar struct, got %s", caller,
           class (config));
  endif
  spec = {"family", "encoder-decoder", ["one of " strjoin({model_family().name}, ", ")];
          "src_vocab", [], "any";
          "tgt_vocab", [], "any";
          "vocab", [], "any";
          "classes", [], "any";
          "d", 32, "integer [1, 65536]";
          "heads", 4, "integer [1, 4096]";
          "kv_heads", [], "integer [1, 4096]";
          "attn_bias", false, "flag";
          "dk", [], "integer [1, 65536]";
          "dv", [], "integer [1, 65536]";
          "d_ff", [], "integer [0, 1048576]";
          "activation", "relu", ["one of " strjoin(activation (), ", ")];
          "ffn_gated", false, "flag";
          "ffn_bias", true, "flag";
          "norm", "post", "one of post, pre, none";
          "norm_kind", "layernorm", "one of layernorm, rmsnorm";
          "norm_eps", 1e-5, "real (0, 1)";
          "final_norm", [], "flag";
          "positions", "learned", "one of learned, sinusoidal, sinusoidal_concat, rope";
          "rope_base", 10000, "real (0, Inf)";
          "embed_scale", false, "flag";
          "embed_norm", false, "flag";
          "tie_embeddings", false, "flag";
          "head_bias", true, "flag";
          "max_len", 64, "integer [1, 1048576]";
          "encoder_layers", 2, "integer [0, 1024]";
          "decoder_layers", 2, "integer [0, 1024]";
          "layers", 2, "integer [1, 1024]";
          "seed", 0, "integer [0, 4294967295]";
          "readout", "cls", "one of cls, mean, first";
          "head_activation", "relu", ["one of " strjoin(activation (), ", ")];
          "head", "linear", "one of linear, mlp";
          "d_hidden", [], "integer [0, 65536]";
          "head_norm", false, "flag"};
  o = parse_options (caller, spec, {config}, "config");
  given = lower (fieldnames (config));
  fam = o.family;
  family = model_family (fam);
  encoder_only = ! family.decoder;
  one_stack = ! (family.source && family.decoder);

  if (one_stack && ! isempty (o.vocab))       # attn_family's form: vocab, layers
    for f = {"src_vocab", "tgt_vocab", "encoder_layers", "decoder_layers"}
      if (any (strcmp (f{1}, given)))
        error ("attention:config",
               "%s: CONFIG.%s belongs to the encoder-decoder families; give vocab and layers",
               caller, f{1});
      endif
    endfor
    if (encoder_only)
      specials = {"<pad>", "<unk>", "<bos>", "<eos>"};
      if (strcmp (family.readout, "sentence") && strcmp (o.readout, "cls"))
        specials{end+1} = "<cls>";
      endif
      o.src_vocab = vocab_of (o.vocab, "vocab", caller, specials);
      if (! iscellstr (o.classes) || numel (o.classes) < 2)
        error ("attention:config",
               "%s: CONFIG.classes must be a cell array of at least 2 class names, got %s",
               caller, disp_arg (o.classes));
      endif
      o.tgt_vocab = attn_vocab (o.classes, {});
      [o.encoder_layers, o.decoder_layers] = deal (o.layers, 0);
    else
      o.src_vocab = o.tgt_vocab = vocab_of (o.vocab, "vocab", caller);
      [o.encoder_layers, o.decoder_layers] = deal (0, o.layers);
    endif
  elseif (one_stack && isempty (o.src_vocab))
    error ("attention:config", "%s: CONFIG.vocab is required for the %s family", caller, fam);
  else                                        # attn_model's form, or a model's
    for f = {"src_vocab", "tgt_vocab"}
      if (isempty (o.(f{1})))
        error ("attention:config", "%s: CONFIG.%s is required (a vocabulary or sentences)",
               caller, f{1});
      endif
      o.(f{1}) = vocab_of (o.(f{1}), f{1}, caller);
    endfor
    stacks = {"encoder_layers", family.source; "decoder_layers", family.decoder};
    for i = 1:2
      if (stacks{i,2} && o.(stacks{i,1}) < 1)
        error ("attention:config", "%s: CONFIG.%s must be at least 1 for the %s family, got %d",
               caller, stacks{i,1}, fam, o.(stacks{i,1}));
      elseif (! stacks{i,2} && o.(stacks{i,1}) != 0)
        error ("attention:config",
               "%s: CONFIG.%s must be 0 for the %s family, got %d (the stack the family lacks has 0 layers; a model made by an older version may say %d: set M.config.%s = 0)",
               caller, stacks{i,1}, fam, o.(stacks{i,1}), o.(stacks{i,1}), stacks{i,1});
      endif
    endfor
  endif
  if (encoder_only)
    if (numel (o.tgt_vocab.words) < 2)
      error ("attention:config", "%s: CONFIG.tgt_vocab (the classes) must hold at least 2 names",
             caller);
    endif
    if (strcmp (family.readout, "sentence") && strcmp (o.readout, "cls")
        && ! any (strcmp (o.src_vocab.words, "<cls>")))
      error ("attention:config",
             "%s: CONFIG.vocab must hold \"<cls>\" for the cls readout (build it with attn_vocab (data, {..., \"<cls>\"}))",
             caller);
    endif
  elseif (o.tgt_vocab.bos == 0 || o.tgt_vocab.eos == 0)
    error ("attention:config", "%s: CONFIG.%s must hold <bos> and <eos>", caller,
           merge (isempty (o.vocab), "tgt_vocab", "vocab"));
  endif

  for f = {"dk", "dv"}
    if (isempty (o.(f{1})))
      if (mod (o.d, o.heads) != 0)
        error ("attention:heads",
               "%s: CONFIG.heads (%d) must divide CONFIG.d (%d) unless %s is given",
               caller, o.heads, o.d, f{1});
      endif
      o.(f{1}) = o.d / o.heads;
    endif
  endfor
  if (isempty (o.d_ff))
    o.d_ff = 4 * o.d;
  endif
  token = strcmp (family.readout, "token");
  if (o.tie_embeddings && ! (family.decoder || token))
    error ("attention:config",
           "%s: CONFIG.tie_embeddings ties the head to the embeddings: the vocabulary head of a family with a decoder, or the token classifier's to src_embed; the %s family has neither",
           caller, fam);
  endif
  if (o.head_norm && ! token)
    error ("attention:config",
           "%s: CONFIG.head_norm is the LayerNorm of the encoder-token family's hidden layer; the %s family has none",
           caller, fam);
  endif
  if (isempty (o.kv_heads))
    o.kv_heads = o.heads;
  elseif (mod (o.heads, o.kv_heads) != 0)
    error ("attention:heads", "%s: CONFIG.kv_heads (%d) must divide CONFIG.heads (%d)",
           caller, o.kv_heads, o.heads);
  endif
  if (strcmp (o.positions, "rope"))
    if (! isempty (family.pool))
      error ("attention:config",
             "%s: CONFIG.positions \"rope\" is for families whose decoder reads no pooled vector, not %s",
             caller, fam);
    elseif (mod (o.dk, 2) != 0)
      error ("attention:config", "%s: CONFIG.positions \"rope\" needs an even dk, got %d",
             caller, o.dk);
    endif
  endif
  if (isempty (o.final_norm))                 # pre-norm stacks end with one
    o.final_norm = strcmp (o.norm, "pre");
  endif
  keep = {"family", "d", "heads", "kv_heads", "dk", "dv", "attn_bias", "d_ff", "activation", ...
          "ffn_gated", "ffn_bias", ...
          "norm", "norm_kind", ...
          "norm_eps", "final_norm", "positions", "rope_base", "embed_scale", "embed_norm", ...
          "tie_embeddings", "head_bias", "max_len", ...
          "encoder_layers", "decoder_layers", "seed"};
  if (strcmp (family.readout, "sentence"))
    if (strcmp (o.head, "linear"))
      o.d_hidden = 0;
    elseif (isempty (o.d_hidden))
      o.d_hidden = o.d;
    elseif (o.d_hidden == 0)
      error ("attention:config", "%s: CONFIG.d_hidden must be at least 1 for the mlp head",
             caller);
    endif
    keep = [keep, {"readout", "head", "d_hidden", "head_activation"}];
  elseif (token)               # every row: [act (x*W_hidden + b_hidden), LN] -> classes
    if (isempty (o.d_hidden))
      o.d_hidden = 0;
    endif
    if (o.head_norm && o.d_hidden == 0)
      error ("attention:config",
             "%s: CONFIG.head_norm normalises the head's hidden layer: it needs CONFIG.d_hidden at least 1",
             caller);
    endif
    if (o.tie_embeddings)      # logits = rows*src_embed.' + b_class: classes are the words
      if (! isequal (o.tgt_vocab.words, o.src_vocab.words))
        error ("attention:config",
               "%s: CONFIG.tie_embeddings reads the classes' scores from src_embed: the classes must be the vocabulary's words, in its order (%d classes, %d words)",
               caller, numel (o.tgt_vocab.words), numel (o.src_vocab.words));
      elseif (! any (o.d_hidden == [0, o.d]))
        error ("attention:config",
               "%s: CONFIG.tie_embeddings needs the head's rows of width d (%d): CONFIG.d_hidden must be 0 or d, got %d",
               caller, o.d, o.d_hidden);
      endif
    endif
    keep = [keep, {"d_hidden", "head_activation", "head_norm"}];
  endif
  c = struct ();
  for f = [keep, {"src_vocab", "tgt_vocab"}]
    c.(f{1}) = o.(f{1});
  endfor
endfunction

## a vocabulary struct (checked in full), or one built from data (sentences)
function v = vocab_of (v, name, caller, varargin)
  if (! isstruct (v))
    if (! ischar (v) && ! iscellstr (v))
      error ("attention:config",
             "%s: CONFIG.%s must be a vocabulary (attn_vocab) or sentences, got %s",
             caller, name, disp_arg (v));
    endif
    try
      v = attn_vocab (v, varargin{:});
    catch err
      error (err.identifier, "%s",
             regexprep (err.message, '^attn_vocab: DATA', [caller ": CONFIG." name]));
    end_try_catch
  endif
  check_vocab (v, caller, ["CONFIG." name]);
endfunction

%!shared v
%! v = {"the river bank", "the financial bank"};

%!test
%! c = check_config (struct ("src_vocab", {v}, "tgt_vocab", "la rive", "d", 6, "heads", 2), "f");
%! assert (fieldnames (c)', {"family", "d", "heads", "kv_heads", "dk", "dv", "attn_bias", ...
%!                          "d_ff", "activation", "ffn_gated", "ffn_bias", "norm", ...
%!                          "norm_kind", "norm_eps", "final_norm", "positions", "rope_base", ...
%!                          "embed_scale", "embed_norm", "tie_embeddings", "head_bias", ...
%!                          "max_len", "encoder_layers", "decoder_layers", "seed", ...
%!                          "src_vocab", "tgt_vocab"});
%! assert ([c.dk, c.dv, c.d_ff, c.encoder_layers], [3 3 24 2]);
%! assert (c.tgt_vocab.words{end}, "rive");

%!test
%! c = check_config (struct ("family", "decoder-only", "vocab", "a b", "layers", 3), "f");
%! assert ([c.encoder_layers, c.decoder_layers], [0 3]);
%! assert (c.src_vocab, c.tgt_vocab);
%! c = check_config (struct ("family", "encoder-sentence", "vocab", "a b", "classes", {{"x", "y"}},
%!                           "head", "mlp", "readout", "mean"), "f");
%! assert ([c.encoder_layers, c.decoder_layers, c.d_hidden], [2 0 32]);
%! assert (c.tgt_vocab.words, {"x", "y"});
%! ## a model's own config passes as it is
%! assert (check_config (c, "f"), c);

%!error <f: CONFIG.d must be an integer in \[1, 65536\], got "8"> check_config (struct ("src_vocab", "a", "tgt_vocab", "b", "d", "8"), "f")
%!error <CONFIG.d must be an integer> check_config (struct ("src_vocab", "a", "tgt_vocab", "b", "d", 8+1i), "f")
%!error <CONFIG.d must be an integer> check_config (struct ("src_vocab", "a", "tgt_vocab", "b", "d", 1e10), "f")
%!error <CONFIG.encoder_layers must be an integer in \[0, 1024\], got 1e\+06> check_config (struct ("src_vocab", "a", "tgt_vocab", "b", "encoder_layers", 1e6), "f")
%!error <CONFIG.encoder_layers must be at least 1> check_config (struct ("src_vocab", "a", "tgt_vocab", "b", "encoder_layers", 0), "f")
%!error <CONFIG.seed must be an integer> check_config (struct ("src_vocab", "a", "tgt_vocab", "b", "seed", NaN), "f")
%!error <CONFIG.seed must be an integer> check_config (struct ("src_vocab", "a", "tgt_vocab", "b", "seed", Inf), "f")
%!error <CONFIG.seed must be an integer> check_config (struct ("src_vocab", "a", "tgt_vocab", "b", "seed", -1), "f")
%!error <CONFIG.norm must be one of "post", "pre", "none", got "middle"> check_config (struct ("src_vocab", "a", "tgt_vocab", "b", "norm", "middle"), "f")
%!error <f: unknown CONFIG field "width"> check_config (struct ("src_vocab", "a", "tgt_vocab", "b", "width", 3), "f")
%!error id=attention:heads check_config (struct ("src_vocab", "a", "tgt_vocab", "b", "d", 6, "heads", 4), "f")
%!error <CONFIG.src_vocab is required> check_config (struct ("tgt_vocab", "b"), "f")
%!error <CONFIG.tgt_vocab must hold> check_config (struct ("src_vocab", "a", "tgt_vocab", attn_vocab ("b", {})), "f")
%!error <CONFIG.src_vocab must be a vocabulary> check_config (struct ("src_vocab", 3, "tgt_vocab", "b"), "f")
%!error <CONFIG.src_vocab must be a vocabulary struct of exactly> check_config (struct ("src_vocab", struct ("words", 1), "tgt_vocab", "b"), "f")
%!error <f: CONFIG.src_vocab sentence 2 is not UTF-8 text: byte 2 \(0xFF\) after "a"> check_config (struct ("src_vocab", {{"a", "a\xFF"}}, "tgt_vocab", "b"), "f")
%!error <f: CONFIG.vocab sentence 1 is not UTF-8 text: byte 1> check_config (struct ("family", "decoder-only", "vocab", "\xC3"), "f")
%!error <f: CONFIG.tgt_vocab.eos must be an integer id> check_config (struct ("src_vocab", "a", "tgt_vocab", setfield (attn_vocab ("b"), "eos", 9)), "f")
%!error <CONFIG.decoder_layers must be 0 for the encoder-token family> check_config (setfield (check_config (struct ("family", "encoder-token", "vocab", "a b", "classes", {{"x", "y"}}), "f"), "decoder_layers", 1), "f")
%!error <CONFIG.d_hidden must be at least 1> check_config (struct ("family", "encoder-sentence", "vocab", "a b", "classes", {{"x", "y"}}, "readout", "mean", "head", "mlp", "d_hidden", 0), "f")
%!error id=attention:type check_config (3, "f")
%!test
%! ## the token classifier's head: no hidden layer by default; tied to
%! ## src_embed when the classes are the vocabulary's words
%! c = check_config (struct ("family", "encoder-token", "vocab", "a b", "classes", {{"x", "y"}}), "f");
%! assert (fieldnames (c)'(end-4:end), {"d_hidden", "head_activation", "head_norm", "src_vocab", "tgt_vocab"});
%! assert ([c.d_hidden, c.head_norm, c.tie_embeddings], [0 false false]);
%! v = attn_vocab ("a b");
%! c = check_config (struct ("family", "encoder-token", "vocab", "a b", "classes", {v.words},
%!                           "tie_embeddings", true, "d_hidden", 32, "head_norm", true), "f");
%! assert (c.tgt_vocab.words, c.src_vocab.words);
%! assert ([c.d_hidden, c.head_norm, c.tie_embeddings], [32 true true]);
%!error <CONFIG.tie_embeddings reads the classes' scores from src_embed: the classes must be the vocabulary's words> check_config (struct ("family", "encoder-token", "vocab", "a b", "classes", {{"x", "y"}}, "tie_embeddings", true), "f")
%!error <CONFIG.d_hidden must be 0 or d, got 5> check_config (struct ("family", "encoder-token", "vocab", "a b", "classes", {attn_vocab("a b").words}, "tie_embeddings", true, "d_hidden", 5), "f")
%!error <CONFIG.head_norm normalises the head's hidden layer: it needs CONFIG.d_hidden> check_config (struct ("family", "encoder-token", "vocab", "a b", "classes", {{"x", "y"}}, "head_norm", true), "f")
%!error <CONFIG.head_norm is the LayerNorm of the encoder-token family's hidden layer; the encoder-sentence family has none> check_config (struct ("family", "encoder-sentence", "vocab", "a b", "classes", {{"x", "y"}}, "readout", "mean", "head_norm", true), "f")
%!error <the encoder-sentence family has neither> check_config (struct ("family", "encoder-sentence", "vocab", "a b", "classes", {{"x", "y"}}, "readout", "mean", "tie_embeddings", true), "f")
