## Gradients of seed 003's other families (attn_family) through attn_loss,
## against central finite differences of the loss, for every learned array
## (its 3 largest entries and 3 random others).  Tiny models, two sentences
## of different lengths (so padding is exercised).

%!function m = tiny (family, varargin)
%!  src = {"raghav goes to delhi", "meera goes to school in delhi"};
%!  c = struct ("family", family, "d", 4, "heads", 2, "d_ff", 3, "max_len", 8,
%!              "seed", 3, varargin{:});
%!  if (strncmp (family, "pooled-", 7))
%!    c.src_vocab = src;
%!    c.tgt_vocab = {"raghav va a delhi", "meera va a l ecole"};
%!    c.encoder_layers = 1;
%!    c.decoder_layers = 2;
%!  else
%!    c.vocab = src;
%!    c.layers = 2;
%!  endif
%!  if (strncmp (family, "encoder-", 8))
%!    c.classes = {"PERSON", "ORGANIZATION", "PLACE", "OTHER"};
%!  endif
%!  m = attn_family (c);
%!endfunction

%!function [src, tgt] = data (family)
%!  src = {"raghav goes to delhi", "meera goes to school in delhi"};
%!  switch (family)
%!    case "encoder-token"
%!      tgt = {"PERSON OTHER OTHER PLACE", "PERSON OTHER OTHER OTHER OTHER PLACE"};
%!    case "encoder-sentence"
%!      tgt = {"PLACE", "OTHER"};
%!    case "decoder-only"
%!      src = {"raghav goes", "meera goes to"};
%!      tgt = {"to delhi", "school in delhi"};
%!    otherwise
%!      tgt = {"raghav va a delhi", "meera va a l ecole"};
%!  endswitch
%!endfunction

## every numeric leaf of a (possibly nested, struct-array) struct, as
## subsref index lists
%!function P = leaves (s, prefix)
%!  P = {};
%!  for k = 1:numel (s)
%!    for f = fieldnames (s)'
%!      sub = [prefix, substruct("()", {k}, ".", f{1})];
%!      v = s(k).(f{1});
%!      if (isstruct (v))
%!        P = [P, leaves(v, sub)];
%!      elseif (isnumeric (v))
%!        P{end+1} = sub;
%!      endif
%!    endfor
%!  endfor
%!endfunction

%!function check_grad (m, batch)
%!  rand ("state", 1);
%!  [~, G] = attn_loss (m, batch);
%!  h = 1e-5;
%!  P = leaves (G, struct ("type", {}, "subs", {}));
%!  assert (numel (P) > 5);
%!  for i = 1:numel (P)
%!    g = subsref (G, P{i});
%!    W = subsref (m, P{i});
%!    assert (size (g), size (W));
%!    ## the 3 largest analytic entries and 3 others at random (all if fewer)
%!    [~, order] = sort (abs (g(:)), "descend");
%!    rest = order(4:end);
%!    pick = [order(1:min (3, end)); rest(randperm (numel (rest), min (3, numel (rest))))];
%!    fd = g;
%!    for j = pick'
%!      Wp = W;  Wp(j) += h;
%!      Wm = W;  Wm(j) -= h;
%!      fd(j) = (attn_loss (subsasgn (m, P{i}, Wp), batch)
%!               - attn_loss (subsasgn (m, P{i}, Wm), batch)) / (2 * h);
%!    endfor
%!    err = max (abs (g(:) - fd(:)));
%!    if (err > 1e-7 * max (1, max (abs (fd(:)))))
%!      error ("gradient of %s: max error %g (max |fd| %g)",
%!             strjoin (cellfun (@num2str, {P{i}.subs}, "UniformOutput", false), ""),
%!             err, max (abs (fd(:))));
%!    endif
%!  endfor
%!endfunction

%!function check_family (family, varargin)
%!  m = tiny (family, varargin{:});
%!  [src, tgt] = data (family);
%!  check_grad (m, attn_batch (m, src, tgt));
%!endfunction

## a token classifier tied to src_embed: the classes are the words, each
## word of a sentence its own label
%!function check_mlm (varargin)
%!  src = {"raghav goes to delhi", "meera goes to school in delhi"};
%!  v = attn_vocab (src);
%!  m = attn_family (struct ("family", "encoder-token", "vocab", {src}, "classes", {v.words},
%!                           "tie_embeddings", true, "d", 4, "heads", 2, "d_ff", 3,
%!                           "max_len", 8, "layers", 2, "seed", 3, varargin{:}));
%!  assert (! isfield (m, "W_class"));
%!  check_grad (m, attn_batch (m, {"raghav <unk> to delhi", src{2}}, src));
%!endfunction

