## -*- texinfo -*-
## @deftypefn  {} {@var{parts} =} model_schema (@var{config})
## @deftypefnx {} {@var{parts} =} model_schema (@var{m})
## Every array of a model, in the model's field order: the one description
## of a model's layout that building, checking, reading, training and
## testing a model use.
##
## @var{config} is a model's config (@code{m.config}, every field present)
## with the vocabularies in @code{src_vocab} and @code{tgt_vocab}, as
## @code{check_config} returns it; given a model @var{m}, its config and
## vocabularies are used.  @var{parts} is a struct array with fields
## @table @code
## @item path
## the array's place, dotted, struct arrays indexed from 1
## (@qcode{"decoder.1.cross.W_Q"}, @qcode{"src_embed"})
## @item shape
## its size (1×2)
## @item learned
## true when training changes it (false for @code{heads} and sinusoidal
## position tables)
## @item init
## how a new model fills it: @qcode{"normal"} (@code{randn / sqrt (fan_in)}),
## @qcode{"zeros"}, @qcode{"ones"}, @qcode{"heads"}, @qcode{"kv_heads"} or
## @qcode{"rope_base"} (the config's number of that name),
## @qcode{"sinusoidal"} or @qcode{"sinusoidal_concat"} (@code{sinusoid_table})
## @item fan_in
## the divisor's square for @qcode{"normal"} (0 otherwise)
## @item own
## true for a family's own matrices (drawn from seed + 1), false for the
## embeddings, stacks and vocabulary head (drawn from seed)
## @item subs
## the path as a @code{subsref}/@code{subsasgn} index
## @end table
##
## The parts, by what the config asks for: embeddings and positions of the
## source (every family but decoder-only) and of the target (every family
## with a decoder); @code{encoder(l)} layers (@code{self}, @code{ffn} when
## @code{d_ff} > 0, @code{norm_self}, @code{norm_ffn} unless norm is
## @qcode{"none"}); @code{decoder(l)} layers (the same, with @code{cross}
## and @code{norm_cross} in the encoder-decoder); the final LayerNorms of
## pre-norm stacks; the head (@code{W_vocab}, @code{b_vocab}, or
## @code{W_hidden}, @code{b_hidden} of an MLP, a token classifier's
## @code{head_norm} after it, and @code{W_class} (none when a token
## classifier is tied to @code{src_embed}), @code{b_class}); the pooled
## designs' @code{W_u}, @code{W_F} or @code{W_P}.
## @end deftypefn

function parts = model_schema (config)
  if (isfield (config, "config"))             # a model
    c = config.config;
    c.src_vocab = config.src_vocab;
    c.tgt_vocab = config.tgt_vocab;
  else
    c = config;
  endif
  family = model_family (c.family);
  d = c.d;
  Vs = numel (c.src_vocab.words);
  Vt = numel (c.tgt_vocab.words);
  top = struct ("type", {}, "subs", {});
  P = cell (0, 7);               # path, shape, learned, init, fan_in, own, subs
  if (family.source)
    P = [P; embedding("src", Vs, c)];
  endif
  if (family.decoder)
    P = [P; embedding("tgt", Vt, c)];
  endif
  blocks = {"self"};
  if (family.cross)
    blocks = {"self", "cross"};
  endif
  ## the layers gathered first and joined once (a growing table costs n^2)
  layers = [arrayfun(@(l) layer ("encoder", l, {"self"}, c), 1:c.encoder_layers,
                     "UniformOutput", false), ...
            arrayfun(@(l) layer ("decoder", l, blocks, c), 1:c.decoder_layers,
                     "UniformOutput", false)];
  P = vertcat (P, layers{:});
  if (c.final_norm)
    if (c.encoder_layers > 0)
      P = [P; norm_parts("", top, "encoder_norm", c)];
    endif
    if (c.decoder_layers > 0)
      P = [P; norm_parts("", top, "decoder_norm", c)];
    endif
  endif
  switch (family.readout)
    case "vocab"
      head = affine ("W_vocab", "b_vocab", d, Vt, false);
      P = [P; head(! [c.tie_embeddings, ! c.head_bias],:)];   # tied: tgt_embed'; no bias
    case {"token", "sentence"}               # [hidden layer, its LayerNorm,] classes
      width = d;
      if (c.d_hidden > 0)
        width = c.d_hidden;
        P = [P; affine("W_hidden", "b_hidden", d, width, true)];
      endif
      if (isfield (c, "head_norm") && c.head_norm)   # a token classifier's only
        P = [P; norm_parts("", top, "head_norm", c, width)];
      endif
      head = affine ("W_class", "b_class", width, Vt, true);
      P = [P; head(! [c.tie_embeddings, false],:)];    # tied (token only): src_embed'
  endswitch
  switch (family.pool)
    case "add"                                # u = c*W_u
      P(end+1,:) = part ("", top, {"W_u"}, [d d], true, "normal", d, true);
    case "concat"                             # [e_t, c]*W_F
      P(end+1,:) = part ("", top, {"W_F"}, [2*d d], true, "normal", 2*d, true);
    case "prefix"                             # c*W_P, the row at position 1
      P(end+1,:) = part ("", top, {"W_P"}, [d d], true, "normal", d, true);
  endswitch
  parts = cell2struct (P, {"path", "shape", "learned", "init", "fan_in", "own", "subs"}, 2);
