## Forward passes of seed 003's other families (attn_family) against a plain
## Octave reference written here from the definitions (blocks by
## tests/reference/attn_ref_block), one sentence at a time, while the package runs
## a padded batch of two.

%!function Y = ref_ln (X, P)
%!  mu = mean (X, 2);
%!  Y = (X - mu) ./ sqrt (mean ((X - mu) .^ 2, 2) + 1e-5) .* P.gain + P.bias;
%!endfunction

## one layer of a stack: attention then FFN, each as a residual sublayer
%!function x = ref_layer (x, p, kind, norm)
%!  subs = {@(z) attn_ref_block (kind, z, z, p.self)};
%!  names = {"norm_self"};
%!  if (isfield (p, "ffn"))
%!    f = p.ffn;
%!    subs{2} = @(z) z + max (z * f.W_1 + f.b_1, 0) * f.W_2 + f.b_2;
%!    names{2} = "norm_ffn";
%!  endif
%!  for s = 1:numel (subs)
%!    switch (norm)
%!      case "none"
%!        x = subs{s} (x);
%!      case "post"
%!        x = ref_ln (subs{s} (x), p.(names{s}));
%!      case "pre"
%!        z = ref_ln (x, p.(names{s}));
%!        x = x + subs{s} (z) - z;
%!    endswitch
%!  endfor
%!endfunction

%!function x = ref_stack (x, P, kind, norm, final)
%!  for l = 1:numel (P)
%!    x = ref_layer (x, P(l), kind, norm);
%!  endfor
%!  if (strcmp (norm, "pre"))
%!    x = ref_ln (x, final);
%!  endif
%!endfunction

%!function ids = word_ids (v, s)
%!  [~, ids] = ismember (strsplit (s, " "), v.words);
%!endfunction

## logits of one example, from the definitions of seed 003
%!function Z = ref_logits (m, src, tgt)
%!  norm = m.config.norm;
%!  fam = m.config.family;
%!  if (! strcmp (fam, "decoder-only"))
%!    s = word_ids (m.src_vocab, src);
%!    if (strncmp (fam, "pooled", 6))
%!      s(end+1) = m.src_vocab.eos;
%!    elseif (strcmp (fam, "encoder-sentence") && strcmp (m.config.readout, "cls"))
%!      s = [find(strcmp (m.src_vocab.words, "<cls>")), s];
%!    endif
%!    E = ref_stack (m.src_embed(s,:) + m.src_pos(1:numel (s),:), m.encoder, "self",
%!                   norm, m.encoder_norm);
%!  endif
%!  switch (fam)
%!    case "encoder-token"
%!      Z = E * m.W_class + m.b_class;
%!      return;
%!    case "encoder-sentence"
%!      if (strcmp (m.config.readout, "cls"))
%!        r = E(1,:);
%!      else
%!        r = mean (E, 1);
%!      endif
%!      if (isfield (m, "W_hidden"))
%!        r = max (r * m.W_hidden + m.b_hidden, 0);
%!      endif
%!      Z = r * m.W_class + m.b_class;
%!      return;
%!    case "decoder-only"
%!      t = [m.tgt_vocab.bos, word_ids(m.tgt_vocab, src), word_ids(m.tgt_vocab, tgt)];
%!    otherwise
%!      t = [m.tgt_vocab.bos, word_ids(m.tgt_vocab, tgt)];
%!      c = mean (E, 1);
%!  endswitch
%!  n = numel (t);
%!  tok = m.tgt_embed(t,:);
%!  switch (fam)
%!    case "decoder-only"
%!      X = tok + m.tgt_pos(1:n,:);
%!    case "pooled-add"
%!      X = tok + c * m.W_u + m.tgt_pos(1:n,:);
%!    case "pooled-concat"
%!      X = [tok, repmat(c, n, 1)] * m.W_F + m.tgt_pos(1:n,:);
%!    case "pooled-prefix"
%!      X = [c * m.W_P; tok] + m.tgt_pos(1:n+1,:);
%!  endswitch
%!  D = ref_stack (X, m.decoder, "masked", norm, m.decoder_norm);
%!  Z = D(end-n+1:end,:) * m.W_vocab + m.b_vocab;
%!endfunction

