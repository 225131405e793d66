## -*- texinfo -*-
## @deftypefn {} {[@var{m}, @var{n}] =} model_new (@var{c}, @var{caller})
## A new model of any family from a config checked by @code{check_config}:
## every part of @code{model_schema (c)}, in its order.
##
## Before anything is allocated, the parameter count is computed from the
## schema of at most two layers a stack (the count grows linearly with the
## layers) and its memory compared with what the machine has
## (@code{check_memory}, the rule the file reader shares): more is an
## @code{attention:toolarge} error naming @var{caller}.  @var{n} is that
## count (every number of the model's arrays).
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

function [m, n] = model_new (c, caller)
  [n, largest] = parameter_count (c);
  check_memory (n, largest, caller, "the model",
                "; make CONFIG.d, d_ff, max_len, the layers or the vocabularies smaller");
  m.config = rmfield (c, {"src_vocab", "tgt_vocab"});
  family = model_family (c.family);
  if (family.source)
    m.src_vocab = c.src_vocab;
  endif
  m.tgt_vocab = c.tgt_vocab;
  parts = model_schema (c);
  for p = parts'                             # the layout first, in model order
    switch (p.init)
      case "ones"
        x = ones (p.shape);
      case {"heads", "kv_heads", "rope_base"}
        x = c.(p.init);
      case {"sinusoidal", "sinusoidal_concat"}
        x = sinusoid_table (p.shape(1), p.shape(2), p.init);
      case "normal"                          # drawn below: no zeros to hold meanwhile
        x = [];
      otherwise
        x = zeros (p.shape);
    endswitch
    m = subsasgn (m, p.subs, x);
  endfor
  if (! family.source)
    m.src_vocab = c.src_vocab;
  endif

  drawn = c;                                 # the encoder-decoder's draw order
  drawn.family = "encoder-decoder";
  drawn.encoder_layers = max (c.encoder_layers, 1);
  drawn.decoder_layers = max (c.decoder_layers, 1);
  if (! family.decoder)
    drawn.tgt_vocab = c.src_vocab;
  endif
  stacks = model_schema (drawn);
  stacks = stacks(strcmp ({stacks.init}, "normal"));
  keep = ismember ({stacks.path}, {parts.path});
  own = parts([parts.own]);
  old = randn ("state");
  unwind_protect
    randn ("state", c.seed);
    for i = 1:numel (stacks)
      p = stacks(i);
      x = randn (p.shape);
      x /= sqrt (p.fan_in);                  # in place: one array of the size at a time
      if (keep(i))
        m = subsasgn (m, p.subs, x);
      endif
    endfor
    randn ("state", c.seed + 1);
    for p = own(strcmp ({own.init}, "normal"))'
      x = randn (p.shape);
      x /= sqrt (p.fan_in);
      m = subsasgn (m, p.subs, x);
    endfor
  unwind_protect_cleanup
    randn ("state", old);
  end_unwind_protect
endfunction

## n: the numbers in a model of config c, largest: those of its largest
## array, from the schemas of at most two layers a stack
function [n, largest] = parameter_count (c)
  size_of = @(p) sum (prod (vertcat (p.shape), 2));
  e = min (c.encoder_layers, 1);
  f = min (c.decoder_layers, 1);
  [c1, c2, c3] = deal (c);
  [c1.encoder_layers, c1.decoder_layers] = deal (e, f);
  [c2.encoder_layers, c2.decoder_layers] = deal (2 * e, f);
  [c3.encoder_layers, c3.decoder_layers] = deal (e, 2 * f);
  p = model_schema (c1);
  n1 = size_of (p);
  n = (n1 + (c.encoder_layers - e) * (size_of (model_schema (c2)) - n1)
       + (c.decoder_layers - f) * (size_of (model_schema (c3)) - n1));
  largest = max (prod (vertcat (p.shape), 2));
endfunction

## the count made before allocating is the number of numbers the model holds
%!test
%! v = "a b c d";
%! b = struct ("d", 6, "heads", 2, "d_ff", 5, "max_len", 7, "seed", 1);
%! e = b;  e.src_vocab = v;  e.tgt_vocab = "x y";  e.encoder_layers = 3;  e.decoder_layers = 4;
%! g = b;  g.family = "decoder-only";  g.vocab = v;  g.layers = 5;
%! s = b;  s.family = "encoder-sentence";  s.vocab = v;  s.layers = 3;
%! s.classes = {"p", "q"};  s.head = "mlp";
%! p = b;  p.family = "pooled-concat";  p.src_vocab = v;  p.tgt_vocab = "x";
%! p.decoder_layers = 2;  p.norm = "pre";
%! for config = {e, g, s, p}
%!   [m, n] = model_new (check_config (config{1}, "f"), "f");
%!   [~, elements] = ref_arrays (rmfield (m, {"config", "src_vocab", "tgt_vocab"}));
%!   assert (n, elements);
%! endfor
%!error <f: the model would hold .* more than the .* of memory available> model_new (check_config (struct ("src_vocab", "a", "tgt_vocab", "b", "d", 65536), "f"), "f")
%!error id=attention:toolarge model_new (check_config (struct ("src_vocab", "a", "tgt_vocab", "b", "d", 4096, "max_len", 1048576), "f"), "f")
