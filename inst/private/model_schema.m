## parts = model_schema (config): every array of a model, in field order:
## a struct array with path (dotted, struct arrays indexed from 1, e.g.
## "decoder.1.cross.W_Q"), shape (1×2) and learned (false for a block's
## heads and sinusoidal position tables).  config is the model's config with
## its vocabularies in src_vocab and tgt_vocab.
function parts = model_schema (config)
  c = config;
  fam = c.family;
  d = c.d;
  encoder_only = any (strcmp (fam, {"encoder-token", "encoder-sentence"}));
  P = cell (0, 3);
  if (! strcmp (fam, "decoder-only"))
    P = [P; table("src", numel (c.src_vocab.words), c)];
  endif
  if (! encoder_only)
    P = [P; table("tgt", numel (c.tgt_vocab.words), c)];
  endif
  if (! strcmp (fam, "decoder-only"))
    for l = 1:c.encoder_layers
      P = [P; layer(sprintf("encoder.%d.", l), {"self"}, c)];
    endfor
  endif
  if (! encoder_only)
    blocks = {"self", "cross"}(1:1 + strcmp (fam, "encoder-decoder"));
    for l = 1:c.decoder_layers
      P = [P; layer(sprintf("decoder.%d.", l), blocks, c)];
    endfor
  endif
  if (strcmp (c.norm, "pre"))
    if (! strcmp (fam, "decoder-only"))
      P = [P; ln("encoder_norm.", d)];
    endif
    if (! encoder_only)
      P = [P; ln("decoder_norm.", d)];
    endif
  endif
  if (encoder_only)
    width = d;
    if (strcmp (fam, "encoder-sentence") && strcmp (c.head, "mlp"))
      if (isfield (c, "d_hidden") && ! isempty (c.d_hidden))
        width = c.d_hidden;
      endif
      P = [P; {"W_hidden", [d width], true; "b_hidden", [1 width], true}];
    endif
    P = [P; {"W_class", [width numel(c.tgt_vocab.words)], true;
             "b_class", [1 numel(c.tgt_vocab.words)], true}];
  else
    P = [P; {"W_vocab", [d numel(c.tgt_vocab.words)], true;
             "b_vocab", [1 numel(c.tgt_vocab.words)], true}];
  endif
  own = struct ("pooled-add", {{"W_u", [d d]}}, "pooled-concat", {{"W_F", [2*d d]}},
                "pooled-prefix", {{"W_P", [d d]}});
  if (isfield (own, fam))
    P(end+1,:) = [own.(fam), {true}];
  endif
  parts = cell2struct (P, {"path", "shape", "learned"}, 2);
endfunction

function P = table (side, V, c)
  P = {[side "_embed"], [V c.d], true;
       [side "_pos"], [c.max_len c.d], !strcmp(c.positions, "sinusoidal")};
endfunction

function P = layer (pre, blocks, c)
  d = c.d;
  h = c.heads;
  P = cell (0, 3);
  for b = blocks
    B = [pre b{1} "."];
    P = [P; {[B "W_Q"], [d h*c.dk], true; [B "W_K"], [d h*c.dk], true;
             [B "W_V"], [d h*c.dv], true; [B "W_O"], [h*c.dv d], true;
             [B "heads"], [1 1], false}];
  endfor
  subs = blocks;
  if (c.d_ff > 0)
    P = [P; {[pre "ffn.W_1"], [d c.d_ff], true; [pre "ffn.b_1"], [1 c.d_ff], true;
             [pre "ffn.W_2"], [c.d_ff d], true; [pre "ffn.b_2"], [1 d], true}];
    subs{end+1} = "ffn";
  endif
  if (! strcmp (c.norm, "none"))
    for s = subs
      P = [P; ln([pre "norm_" s{1} "."], d)];
    endfor
  endif
endfunction

function P = ln (pre, d)
  P = {[pre "gain"], [1 d], true; [pre "bias"], [1 d], true};
endfunction
