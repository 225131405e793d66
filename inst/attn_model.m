## -*- texinfo -*-
## @deftypefn  {} {@var{m} =} attn_model (@var{config})
## A new encoder-decoder Transformer, initialised from a seed.
##
## @var{config} is a struct; every field but the vocabularies has a default:
##
## @table @code
## @item src_vocab, tgt_vocab
## vocabularies (structs from @code{attn_vocab}, or data to build them from:
## a sentence or a cell array of sentences)
## @item family
## @qcode{"encoder-decoder"} (the only family built here)
## @item d
## model width (32)
## @item heads
## attention heads per block (4)
## @item dk, dv
## per-head query/key and value widths (d/heads)
## @item d_ff
## hidden width of the ReLU feed-forward sublayers; 0 = no FFN (4·d)
## @item norm
## LayerNorm placement: @qcode{"post"} (default), @qcode{"pre"} or
## @qcode{"none"}
## @item positions
## @qcode{"learned"} (default) or @qcode{"sinusoidal"} (fixed) tables
## @item max_len
## rows of the position tables, the longest sequence (64)
## @item encoder_layers, decoder_layers
## stack depths (2 and 2)
## @item seed
## seed of the initialisation (0); the caller's random state is kept
## @end table
##
## The fields of @var{m} (embedding and position tables, @code{encoder} and
## @code{decoder} struct arrays of block, FFN and LayerNorm structs, the
## vocabulary head @code{W_vocab}, @code{b_vocab}) are listed in
## doc/ARCHITECTURE.md, "The model struct".  Weights are normal with
## variance 1/fan-in; biases 0; LayerNorm gains 1.
##
## @example
## @group
## c.src_vocab = attn_vocab (@{"the river bank", "the financial bank"@});
## c.tgt_vocab = attn_vocab (@{"la rive", "la banque"@});
## c.d = 8;  c.heads = 2;  c.encoder_layers = 1;  c.decoder_layers = 1;
## m = attn_model (c);
## mat2str (size (m.decoder(1).cross.W_Q))
##   @result{} ans = [8 8]
## @end group
## @end example
## @seealso{attn_forward, attn_loss, attn_train, attn_toy}
## @end deftypefn

function m = attn_model (config)
  if (nargin != 1)
    print_usage ();
  endif
  c = model_config (config);
  m.config = c;
  m.src_vocab = c.src_vocab;
  m.tgt_vocab = c.tgt_vocab;
  m.config = rmfield (c, {"src_vocab", "tgt_vocab"});

  old = randn ("state");
  randn ("state", c.seed);
  unwind_protect
    d = c.d;
    Vs = numel (m.src_vocab.words);
    Vt = numel (m.tgt_vocab.words);
    m.src_embed = randn (Vs, d) / sqrt (d);
    m.src_pos = position_table (c, d);
    m.tgt_embed = randn (Vt, d) / sqrt (d);
    m.tgt_pos = position_table (c, d);
    m.encoder = struct ([]);
    for l = 1:c.encoder_layers
      layer = struct ("self", new_block (c));
      m.encoder = [m.encoder, add_sublayers(layer, c, {"norm_self", "norm_ffn"})];
    endfor
    m.decoder = struct ([]);
    for l = 1:c.decoder_layers
      layer = struct ("self", new_block (c), "cross", new_block (c));
      m.decoder = [m.decoder, add_sublayers(layer, c, {"norm_self", "norm_cross", "norm_ffn"})];
    endfor
    if (strcmp (c.norm, "pre"))
      m.encoder_norm = new_norm (d);
      m.decoder_norm = new_norm (d);
    endif
    m.W_vocab = randn (d, Vt) / sqrt (d);
    m.b_vocab = zeros (1, Vt);
  unwind_protect_cleanup
    randn ("state", old);
  end_unwind_protect
endfunction