%!test check_family ("encoder-token", "norm", "post");
%!test check_family ("encoder-sentence", "readout", "cls", "head", "mlp", "d_hidden", 5, "norm", "pre");
%!test check_family ("encoder-sentence", "readout", "mean", "head", "linear", "norm", "none");
%!test check_family ("encoder-sentence", "readout", "first", "head", "mlp", "d_hidden", 4,
%!                   "head_activation", "tanh", "norm", "post", "embed_norm", true, "attn_bias", true);
%!test check_family ("decoder-only", "norm", "pre");
%!test check_family ("decoder-only", "norm", "post");
%!test check_family ("pooled-add", "norm", "post");
%!test check_family ("pooled-concat", "norm", "pre");
%!test check_family ("pooled-prefix", "norm", "none");
%!test check_family ("pooled-prefix", "norm", "post");
## the architecture options real checkpoints use, on the families they
## come with: a BERT-shaped token classifier, a GPT-2-shaped and a
## Llama-shaped decoder
%!test check_family ("encoder-token", "norm", "post", "attn_bias", true, "embed_norm", true,
%!                   "activation", "gelu", "norm_eps", 1e-12);
## the token classifier's head options: a hidden layer, its LayerNorm, the
## scores read from src_embed (tied: a masked language model, BERT's
## BertForMaskedLM head, whose classes are the vocabulary's words)
%!test check_family ("encoder-token", "norm", "pre", "d_hidden", 5, "head_activation", "tanh");
%!test check_family ("encoder-token", "norm", "post", "d_hidden", 3, "head_norm", true);
%!test check_mlm ("norm", "post", "attn_bias", true, "embed_norm", true, "activation", "gelu",
%!                "d_hidden", 4, "head_norm", true, "head_activation", "gelu", "norm_eps", 1e-12);
%!test check_mlm ("norm", "pre");
%!test check_mlm ("norm", "post", "d_hidden", 4, "head_norm", true, "norm_kind", "rmsnorm");
%!test check_family ("decoder-only", "norm", "pre", "attn_bias", true, "activation", "gelu_tanh",
%!                   "tie_embeddings", true, "head_bias", false);
%!test check_family ("decoder-only", "norm", "pre", "norm_kind", "rmsnorm", "positions", "rope",
%!                   "heads", 2, "kv_heads", 1, "activation", "silu", "ffn_gated", true,
%!                   "ffn_bias", false, "head_bias", false);

## The lean training pass (attn_loss without info: the kernels' lean
## traces, no probs, no inspection fields) against the full one (with
## info): the same loss and the same gradients, bit for bit, on all seven
## families, every norm placement, with and without label smoothing; and
## the loss alone (the kernels' step traces) the same too.
%!test
%! cases = {{"encoder-token", "norm", "pre"}, ...
%!          {"encoder-token", "norm", "post", "d_hidden", 5, "head_norm", true}, ...
%!          {"encoder-sentence", "readout", "cls", "head", "mlp", "d_hidden", 5, "norm", "post"}, ...
%!          {"encoder-sentence", "readout", "mean", "head", "linear", "norm", "pre"}, ...
%!          {"decoder-only", "norm", "pre"}, {"pooled-add", "norm", "pre"}, ...
%!          {"pooled-concat", "norm", "post"}, {"pooled-prefix", "norm", "pre"}};
%! for k = 1:numel (cases)
%!   m = tiny (cases{k}{:});
%!   [src, tgt] = data (cases{k}{1});
%!   for b = {attn_batch(m, src, tgt), attn_batch(m, src(1), tgt(1))}
%!     for eps = [0 0.1]
%!       [loss, G] = attn_loss (m, b{1}, "label_smoothing", eps);
%!       [loss_full, G_full, info] = attn_loss (m, b{1}, "label_smoothing", eps);
%!       assert (isequal (loss, loss_full) && isequal (G, G_full), cases{k}{1});
%!       assert (isequal (attn_loss (m, b{1}, "label_smoothing", eps), loss));
%!       assert (isfield (info.trace, "probs"));
%!     endfor
%!   endfor
%! endfor
%!test
%! ## the encoder-decoder, every norm placement (pre-norm adds the block's
%! ## delta, which the lean trace does not hold)
%! for norm = {"none", "post", "pre"}
%!   m = attn_model (struct ("src_vocab", "raghav goes to delhi", "tgt_vocab", "raghav va a delhi",
%!                           "d", 4, "heads", 2, "d_ff", 3, "norm", norm{1}, "encoder_layers", 2,
%!                           "decoder_layers", 2, "seed", 5));
%!   b = attn_batch (m, {"raghav goes to delhi", "delhi"}, {"raghav va a delhi", "a"});
%!   [loss, G] = attn_loss (m, b);
%!   [loss_full, G_full, ~] = attn_loss (m, b);
%!   assert (isequal (loss, loss_full) && isequal (G, G_full), norm{1});
%!   assert (isequal (attn_loss (m, b), loss), norm{1});
%! endfor