%!function check (family, varargin)
%!  c = struct ("family", family, "d", 6, "heads", 3, "d_ff", 5, "max_len", 12,
%!              "seed", 7, varargin{:});
%!  src = {"raghav goes to delhi", "meera goes to school in delhi"};
%!  tgt = {"raghav va a delhi", "meera va a l ecole"};
%!  switch (family)
%!    case "encoder-token"
%!      tgt = {"PERSON OTHER OTHER PLACE", "PERSON OTHER OTHER OTHER OTHER PLACE"};
%!      c.classes = {"PERSON", "ORGANIZATION", "PLACE", "OTHER"};
%!    case "encoder-sentence"
%!      tgt = {"TRAVEL", "EDUCATION"};
%!      c.classes = {"EDUCATION", "TRAVEL", "OTHER"};
%!    case "decoder-only"
%!      tgt = {"and stays", "and stays there"};
%!      src = {"raghav goes to delhi", "meera goes to school"};
%!      c.vocab = [src, tgt];
%!  endswitch
%!  if (strncmp (family, "pooled", 6))
%!    c.src_vocab = src;  c.tgt_vocab = tgt;
%!    c.encoder_layers = 2;  c.decoder_layers = 2;
%!  elseif (! isfield (c, "vocab"))
%!    c.vocab = src;  c.layers = 2;
%!  endif
%!  m = attn_family (c);
%!  for f = {"encoder_norm", "decoder_norm"}
%!    if (! isfield (m, f{1}))
%!      m.(f{1}) = [];
%!    endif
%!  endfor
%!  tr = attn_forward (m, attn_batch (m, src, tgt));
%!  for b = 1:2
%!    Z = ref_logits (m, src{b}, tgt{b});
%!    assert (tr.logits(1:rows (Z),:,b), Z, 1e-12);
%!  endfor
%!endfunction

%!test check ("encoder-token", "norm", "post");
%!test check ("encoder-sentence", "readout", "cls", "head", "mlp", "d_hidden", 4, "norm", "pre");
%!test check ("encoder-sentence", "readout", "mean", "norm", "none", "d_ff", 0);
%!test check ("decoder-only", "norm", "pre");
%!test check ("decoder-only", "norm", "post", "positions", "sinusoidal");
%!test check ("pooled-add", "norm", "post");
%!test check ("pooled-concat", "norm", "none");
%!test check ("pooled-prefix", "norm", "pre");

## the pooled vector ignores padding: a sentence alone or padded in a batch
%!test
%! c = struct ("family", "pooled-add", "d", 6, "heads", 2, "src_vocab", "a b c d e",
%!             "tgt_vocab", "x y z");
%! m = attn_family (c);
%! one = attn_forward (m, "a b", "<bos> x");
%! two = attn_forward (m, attn_batch (m, {"a b", "a b c d e"}, {"x", "y z"}));
%! assert (two.c(:,:,1), one.c, 1e-14);
%! assert (two.logits(1:2,:,1), one.logits, 1e-12);

## the token classifier's head options against ref_model_forward (written
## separately): a hidden layer with its activation, its LayerNorm, the
## scores from W_class or tied to src_embed (BERT's masked-LM head, the
## classes being the words); a padded batch of two, one sentence at a time
## in the reference
%!function check_token_head (varargin)
%!  src = {"raghav goes to delhi", "meera goes to school in delhi"};
%!  v = attn_vocab (src);
%!  m = attn_family (struct ("family", "encoder-token", "vocab", {src}, "classes", {v.words},
%!                           "d", 6, "heads", 3, "d_ff", 5, "max_len", 12, "layers", 2,
%!                           "seed", 7, varargin{:}));
%!  ## gains and biases away from 1 and 0, so that a misplaced norm shows
%!  if (isfield (m, "head_norm"))
%!    m.head_norm.gain = linspace (0.5, 1.5, columns (m.head_norm.gain));
%!    if (isfield (m.head_norm, "bias"))
%!      m.head_norm.bias = linspace (-0.3, 0.2, columns (m.head_norm.bias));
%!    endif
%!  endif
%!  m.b_class = linspace (-0.4, 0.4, columns (m.b_class));
%!  tr = attn_forward (m, attn_batch (m, src, src));
%!  for b = 1:2
%!    ids = attn_encode (m.src_vocab, src{b});
%!    r = ref_model_forward (m, ids);
%!    assert (size (r.logits), [numel(ids), numel(v.words)]);
%!    assert (tr.logits(1:numel (ids),:,b), r.logits, 1e-12);
%!    assert (tr.probs(1:numel (ids),:,b), r.probs, 1e-12);
%!  endfor
%!  if (isfield (m, "head_norm"))              # the trace shows the head's rows
%!    assert (tr.head_norm.out(1:numel (ids),:,2), r.head_rows, 1e-12);
%!  endif
%!endfunction

%!test check_token_head ("norm", "post");
%!test check_token_head ("norm", "pre", "d_hidden", 4, "head_activation", "tanh");
%!test check_token_head ("norm", "post", "d_hidden", 8, "head_norm", true, "activation", "gelu",
%!                      "head_activation", "gelu", "norm_eps", 1e-12, "embed_norm", true);
%!test check_token_head ("norm", "post", "tie_embeddings", true);
%!test
%! ## BERT's masked-LM shape: hidden layer of width d, GELU, LayerNorm, tied
%! check_token_head ("norm", "post", "d_hidden", 6, "head_norm", true, "activation", "gelu",
%!                   "head_activation", "gelu", "norm_eps", 1e-12, "embed_norm", true,
%!                   "attn_bias", true, "tie_embeddings", true);
%!test check_token_head ("norm", "pre", "d_hidden", 6, "head_norm", true, "norm_kind", "rmsnorm",
%!                      "tie_embeddings", true);
