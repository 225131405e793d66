## -*- texinfo -*-
## @deftypefn {} {@var{m} =} model_new (@var{c})
## A new model of any family from a config checked by @code{check_config}:
## every part of @code{model_schema (c)}, in its order.
##
## Learned weights are normal with variance 1/fan-in, biases 0, LayerNorm
## gains 1.  The embeddings, stacks and vocabulary head are drawn from
## @code{c.seed} in the order of the encoder-decoder of the same widths (at
## least one layer a stack, source and target tables of the one vocabulary
## for a one-stack family), skipping what the family lacks, so a family's
## stacks hold the same numbers as the encoder-decoder's; a family's own
## matrices are drawn from @code{c.seed + 1}.  The caller's random state is
## kept.
## @end deftypefn

function m = model_new (c)
  m.config = rmfield (c, {"src_vocab", "tgt_vocab"});
  if (! strcmp (c.family, "decoder-only"))
    m.src_vocab = c.src_vocab;
  endif
  m.tgt_vocab = c.tgt_vocab;
  parts = model_schema (c);
  for p = parts'                             # the layout first, in model order
    switch (p.init)
      case "ones"
        x = ones (p.shape);
      case "heads"
        x = c.heads;
      case "sinusoid"
        x = sinusoid_table (p.shape(1), p.shape(2));
      otherwise
        x = zeros (p.shape);
    endswitch
    m = subsasgn (m, p.subs, x);
  endfor
  if (strcmp (c.family, "decoder-only"))
    m.src_vocab = c.src_vocab;
  endif

  drawn = c;                                 # the encoder-decoder's draw order
  drawn.family = "encoder-decoder";
  drawn.encoder_layers = max (c.encoder_layers, 1);
  drawn.decoder_layers = max (c.decoder_layers, 1);
  if (any (strcmp (c.family, {"encoder-token", "encoder-sentence"})))
    drawn.tgt_vocab = c.src_vocab;
  endif
  stacks = model_schema (drawn);
  own = parts([parts.own]);
  keep = {parts.path};
  old = randn ("state");
  unwind_protect
    randn ("state", c.seed);
    for p = stacks(strcmp ({stacks.init}, "normal"))'
      x = randn (p.shape) / sqrt (p.fan_in);
      if (any (strcmp (p.path, keep)))
        m = subsasgn (m, p.subs, x);
      endif
    endfor
    randn ("state", c.seed + 1);
    for p = own(strcmp ({own.init}, "normal"))'
      m = subsasgn (m, p.subs, randn (p.shape) / sqrt (p.fan_in));
    endfor
  unwind_protect_cleanup
    randn ("state", old);
  end_unwind_protect
endfunction

## P = sinusoid_table (L, d): fixed sinusoidal positions (Vaswani et al.):
## row i is position p = i-1; column 2k-1 holds sin (p / 10000^((2k-2)/d))
## and column 2k the cosine of the same angle.
function P = sinusoid_table (L, d)
  p = (0:L-1)';
  k = 0:ceil (d/2) - 1;
  angle = p ./ 10000 .^ (2*k / d);
  P = zeros (L, 2*numel (k));
  P(:,1:2:end) = sin (angle);
  P(:,2:2:end) = cos (angle);
  P = P(:,1:d);
endfunction