endfunction

## one row of the table: the array at pre + names (one or two fields)
## below the index S
function r = part (pre, S, names, shape, learned, init, fan_in, own)
  path = [pre names{1}];
  if (numel (names) == 2)
    path = [path "." names{2}];
  endif
  r = {path, shape, learned, init, fan_in, own, [S, struct("type", ".", "subs", names)]};
endfunction

## the token table (V×d) and position table (max_len×d) of one side
## (and the norm of their sum, with embed_norm)
function P = embedding (side, V, c)
  top = struct ("type", {}, "subs", {});
  P = part ("", top, {[side "_embed"]}, [V c.d], true, "normal", c.d, false);
  switch (c.positions)
    case "learned"
      P(2,:) = part ("", top, {[side "_pos"]}, [c.max_len c.d], true, "normal", c.d, false);
    case {"sinusoidal", "sinusoidal_concat"}
      P(2,:) = part ("", top, {[side "_pos"]}, [c.max_len c.d], false, c.positions, 0, false);
  endswitch                                   # "rope": the self blocks rotate Q and K
  if (c.embed_norm)
    P = [P; norm_parts("", top, [side "_embed_norm"], c)];
  endif
endfunction

## layer l of a stack: its attention blocks, the FFN, then the LayerNorms
function P = layer (stack, l, blocks, c)
  d = c.d;
  h = c.heads;
  pre = sprintf ("%s.%d.", stack, l);
  S = struct ("type", {".", "()"}, "subs", {stack, {l}});
  P = cell (0, 7);
  hk = c.kv_heads;
  for b = blocks
    B = b{1};
    W = {"W_Q", [d h*c.dk], d; "b_Q", [1 h*c.dk], 0;       # name, shape, fan-in
         "W_K", [d hk*c.dk], d; "b_K", [1 hk*c.dk], 0;
         "W_V", [d hk*c.dv], d; "b_V", [1 hk*c.dv], 0;
         "W_O", [h*c.dv d], h*c.dv; "b_O", [1 d], 0};
    if (! c.attn_bias)
      W = W(1:2:end,:);
    endif
    for i = 1:rows (W)
      init = merge (W{i,3} > 0, "normal", "zeros");
      P(end+1,:) = part (pre, S, {B, W{i,1}}, W{i,2}, true, init, W{i,3}, false);
    endfor
    ## fixed numbers the kernels read from the block (check_model holds
    ## them to the config)
    P(end+1,:) = part (pre, S, {B, "heads"}, [1 1], false, "heads", 0, false);
    if (hk != h)
      P(end+1,:) = part (pre, S, {B, "kv_heads"}, [1 1], false, "kv_heads", 0, false);
    endif
    if (strcmp (c.positions, "rope") && ! strcmp (B, "cross"))
      P(end+1,:) = part (pre, S, {B, "rope_base"}, [1 1], false, "rope_base", 0, false);
    endif
  endfor
  names = blocks;
  if (c.d_ff > 0)                            # in the order of the FFN's steps
    F = {"W_1", [d c.d_ff], d; "b_1", [1 c.d_ff], 0};
    if (c.ffn_gated)
      F = [F; {"W_3", [d c.d_ff], d; "b_3", [1 c.d_ff], 0}];
    endif
    F = [F; {"W_2", [c.d_ff d], c.d_ff; "b_2", [1 d], 0}];
    if (! c.ffn_bias)
      F = F(1:2:end,:);
    endif
    for i = 1:rows (F)
      init = merge (F{i,3} > 0, "normal", "zeros");
      P(end+1,:) = part (pre, S, {"ffn", F{i,1}}, F{i,2}, true, init, F{i,3}, false);
    endfor
    names{end+1} = "ffn";
  endif
  if (! strcmp (c.norm, "none"))
    for n = names
      P = [P; norm_parts(pre, S, ["norm_" n{1}], c)];
    endfor
  endif
