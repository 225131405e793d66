## -*- texinfo -*-
## @deftypefn  {} {@var{m} =} attn_model (@var{config})
## A new encoder-decoder attention model (Transformer).  Its arrays are
## initialised from a seed.
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
## @item kv_heads
## key/value heads, dividing heads (heads): fewer than heads for grouped-query
## attention, query head j reading key/value head
## @code{floor ((j-1) / (heads/kv_heads)) + 1}
## @item dk, dv
## per-head query/key and value widths (d/heads)
## @item attn_bias
## true for projection biases @code{b_Q}, @code{b_K}, @code{b_V},
## @code{b_O} in every attention block (false)
## @item d_ff
## hidden width of the feed-forward sublayers; 0 = no FFN (4·d)
## @item activation
## the feed-forward sublayers' activation: @qcode{"relu"} (default),
## @qcode{"gelu"} (exact, through the normal distribution function),
## @qcode{"gelu_tanh"} (its tanh approximation) or @qcode{"silu"}
## (@code{x .* sigmoid (x)})
## @item ffn_gated
## true for a gated FFN: @code{act (x*W_1 + b_1) .* (x*W_3 + b_3)} then
## @code{W_2} (SwiGLU with @qcode{"silu"}); false (default) for
## @code{act (x*W_1 + b_1)}
## @item ffn_bias
## false for FFNs without the biases @code{b_1}, @code{b_2}, @code{b_3}
## (true)
## @item norm
## LayerNorm placement: @qcode{"post"} (default), @qcode{"pre"} or
## @qcode{"none"}; LayerNorm is @code{(x - mu) ./ sqrt (var + epsilon)}
## over each row (population variance, epsilon inside the square root),
## then gain and bias
## @item norm_kind
## @qcode{"layernorm"} (default) or @qcode{"rmsnorm"}:
## @code{x ./ sqrt (mean (x.^2) + epsilon) .* gain}, no mean taken out and
## no bias
## @item norm_eps
## the epsilon (1e-5)
## @item final_norm
## true for a norm after the last layer of each stack (default: true for
## pre-norm, false otherwise)
## @item positions
## @qcode{"learned"} (default) or @qcode{"sinusoidal"} (fixed) tables; row
## i is position i-1, so a sinusoidal row 1 is sin 0 = 0 and cos 0 = 1
## (column 2k-1: @code{sin (p / 10000^((2k-2)/d))}, column 2k its cosine);
## @qcode{"sinusoidal_concat"}: the same angles, the sines in the first
## half of the columns and the cosines in the second; @qcode{"rope"}: no
## tables, the self-attention blocks turn Q and K by their positions
## (rotary positions, see @code{attn_self})
## @item rope_base
## the base of the rotary angles (10000)
## @item embed_scale
## true to multiply the token embeddings by @code{sqrt (d)} before the
## positions are added (false)
## @item embed_norm
## true for a norm (of @code{norm_kind}) of the embedded rows,
## @code{src_embed_norm} and @code{tgt_embed_norm} (false)
## @item tie_embeddings
## true for a vocabulary head that is @code{tgt_embed'} (no
## @code{W_vocab}; training keeps the two one array) (false); in
## @code{attn_family}'s encoder-token model, scores from
## @code{src_embed'} (a masked language model)
## @item head_bias
## false for a vocabulary head without the bias @code{b_vocab} (true)
## @item max_len
## rows of the position tables, the longest sequence (64)
## @item encoder_layers, decoder_layers
## stack depths (2 and 2)
## @item seed
## seed of the initialisation (0), an integer in [0, 2^32); the caller's
## random state is kept
## @end table
##
## Widths, depths and the seed must be real integers in range (d, dk, dv
## up to 65536, heads up to 4096, max_len up to 2^20, layers up to 1024);
## anything else is an @code{attention:config} error naming the field.
## Before any array is made, the model's count of numbers is compared with
## the memory the machine has (MemAvailable of @file{/proc/meminfo}, and
## what @code{ulimit -v} leaves): a model that would not fit is an
## @code{attention:toolarge} error, at once.  Vocabulary text must be UTF-8
## (@code{attention:encoding}).
##
## The fields of @var{m} (embedding and position tables, @code{encoder} and
## @code{decoder} struct arrays of block, FFN and LayerNorm structs, the
## vocabulary head @code{W_vocab}, @code{b_vocab}) are those of the
## package's one model schema, listed in doc/ARCHITECTURE.md, "The model
## struct".  Weights are normal with
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
  c = check_config (config, "attn_model");
  if (! strcmp (model_family (c.family).builder, "attn_model"))
    error ("attention:config",
           "attn_model: CONFIG.family must be one of %s (attn_family builds the others), got \"%s\"",
           family_names ("attn_model"), c.family);
  endif
  m = model_new (c, "attn_model");
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
%!error <CONFIG.d must be an integer> attn_model (setfield (c, "d", "8"))
%!error <CONFIG.d must be an integer> attn_model (setfield (c, "d", 8+1i))
%!error <CONFIG.d must be an integer> attn_model (setfield (c, "d", 1e10))
%!error <CONFIG.encoder_layers must be an integer> attn_model (setfield (c, "encoder_layers", 1e6))
%!error <CONFIG.seed must be an integer> attn_model (setfield (c, "seed", NaN))
%!error <CONFIG.seed must be an integer> attn_model (setfield (c, "seed", Inf))
%!error <CONFIG.seed must be an integer> attn_model (setfield (c, "seed", -1))
%!error <CONFIG.family must be one of "encoder-decoder" \(attn_family builds the others\), got "pooled-add"> attn_model (setfield (c, "family", "pooled-add"))
%!error id=attention:type attn_model (3)
