## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## python/attention_bridge.py against the package: small models of each
## architecture option saved with attn_save, read by the Python module into
## PyTorch, their logits on a padded batch compared with attn_forward's
## (1e-12); the file the module writes back loads as the same model, and
## one changed weight loads changed.  Runs where a Python with torch and
## numpy is found (ATTN_PYTHON, python3, /usr/bin/python3); skipped
## otherwise.

## the first Python that imports torch and numpy ("" for none)
%!function py = python ()
%!  persistent found
%!  if (isempty (found))
%!    found = {""};
%!    for p = {getenv("ATTN_PYTHON"), "python3", "/usr/bin/python3"}
%!      if (! isempty (p{1}))
%!        [status, ~] = system ([p{1} " -c \"import torch, numpy\" 2>/dev/null"]);
%!        if (status == 0)
%!          found = p;
%!          break;
%!        endif
%!      endif
%!    endfor
%!  endif
%!  py = found{1};
%!endfunction

## the module in the source tree (absent from an installed package)
%!function f = script ()
%!  f = fullfile (fileparts (package_dir ()), "python", "attention_bridge.py");
%!endfunction

%!function tf = have_torch ()
%!  tf = ! isempty (python ()) && exist (script (), "file");
%!endfunction

## runs the bridge with the arguments; its output, and failing unless asked
%!function [out, status] = bridge (args, may_fail = false)
%!  [status, out] = system (sprintf ("%s %s %s 2>&1", python (), script (), args));
%!  if (! may_fail && status != 0)
%!    error ("attention_bridge failed (%d): %s", status, out);
%!  endif
%!endfunction