endfunction

## a LayerNorm's gain (ones) and bias (zeros), 1×width each (width d
## unless given)
function P = norm_parts (pre, S, name, c, width = c.d)
  P = part (pre, S, {name, "gain"}, [1 width], true, "ones", 0, false);
  if (strcmp (c.norm_kind, "layernorm"))     # RMSNorm has no bias
    P(2,:) = part (pre, S, {name, "bias"}, [1 width], true, "zeros", 0, false);
  endif
endfunction

## W (a×b, normal with fan-in a) and its bias (1×b, zeros)
function P = affine (W, b, a, width, own)
  top = struct ("type", {}, "subs", {});
  P = [part("", top, {W}, [a width], true, "normal", a, own);
       part("", top, {b}, [1 width], true, "zeros", 0, own)];
endfunction

%!shared c
%! c = struct ("family", "encoder-decoder", "d", 6, "heads", 2, "kv_heads", 2, "dk", 3, "dv", 2,
%!             "attn_bias", false,
%!             "d_ff", 5, "ffn_gated", false, "ffn_bias", true, "norm", "pre",
%!             "norm_kind", "layernorm", "final_norm", true,
%!             "positions", "sinusoidal", "embed_norm", false, "tie_embeddings", false,
%!             "head_bias", true,
%!             "max_len", 9,
%!             "encoder_layers", 1, "decoder_layers", 2, "seed", 0,
%!             "src_vocab", attn_vocab ("a b c"), "tgt_vocab", attn_vocab ("x y"));

%!test
%! p = model_schema (c);
%! assert (p(1).path, "src_embed");
%! assert (p(1).shape, [7 6]);
%! assert (p(2).learned, false);
%! k = find (strcmp ({p.path}, "decoder.2.cross.W_O"));
%! assert (p(k).shape, [4 6]);
%! assert (p(k).fan_in, 4);
%! assert ({p(end-1:end).path}, {"W_vocab", "b_vocab"});
%! assert (any (strcmp ({p.path}, "encoder_norm.gain")));
%! heads = strcmp ({p.init}, "heads");
%! assert ({p(heads).path},
%!         {"encoder.1.self.heads", "decoder.1.self.heads", "decoder.1.cross.heads", ...
%!          "decoder.2.self.heads", "decoder.2.cross.heads"});

## the number of numeric arrays inside the struct (array) S
%!test
%! ## every array of a model is a part, with the size the part says
%! m = attn_model (c);
%! p = model_schema (m);
%! assert (numel (p), ref_arrays (rmfield (m, {"config", "src_vocab", "tgt_vocab"})));
%! for i = 1:numel (p)
%!   f = strsplit (p(i).path, ".");
%!   x = m;
%!   for k = 1:numel (f)
%!     if (isstrprop (f{k}(1), "digit"))
%!       x = x(str2double (f{k}));
%!     else
%!       x = x.(f{k});
%!     endif
%!   endfor
%!   assert (size (x), p(i).shape);
%!   assert (subsref (m, p(i).subs), x);
%! endfor
