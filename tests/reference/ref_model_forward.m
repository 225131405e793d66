## -*- texinfo -*-
## @deftypefn  {} {@var{r} =} ref_model_forward (@var{m}, @var{src}, @var{tgt})
## @deftypefnx {} {@var{r} =} ref_model_forward (@var{m}, @var{src})
## The encoder-decoder model's forward pass in plain Octave (reference), or
## the token classifier's (the encoder-token family: no @var{tgt}).
##
## One sentence pair, no batch and no padding: @var{src} and @var{tgt} are
## id vectors (the source with its @code{<eos>}, the decoder input with its
## @code{<bos>}).  Written row by row and head by head from the formulas,
## separately from the package's layer functions and the MEX kernels:
##
## @example
## @group
## attention(Xq, Xkv) = Xq + concat_j(softmax(Q_j K_j'/sqrt(dk)) V_j) W_O
## LN(x) = (x - mean(x)) ./ sqrt(var(x, 1) + eps) .* gain + bias, or with
##   norm_kind "rmsnorm" x ./ sqrt(mean(x.^2) + eps) .* gain; eps norm_eps
## FFN(x) = x + act(x W_1 + b_1) W_2 + b_2, act the config's activation:
##   relu max(z, 0);  gelu z (1 + erf(z/sqrt(2)))/2;
##   gelu_tanh z (1 + tanh(sqrt(2/pi) (z + 0.044715 z^3)))/2;  silu z/(1 + e^-z);
##   gated (W_3): act(x W_1 + b_1) .* (x W_3 + b_3); biases only where present
## post-norm: x = LN(x + delta(x));  pre-norm: x = x + delta(LN(x));
## a final LN after each stack when final_norm; token rows scaled by
## sqrt(d) with embed_scale, the embedded rows normalised with embed_norm;
## logits Y*W_vocab + b_vocab, or Y*tgt_embed' + b_vocab with tie_embeddings;
## a token classifier's: H = act(X*W_hidden + b_hidden) (head_activation,
##   also tanh), then LN(H) with head_norm, then H*W_class + b_class, or
##   H*src_embed' + b_class with tie_embeddings (the masked-LM head);
## attention with the biases, key/value heads (kv_heads) and rotary
## positions (rope_base) its blocks hold
## @end group
## @end example
##
## @var{r}: @code{source_rows}, @code{encoded}, @code{target_rows},
## @code{decoder_out}, @code{logits}, @code{probs} (a token classifier:
## @code{source_rows}, @code{encoded}, @code{head_rows}, @code{logits},
## @code{probs}).
## @seealso{attn_ref_block}
## @end deftypefn

function r = ref_model_forward (m, src, tgt = [])
  c = m.config;
  norm = @(x, P) layernorm (x, P, c);
  place = c.norm;
  ms = numel (src);
  s = 1;
  if (c.embed_scale)
    s = sqrt (c.d);
  endif
  X = s * m.src_embed(src,:) + positions (m, "src_pos", ms);
  if (c.embed_norm)
    X = norm (X, m.src_embed_norm);
  endif
  r.source_rows = X;
  for l = 1:numel (m.encoder)
    p = m.encoder(l);
    X = residual (X, place, norm, p, "norm_self", @(z) attention (z, z, p.self, false));
    if (isfield (p, "ffn"))
      X = residual (X, place, norm, p, "norm_ffn", @(z) ffn (z, p.ffn, m.config.activation));
    endif
  endfor
  if (c.final_norm)
    X = norm (X, m.encoder_norm);
  endif
  r.encoded = X;
  if (! isfield (m, "decoder"))                 # a token classifier: every row scored
    H = X;
    if (isfield (m, "W_hidden"))
      H = act (H * m.W_hidden + m.b_hidden, c.head_activation);
    endif
    if (isfield (m, "head_norm"))
      H = norm (H, m.head_norm);
    endif
    r.head_rows = H;
    if (c.tie_embeddings)
      r.logits = H * m.src_embed' + m.b_class;
    else
      r.logits = H * m.W_class + m.b_class;
    endif
    r.probs = row_softmax (r.logits);
    return;
  endif
  n = numel (tgt);
  Y = s * m.tgt_embed(tgt,:) + positions (m, "tgt_pos", n);
  if (c.embed_norm)
    Y = norm (Y, m.tgt_embed_norm);
  endif
  r.target_rows = Y;
  for l = 1:numel (m.decoder)
    p = m.decoder(l);
    Y = residual (Y, place, norm, p, "norm_self", @(z) attention (z, z, p.self, true));
    Y = residual (Y, place, norm, p, "norm_cross", @(z) attention (z, X, p.cross, false));
    if (isfield (p, "ffn"))
      Y = residual (Y, place, norm, p, "norm_ffn", @(z) ffn (z, p.ffn, m.config.activation));
    endif
  endfor
  if (c.final_norm)
    Y = norm (Y, m.decoder_norm);
  endif
  r.decoder_out = Y;
  if (c.tie_embeddings)
    r.logits = Y * m.tgt_embed';
  else
    r.logits = Y * m.W_vocab;
  endif
  if (c.head_bias)
    r.logits += m.b_vocab;
  endif
  r.probs = row_softmax (r.logits);
endfunction