## The config with defaults filled in, every field checked.
function c = model_config (config)
  if (! isstruct (config) || ! isscalar (config))
    error ("attention:type", "attn_model: CONFIG must be a scalar struct, got %s",
           class (config));
  endif
  c = struct ("family", "encoder-decoder", "src_vocab", [], "tgt_vocab", [],
              "d", 32, "heads", 4, "dk", [], "dv", [], "d_ff", [],
              "norm", "post", "positions", "learned", "max_len", 64,
              "encoder_layers", 2, "decoder_layers", 2, "seed", 0);
  known = fieldnames (c);
  given = fieldnames (config);
  for i = 1:numel (given)
    if (! any (strcmp (given{i}, known)))
      error ("attention:config", "attn_model: unknown CONFIG field \"%s\" (known: %s)",
             given{i}, strjoin (known', ", "));
    endif
    c.(given{i}) = config.(given{i});
  endfor
  if (! strcmp (c.family, "encoder-decoder"))
    error ("attention:config",
           "attn_model: CONFIG.family must be \"encoder-decoder\", got \"%s\"",
           num2str (c.family));
  endif
  for name = {"src_vocab", "tgt_vocab"}
    v = c.(name{1});
    if (isempty (v))
      error ("attention:config", "attn_model: CONFIG.%s is required (a vocabulary or sentences)",
             name{1});
    elseif (! isstruct (v))
      c.(name{1}) = attn_vocab (v);
    endif
    check_vocab (c.(name{1}), "attn_model");
  endfor
  if (c.tgt_vocab.bos == 0 || c.tgt_vocab.eos == 0)
    error ("attention:config", "attn_model: CONFIG.tgt_vocab must hold <bos> and <eos>");
  endif
  positive_int (c.d, "d");
  positive_int (c.heads, "heads");
  for name = {"dk", "dv"}
    if (isempty (c.(name{1})))
      if (mod (c.d, c.heads) != 0)
        error ("attention:heads",
               "attn_model: CONFIG.heads (%d) must divide CONFIG.d (%d) unless %s is given",
               c.heads, c.d, name{1});
      endif
      c.(name{1}) = c.d / c.heads;
    endif
    positive_int (c.(name{1}), name{1});
  endfor
  if (isempty (c.d_ff))
    c.d_ff = 4 * c.d;
  endif
  if (c.d_ff != 0)
    positive_int (c.d_ff, "d_ff");
  endif
  positive_int (c.max_len, "max_len");
  positive_int (c.encoder_layers, "encoder_layers");
  positive_int (c.decoder_layers, "decoder_layers");
  if (! isnumeric (c.seed) || ! isscalar (c.seed))
    error ("attention:config", "attn_model: CONFIG.seed must be a number");
  endif
  one_of (c.norm, "norm", {"post", "pre", "none"});
  one_of (c.positions, "positions", {"learned", "sinusoidal"});
endfunction

function positive_int (x, name)
  if (! isnumeric (x) || ! isscalar (x) || x < 1 || x != fix (x))
    error ("attention:config", "attn_model: CONFIG.%s must be a positive integer, got %s",
           name, mat2str (x));
  endif
endfunction

function one_of (x, name, choices)
  if (! ischar (x) || ! any (strcmp (x, choices)))
    error ("attention:config", "attn_model: CONFIG.%s must be one of \"%s\"",
           name, strjoin (choices, "\", \""));
  endif
endfunction

function P = position_table (c, d)
  if (strcmp (c.positions, "sinusoidal"))
    P = sinusoid_table (c.max_len, d);
  else
    P = randn (c.max_len, d) / sqrt (d);
  endif
endfunction

function B = new_block (c)
  d = c.d;
  B.W_Q = randn (d, c.heads * c.dk) / sqrt (d);
  B.W_K = randn (d, c.heads * c.dk) / sqrt (d);
  B.W_V = randn (d, c.heads * c.dv) / sqrt (d);
  B.W_O = randn (c.heads * c.dv, d) / sqrt (c.heads * c.dv);
  B.heads = c.heads;
endfunction

function N = new_norm (d)
  N = struct ("gain", ones (1, d), "bias", zeros (1, d));
endfunction

## FFN and LayerNorm parameters of one layer, as the config asks.
function layer = add_sublayers (layer, c, norms)
  if (c.d_ff > 0)
    layer.ffn = struct ("W_1", randn (c.d, c.d_ff) / sqrt (c.d), "b_1", zeros (1, c.d_ff),
                        "W_2", randn (c.d_ff, c.d) / sqrt (c.d_ff), "b_2", zeros (1, c.d));
  else
    norms(strcmp (norms, "norm_ffn")) = [];
  endif
  if (! strcmp (c.norm, "none"))
    for i = 1:numel (norms)
      layer.(norms{i}) = new_norm (c.d);
    endfor
  endif
endfunction

%!shared c
%! c.src_vocab = {"the river bank", "the financial bank"};
%! c.tgt_vocab = {"la rive", "la banque"};
%! c.d = 6;  c.heads = 2;  c.d_ff = 5;  c.encoder_layers = 2;  c.decoder_layers = 3;

%!test
%! m = attn_model (c);
%! assert (size (m.src_embed), [8 6]);
%! assert (size (m.tgt_pos), [64 6]);
%! assert (numel (m.encoder), 2);
%! assert (numel (m.decoder), 3);
%! assert (fieldnames (m.encoder), {"self"; "ffn"; "norm_self"; "norm_ffn"});
%! assert (fieldnames (m.decoder), {"self"; "cross"; "ffn"; "norm_self"; "norm_cross"; "norm_ffn"});
%! assert (size (m.decoder(3).ffn.W_1), [6 5]);
%! assert (m.decoder(2).cross.heads, 2);
%! assert (size (m.W_vocab), [6 7]);
%! assert (isfield (m, "encoder_norm"), false);

%!test
%! ## deterministic from the seed; the caller's random state is kept
%! randn ("state", 7);  before = randn ("state");
%! m1 = attn_model (c);
%! assert (randn ("state"), before);
%! m2 = attn_model (c);
%! assert (m1, m2);
%! assert (! isequal (attn_model (setfield (c, "seed", 1)).src_embed, m1.src_embed));

%!test
%! p = c;
%! p.norm = "pre";  p.d_ff = 0;  p.positions = "sinusoidal";  p.dk = 4;  p.dv = 1;
%! m = attn_model (p);
%! assert (fieldnames (m.encoder), {"self"; "norm_self"});
%! assert (m.encoder_norm.gain, ones (1, 6));
%! assert (size (m.encoder(1).self.W_V), [6 2]);
%! assert (size (m.encoder(1).self.W_O), [2 6]);
%! assert (m.src_pos(1:2, 1:2), [0 1; sin(1) cos(1)], 1e-15);

%!error id=attention:config attn_model (struct ("d", 4))
%!error <unknown CONFIG field "width"> attn_model (setfield (c, "width", 3))
%!error id=attention:heads attn_model (setfield (c, "heads", 4))
%!error id=attention:config attn_model (setfield (c, "norm", "middle"))
%!error id=attention:config attn_model (setfield (c, "d", 0))
%!error id=attention:type attn_model (3)