## the column of ids b of the batch part (ids, mask) as "i,j,k"
%!function s = ids_text (ids, allow, b)
%!  s = strjoin (arrayfun (@num2str, ids(allow(:,b),b)', "UniformOutput", false), ",");
%!endfunction

## m's array at a dotted path ("decoder.1.self.W_Q"); with x, set to x
%!function m = at_path (m, path, x)
%!  f = strsplit (path, ".");
%!  S = struct ("type", {}, "subs", {});
%!  for k = 1:numel (f)
%!    if (isstrprop (f{k}(1), "digit"))
%!      S(end+1) = struct ("type", "()", "subs", {{str2double(f{k})}});
%!    else
%!      S(end+1) = struct ("type", ".", "subs", f{k});
%!    endif
%!  endfor
%!  if (nargin < 3)
%!    m = subsref (m, S);
%!  else
%!    m = subsasgn (m, S, x);
%!  endif
%!endfunction

## the whole check of model m on batch b; changes element (2,1) of the
## array at path `change`
%!function check_bridge (m, b, change)
%!  file = [tempname() ".safetensors"];
%!  back = [tempname() ".safetensors"];
%!  edited = [tempname() ".safetensors"];
%!  cleanup = onCleanup (@() remove_files ({file, back, edited}));
%!  attn_save (m, file);
%!  tr = attn_forward (m, b);
%!  ## the sequences as the bridge takes them (1-based ids)
%!  family = m.config.family;
%!  N = columns (b.src);
%!  args = cell (1, N);
%!  real = b.tgt_allow;
%!  for k = 1:N
%!    switch (family)
%!      case {"encoder-decoder", "pooled-add", "pooled-concat", "pooled-prefix"}
%!        args{k} = [ids_text(b.src, b.src_allow, k) "/" ids_text(b.tgt_in, b.tgt_allow, k)];
%!      case "decoder-only"
%!        args{k} = ids_text (b.tgt_in, b.tgt_allow, k);
%!      otherwise
%!        args{k} = ids_text (b.src, b.src_allow, k);
%!        real = b.src_allow;
%!    endswitch
%!  endfor
%!  if (strcmp (family, "encoder-sentence"))
%!    real = true (1, N);
%!  endif
%!  out = bridge (sprintf ("logits %s %s", file, strjoin (args, " ")));
%!  V = columns (tr.logits);
%!  got = reshape (sscanf (out, "%f"), V + 2, [])';
%!  [i, k] = find (real);
%!  [i, k] = deal (i(:), k(:));
%!  assert (got(:,1:2), [k i]);               # one line a real row, in order
%!  want = zeros (numel (i), V);
%!  for r = 1:numel (i)
%!    want(r,:) = tr.logits(i(r),:,k(r));
%!  endfor
%!  assert (rows (got), nnz (real));
%!  assert (got(:,3:end), want, 1e-12);
%!  assert (any (abs (want(:)) > 0.1));      # the logits are not all trivial
%!  ## written back unchanged: the same model
%!  bridge (sprintf ("copy %s %s", file, back));
%!  assert (isequal (attn_load (back), m));
%!  ## written back with one weight changed: that change, nothing else
%!  x = at_path (m, change);
%!  bridge (sprintf ("copy %s %s %s 2 1 0.3125", file, edited, change));
%!  x(2,1) = 0.3125;
%!  m2 = attn_load (edited);
%!  assert (! isequal (m2, m));
%!  assert (isequal (m2, at_path (m, change, x)));
%!endfunction

%!function remove_files (files)
%!  for f = files
%!    if (exist (f{1}, "file"))
%!      unlink (f{1});
%!    endif
%!  endfor
%!endfunction

## a padded batch: sources (ids, lengths), targets
%!function b = batch_of (src, src_len, tgt, tgt_len)
%!  b.src = src;
%!  b.src_allow = (1:rows (src))' <= src_len;
%!  b.tgt_in = tgt;
%!  b.tgt_allow = (1:rows (tgt))' <= tgt_len;
%!endfunction

%!shared vs, vt, text
%! vs = attn_vocab ("the black cat sat on a mat");
%! vt = attn_vocab ("le chat noir est assis sur un tapis");
%! text = attn_vocab ("the river bank is steep and the money bank is closed");

%!testif ; have_torch ()
%! ## encoder-decoder, post-norm, learned positions, ReLU (the defaults)
%! m = attn_model (struct ("src_vocab", vs, "tgt_vocab", vt, "d", 8, "heads", 2,
%!                         "encoder_layers", 2, "decoder_layers", 2, "max_len", 9, "seed", 5));
%! b = batch_of ([5 6 7 4; 8 9 4 1; 10 4 1 1]', [4 3 2], [3 5 6; 3 7 1; 3 1 1]', [3 2 1]);
%! check_bridge (m, b, "decoder.1.cross.W_V");

%!testif ; have_torch ()
%! ## decoder-only, GPT-2-like: pre-norm with a final norm, attention and FFN
%! ## biases, GELU (tanh), tied head without a bias
%! m = attn_family (struct ("family", "decoder-only", "vocab", text, "d", 8, "heads", 2,
%!                          "layers", 2, "max_len", 8, "seed", 2, "norm", "pre",
%!                          "attn_bias", true, "activation", "gelu_tanh",
%!                          "tie_embeddings", true, "head_bias", false));
%! ## the biases made non-zero, so that a misplaced one shows
%! m.decoder(1).self.b_Q = linspace (-0.5, 0.5, 8);
%! m.decoder(2).self.b_O = linspace (0.3, -0.2, 8);
%! m.decoder(1).ffn.b_1 = linspace (-1, 1, 32);
%! m.decoder_norm.bias = linspace (0.1, 0.2, 8);
%! ids = [3 5 6 7 8; 3 9 10 1 1; 3 11 1 1 1]';
%! b = batch_of (ids, [5 3 2], ids, [5 3 2]);
%! check_bridge (m, b, "tgt_embed");

%!testif ; have_torch ()
%! ## decoder-only, Llama-like: rotary positions (base 500), RMSNorm,
%! ## grouped-query attention (4 query heads, 2 key/value heads), SwiGLU
%! ## without biases, no head bias
%! m = attn_family (struct ("family", "decoder-only", "vocab", text, "d", 8, "heads", 4,
%!                          "kv_heads", 2, "dk", 4, "dv", 3, "layers", 2, "max_len", 8,
%!                          "seed", 7, "norm", "pre", "norm_kind", "rmsnorm", "norm_eps", 1e-6,
%!                          "positions", "rope", "rope_base", 500, "activation", "silu",
%!                          "ffn_gated", true, "ffn_bias", false, "d_ff", 12,
%!                          "head_bias", false));
%! m.decoder(2).norm_ffn.gain = linspace (0.5, 1.5, 8);
%! ids = [3 5 6 7 8 9; 3 10 11 12 1 1]';
%! b = batch_of (ids, [6 4], ids, [6 4]);
%! check_bridge (m, b, "decoder.2.self.W_K");

%!testif ; have_torch ()
%! ## encoder-decoder, Marian-like: sinusoidal positions, embeddings times
%! ## sqrt(d), attention biases, SiLU, tied head with a bias, post-norm
%! m = attn_model (struct ("src_vocab", vs, "tgt_vocab", vt, "d", 8, "heads", 2,
%!                         "encoder_layers", 1, "decoder_layers", 2, "max_len", 9, "seed", 9,
%!                         "positions", "sinusoidal", "embed_scale", true, "attn_bias", true,
%!                         "activation", "silu", "tie_embeddings", true));
%! m.encoder(1).self.b_K = linspace (-1, 1, 8);
%! m.decoder(2).cross.b_V = linspace (1, -1, 8);
%! m.b_vocab = linspace (-0.5, 0.5, columns (m.b_vocab));
%! b = batch_of ([5 6 7 4; 8 4 1 1]', [4 2], [3 5 6 7; 3 1 1 1]', [4 1]);
%! check_bridge (m, b, "encoder.1.ffn.W_2");

%!testif ; have_torch ()
%! ## encoder-decoder without norms, rotary positions, grouped-query
%! ## attention, exact GELU, gated FFN with biases
%! m = attn_model (struct ("src_vocab", vs, "tgt_vocab", vt, "d", 8, "heads", 4,
%!                         "kv_heads", 1, "dk", 2, "dv", 2, "encoder_layers", 1,
%!                         "decoder_layers", 1, "max_len", 9, "seed", 11, "norm", "none",
%!                         "positions", "rope", "activation", "gelu", "ffn_gated", true));
%! m.decoder(1).ffn.b_3 = linspace (-1, 1, 32);
%! b = batch_of ([5 6 7 4; 8 4 1 1]', [4 2], [3 5 6; 3 7 1]', [3 2]);
%! check_bridge (m, b, "decoder.1.ffn.W_3");

%!testif ; have_torch ()
%! ## encoder-decoder, pre-norm LayerNorm with a final norm, the concatenated
%! ## sinusoidal layout, a norm of the embedded rows
%! m = attn_model (struct ("src_vocab", vs, "tgt_vocab", vt, "d", 6, "heads", 2,
%!                         "encoder_layers", 2, "decoder_layers", 1, "max_len", 9, "seed", 13,
%!                         "norm", "pre", "positions", "sinusoidal_concat", "embed_norm", true,
%!                         "norm_eps", 1e-3));
%! m.src_embed_norm.bias = linspace (-0.3, 0.3, 6);
%! m.encoder_norm.gain = linspace (0.7, 1.3, 6);
%! b = batch_of ([5 6 7 4; 8 4 1 1]', [4 2], [3 5 6; 3 7 1]', [3 2]);
%! check_bridge (m, b, "decoder.1.cross.W_K");

%!testif ; have_torch ()
%! ## encoder-decoder, post-norm RMSNorm with a final norm, embedding norms,
%! ## rotary positions with grouped-query attention, biases, gated FFN
%! m = attn_model (struct ("src_vocab", vs, "tgt_vocab", vt, "d", 8, "heads", 2,
%!                         "kv_heads", 1, "encoder_layers", 1, "decoder_layers", 2,
%!                         "max_len", 9, "seed", 17, "norm", "post", "final_norm", true,
%!                         "norm_kind", "rmsnorm", "embed_norm", true, "positions", "rope",
%!                         "attn_bias", true, "ffn_gated", true, "activation", "gelu_tanh"));
%! m.decoder(1).self.b_K = linspace (-1, 1, 4);
%! m.decoder(2).cross.b_Q = linspace (1, -1, 8);
%! m.decoder_norm.gain = linspace (0.6, 1.4, 8);
%! b = batch_of ([5 6 7 4; 8 4 1 1]', [4 2], [3 5 6; 3 7 1]', [3 2]);
%! check_bridge (m, b, "src_embed");

%!testif ; have_torch ()
%! ## encoder-token, BERT-like: post-norm, embedding norm, biases, exact GELU
%! m = attn_family (struct ("family", "encoder-token", "vocab", text,
%!                          "classes", {{"A", "B", "C"}}, "d", 8, "heads", 2, "layers", 2,
%!                          "max_len", 8, "seed", 4, "embed_norm", true, "attn_bias", true,
%!                          "activation", "gelu", "norm_eps", 1e-12));
%! m.b_class = [0.5 -0.5 0.25];
%! ids = [5 6 7 8; 9 10 1 1]';
%! b = batch_of (ids, [4 2], zeros (0, 2), 0);
%! check_bridge (m, b, "W_class");

%!testif ; have_torch ()
%! ## encoder-token heads: a tanh layer; BERT's masked-LM head (a GELU layer,
%! ## its LayerNorm, the scores from src_embed: tied, no W_class)
%! v = text;
%! for o = {{"d_hidden", 6, "head_activation", "tanh", "classes", {{"A", "B", "C"}}}, ...
%!          {"d_hidden", 8, "head_activation", "gelu", "head_norm", true, ...
%!           "tie_embeddings", true, "classes", {v.words}}}
%!   m = attn_family (struct ("family", "encoder-token", "vocab", text, "d", 8, "heads", 2,
%!                            "layers", 1, "max_len", 8, "seed", 4, "embed_norm", true,
%!                            "activation", "gelu", "norm_eps", 1e-12, o{1}{:}));
%!   m.b_hidden = linspace (-0.5, 0.5, columns (m.b_hidden));
%!   if (isfield (m, "head_norm"))
%!     m.head_norm.gain = linspace (0.5, 1.5, 8);
%!     m.head_norm.bias = linspace (-0.2, 0.3, 8);
%!   endif
%!   ids = [5 6 7 8; 9 10 1 1]';
%!   b = batch_of (ids, [4 2], zeros (0, 2), 0);
%!   check_bridge (m, b, merge (isfield (m, "W_class"), "W_hidden", "src_embed"));
%! endfor

%!testif ; have_torch ()
%! ## encoder-sentence, BERT-like: the first row as given, a tanh layer
%! m = attn_family (struct ("family", "encoder-sentence", "vocab", text,
%!                          "classes", {{"yes", "no"}}, "d", 8, "heads", 2, "layers", 1,
%!                          "max_len", 8, "seed", 3, "readout", "first", "head", "mlp",
%!                          "head_activation", "tanh"));
%! b = batch_of ([5 6 7 8; 9 10 1 1]', [4 2], zeros (0, 2), 0);
%! check_bridge (m, b, "W_hidden");

%!testif ; have_torch ()
%! ## encoder-sentence: mean readout with an MLP head; <cls> readout, linear head
%! for o = {{"mean", "mlp"}, {"cls", "linear"}}
%!   v = attn_vocab ("the river bank is steep and the money bank is closed", {"<pad>", "<cls>"});
%!   m = attn_family (struct ("family", "encoder-sentence", "vocab", v,
%!                            "classes", {{"yes", "no"}}, "d", 8, "heads", 2, "layers", 1,
%!                            "max_len", 8, "seed", 6, "readout", o{1}{1}, "head", o{1}{2}));
%!   ids = [2 3 4 5; 2 6 1 1; 2 1 1 1]';      # <cls> first
%!   b = batch_of (ids, [4 2 1], zeros (0, 3), 0);
%!   check_bridge (m, b, "encoder.1.self.W_O");
%! endfor

%!testif ; have_torch ()
%! ## the pooled encoder-decoders: c W_u added, [e, c] W_F, c W_P as a prefix
%! ## row (with pre-norm, embedding scale and norm, sinusoidal positions)
%! for f = {"pooled-add", "pooled-concat", "pooled-prefix"}
%!   m = attn_family (struct ("src_vocab", vs, "tgt_vocab", vt, "family", f{1}, "d", 8,
%!                            "heads", 2, "max_len", 8, "seed", 8, "norm", "pre",
%!                            "embed_scale", true, "embed_norm", true,
%!                            "positions", "sinusoidal"));
%!   b = batch_of ([5 6 7 4; 8 4 1 1; 4 1 1 1]', [4 2 1], [3 5 6; 3 7 1; 3 1 1]', [3 2 1]);
%!   check_bridge (m, b, {"W_u", "W_F", "W_P"}{strcmp (f{1}, {"pooled-add", "pooled-concat", "pooled-prefix"})});
%! endfor

%!testif ; have_torch ()
%! ## a file counting ids from 0 is refused, naming id_base
%! m = attn_model (struct ("src_vocab", vs, "tgt_vocab", vt, "d", 4, "heads", 2,
%!                         "encoder_layers", 1, "decoder_layers", 1, "max_len", 8));
%! file = [tempname() ".safetensors"];
%! attn_save (m, file);
%! [f, msg] = fopen (file, "r+");
%! bytes = fread (f, Inf, "uint8=>char")';
%! k = strfind (bytes, '"id_base":"1"');
%! assert (numel (k), 1);
%! fseek (f, k + numel ('"id_base":"') - 1, SEEK_SET);
%! fwrite (f, "0");
%! fclose (f);
%! [out, status] = bridge (sprintf ("logits %s 5,4/3", file), true);
%! unlink (file);
%! assert (status, 1);
%! assert (out, sprintf ("attention_bridge: %s: id_base '0'; this module reads files counting from 1\n", file));