function P = row_softmax (Z)
  P = zeros (size (Z));
  for i = 1:rows (Z)
    e = exp (Z(i,:) - max (Z(i,:)));
    P(i,:) = e / sum (e);
  endfor
endfunction

## the first n rows of a position table, 0 when the model has none (rotary)
function P = positions (m, name, n)
  P = 0;
  if (isfield (m, name))
    P = m.(name)(1:n,:);
  endif
endfunction

## x + delta with the model's norm placement; delta_of (z) is the
## sublayer's update of its input z.
function y = residual (x, place, norm, p, name, delta_of)
  switch (place)
    case "none"
      y = x + delta_of (x);
    case "post"
      y = norm (x + delta_of (x), p.(name));
    case "pre"
      y = x + delta_of (norm (x, p.(name)));
  endswitch
endfunction

## The update message*W_O of one attention block, head by head, row by row.
function delta = attention (Xq, Xkv, B, causal)
  h = B.heads;
  hk = h;                                      # key/value heads (grouped query)
  if (isfield (B, "kv_heads"))
    hk = B.kv_heads;
  endif
  dk = columns (B.W_Q) / h;
  dv = columns (B.W_V) / hk;
  bias = @(name, cols) 0;
  if (isfield (B, "b_Q"))
    bias = @(name, cols) B.(name)(cols);
  endif
  message = zeros (rows (Xq), h * dv);
  for j = 1:h
    g = floor ((j-1) / (h / hk));              # the key/value head it reads
    cq = (j-1)*dk + (1:dk);
    ck = g*dk + (1:dk);
    cv = g*dv + (1:dv);
    Q = Xq * B.W_Q(:,cq) + bias ("b_Q", cq);
    K = Xkv * B.W_K(:,ck) + bias ("b_K", ck);
    V = Xkv * B.W_V(:,cv) + bias ("b_V", cv);
    if (isfield (B, "rope_base"))              # turn row p by p*base^(-2i/dk)
      Q = turn (Q, B.rope_base);
      K = turn (K, B.rope_base);
    endif
    cv = (j-1)*dv + (1:dv);
    for i = 1:rows (Xq)
      keys = 1:rows (Xkv);
      if (causal)
        keys = 1:i;
      endif
      s = Q(i,:) * K(keys,:)' / sqrt (dk);
      w = exp (s - max (s));
      w /= sum (w);
      message(i,cv) = w * V(keys,:);
    endfor
  endfor
  delta = message * B.W_O + bias ("b_O", 1:columns (B.W_O));
endfunction

## rotary positions of one head's rows (row p at position p-1): entries i
## and i + dk/2 turn together
function Y = turn (X, base)
  half = columns (X) / 2;
  Y = X;
  for p = 1:rows (X)
    for i = 1:half
      a = (p-1) * base ^ (-2*(i-1) / columns (X));
      Y(p,[i, i+half]) = [X(p,i)*cos(a) - X(p,i+half)*sin(a), X(p,i+half)*cos(a) + X(p,i)*sin(a)];
    endfor
  endfor
endfunction

function delta = ffn (X, P, name)
  z = X * P.W_1;
  if (isfield (P, "b_1"))
    z += P.b_1;
  endif
  h = act (z, name);
  if (isfield (P, "W_3"))                       # gated: times a second projection
    up = X * P.W_3;
    if (isfield (P, "b_3"))
      up += P.b_3;
    endif
    h = h .* up;
  endif
  delta = h * P.W_2;
  if (isfield (P, "b_2"))
    delta += P.b_2;
  endif
endfunction

function h = act (z, name)
  switch (name)
    case "relu"
      h = max (z, 0);
    case "gelu"
      h = z .* (1 + erf (z / sqrt (2))) / 2;
    case "gelu_tanh"
      h = z .* (1 + tanh (sqrt (2 / pi) * (z + 0.044715 * z .^ 3))) / 2;
    case "silu"
      h = z ./ (1 + exp (-z));
    case "tanh"
      h = tanh (z);
  endswitch
endfunction

function y = layernorm (x, P, c)
  y = zeros (size (x));
  for i = 1:rows (x)
    if (strcmp (c.norm_kind, "rmsnorm"))
      y(i,:) = x(i,:) / sqrt (mean (x(i,:) .^ 2) + c.norm_eps) .* P.gain;
    else
      mu = mean (x(i,:));
      y(i,:) = (x(i,:) - mu) / sqrt (mean ((x(i,:) - mu) .^ 2) + c.norm_eps) .* P.gain + P.bias;
    endif
  endfor
endfunction

%!test
%! ## seed 004's hand-built model after "<bos> le": the weights
%! ## softmax([0 1 2 0]) land on the meanings le, noir, chat, <eos> of
%! ## "the black cat <eos>", and the head reads them times 5
%! m = attn_toy ("blackcat");
%! r = ref_model_forward (m, attn_encode (m.src_vocab, "the black cat <eos>"),
%!                        attn_encode (m.tgt_vocab, "<bos> le"));
%! w = exp ([0 1 2 0]) / sum (exp ([0 1 2 0]));
%! logits = [-5, 5 * [w(1), w(3), w(2), 0, 0, w(4)]];     # <bos> le chat noir chien blanc <eos>
%! assert (r.logits(2,:), logits, 1e-14);
%! assert (r.probs(2,:), exp (logits) / sum (exp (logits)), 1e-14);
