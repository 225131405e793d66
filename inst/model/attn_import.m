## -*- texinfo -*-
## @deftypefn  {} {@var{m} =} attn_import (@var{folder})
## @deftypefnx {} {[@var{m}, @var{tok}] =} attn_import (@var{folder})
## @deftypefnx {} {[@dots{}] =} attn_import (@var{folder}, "tokenizer", false)
## @deftypefnx {} {[@dots{}] =} attn_import (@var{folder}, "class", "single")
## Import a published checkpoint as an attention model.  A Hugging Face
## style checkpoint folder becomes a model of the package, matrix by matrix.
##
## @var{folder} holds @file{config.json} and @file{model.safetensors} (or
## the shards of @file{model.safetensors.index.json}), read through
## @code{attn_checkpoint}: one tensor at a time, any dtype converted to
## double, so importing needs the model's memory and about one tensor
## more.  The @code{model_type} of @file{config.json} chooses the layout:
##
## @table @asis
## @item @qcode{"gpt2"} (GPT-2, DistilGPT-2)
## a decoder-only model (@code{attn_family}): learned positions
## (@code{max_len} = @code{n_positions}), pre-norm LayerNorm with a final
## norm (@code{ln_f}, @code{layer_norm_epsilon}), attention and FFN biases,
## the activation of @code{activation_function} (@qcode{"gelu_new"} is
## @qcode{"gelu_tanh"}), the vocabulary head tied to @code{wte}
## without a bias (@code{head_bias} false).  @code{c_attn}'s columns are @code{W_Q},
## @code{W_K}, @code{W_V} side by side (its Conv1D weights are stored
## input × output, as the package holds them).  The causal-mask buffers
## @code{h.N.attn.bias} and @code{h.N.attn.masked_bias} are not read.
## @item @qcode{"llama"} (SmolLM, TinyLlama)
## a decoder-only model: rotary positions (@code{rope_theta}, the
## rotate-half layout of the package's @qcode{"rope"}), RMSNorm before each
## sublayer and at the end (@code{rms_norm_eps}), grouped-query attention
## (@code{num_key_value_heads}, @code{head_dim}), the gated FFN
## (@code{gate_proj} is @code{W_1}, @code{up_proj} @code{W_3},
## @code{down_proj} @code{W_2}) with @code{hidden_act}, biases as
## @code{attention_bias} and @code{mlp_bias} say, the head tied to the
## embeddings (@code{tie_word_embeddings}) or @code{lm_head.weight}, no
## head bias.  A @code{rope_scaling} entry other than @code{@{"rope_type": "default"@}}
## is refused; @code{inv_freq} buffers are not read.
## @item @qcode{"bert"} with @code{BertForTokenClassification} (a NER tagger)
## an encoder-token model: word and position embeddings and their
## LayerNorm (@code{embed_norm}, @code{layer_norm_eps}), post-norm layers
## with biases, @code{hidden_act} (@qcode{"gelu"} is the exact erf form),
## the @code{classifier} as @code{W_class}, @code{b_class}, the class names
## from @code{id2label}.  Row 1 of @code{token_type_embeddings} is added
## to every row of the position table: exact for input of one segment
## (token type 0 throughout, as a tagger reads a sentence).  The
## @code{pooler}, which a token classifier does not read, is not read.
## @item @qcode{"bert"} with @code{BertForMaskedLM} (BERT as published, e.g.@: @code{bert-base-uncased})
## the masked language model: an encoder-token model whose classes are the
## vocabulary's words (@code{m.tgt_vocab} is @code{m.src_vocab}), with the
## same encoder and the head @code{cls.predictions}: its
## @code{transform.dense} as @code{W_hidden}, @code{b_hidden} with
## @code{hidden_act} (@code{head_activation}), its
## @code{transform.LayerNorm} (also under the names @code{gamma},
## @code{beta}) as @code{head_norm}, then the word table transposed
## (@code{tie_embeddings}: no @code{W_class}) and @code{cls.predictions.bias}
## as @code{b_class}.  A stored @code{cls.predictions.decoder.weight} or
## @code{decoder.bias} must equal the tensor it is tied to (else an
## error names it).  The @code{pooler} and the next-sentence head
## (@code{cls.seq_relationship}) that published checkpoints hold beside
## it are not read; @code{BertForPreTraining}, which has the next-sentence
## head, is refused.  The most probable word at a @code{[MASK]} row is the
## model's prediction of the word there.
## @item @qcode{"bert"} with @code{BertForSequenceClassification}
## an encoder-sentence model with the same encoder: the readout is the
## sentence's first row as given (@code{readout} @qcode{"first"}: the
## input starts with @code{[CLS]}, which the caller writes, as BERT's
## tokenizer does), the @code{pooler} as a tanh layer (@code{W_hidden},
## @code{b_hidden}, @code{head_activation} @qcode{"tanh"}), then the
## @code{classifier}; a @code{problem_type} other than one label a
## sentence is refused.
## @item @qcode{"marian"} (Helsinki-NLP's opus-mt translators)
## an encoder-decoder model: post-norm layers with biases, the activation
## of @code{activation_function} (@qcode{"swish"} is @qcode{"silu"}),
## token rows scaled by sqrt(d) (@code{scale_embedding}), sinusoidal
## positions with the sines before the cosines (@qcode{"sinusoidal_concat"},
## computed, not read), one table @code{model.shared.weight} for source,
## target and the tied head, @code{final_logits_bias} as @code{b_vocab}.
## The decoder starts from @code{decoder_start_token_id} (Marian's
## @code{<pad>}), which is the vocabulary's @code{bos} (padding then uses
## @code{<eos>}, under a false mask).  Source and target share one
## vocabulary: @file{vocab.json}, with @file{source.spm} as tokenizer.
## @end table
##
## With @qcode{"class"} @qcode{"single"} the model's arrays are single
## (@code{attn_cast}): each tensor is converted as it is read, so the model
## takes half the memory of a double one (a checkpoint's F32 numbers are
## kept exactly, read as stored) and runs in single.  The default is
## @qcode{"double"}.
##
## Torch's linear layers store their weights output × input: the package's
## matrices are their transposes (@code{W_Q} is @code{q_proj.weight'}).
##
## The vocabulary (@code{m.tgt_vocab} and @code{m.src_vocab}) holds the
## tokenizer's pieces in id order (@code{attn_tokenizer}: byte-level BPE,
## WordPiece or SentencePiece files in @var{folder}: GPT-2's and SmolLM's
## @file{tokenizer.json} or @file{vocab.json} with @file{merges.txt}, a
## Llama's (TinyLlama's) @file{tokenizer.json} or SentencePiece BPE
## @file{tokenizer.model}, BERT's @file{vocab.txt}, Marian's
## @file{source.spm}), a NUL byte written
## @qcode{"<0x00>"}; ids are 1-based, so the checkpoint's id k is id k+1.
## @code{bos}, @code{eos} and @code{pad} are @file{config.json}'s
## @code{bos_token_id}, @code{eos_token_id} and @code{pad_token_id} (GPT-2's
## @code{<|endoftext|>} is both @code{bos} and @code{eos}); @code{unk} is
## the tokenizer's.  A decoder-only model reads @code{<bos>} before its
## input, as every decoder-only model of the package does.  Without
## tokenizer files, or with @qcode{"tokenizer"} @code{false}, the words are
## the ids in angle brackets (@qcode{"<1>"}, @dots{}) and @var{tok} is
## @code{[]}.  Tokenizer files that are refused (a @file{tokenizer.json}
## with parts @code{attn_tokenizer} does not read, such as another
## pre-tokenizer) are an @code{attention:import} error that names the part
## and says how to import without them: @qcode{"tokenizer"} @code{false}
## imports the model alone.
##
## Text goes through the tokenizer, ids through the model:
## @code{ids = attn_tokenize (tok, text)}, then @code{attn_forward (m,
## ids)} or @code{attn_continue (m, ids)}, and @code{attn_detokenize (tok,
## ids)} for the text of the ids written.  The tokenizer adds no special
## token: a BERT tagger reads a sentence as it was trained,
## @code{[cls, attn_tokenize(tok, text), sep]} with the ids of
## @code{[CLS]} and @code{[SEP]} (and of @code{[MASK]} where a masked
## language model is to guess a word); a Marian source gets @code{</s>}
## (@code{eos}) appended by the package's functions.
##
## What the package cannot express is refused, never imported as another
## model: an unknown @code{model_type} or architecture, a config key with a
## value the layout does not have (the message names the key), a tensor
## that is missing or of another shape, or a tensor the model would not
## read; each is an @code{attention:import} error.  Errors of the files
## themselves are @code{attention:file} errors of @code{attn_checkpoint}
## and @code{attn_tokenizer}.
##
## @example
## @group
## ## with GPT-2's files downloaded into the folder gpt2:
## ##   [m, tok] = attn_import ("gpt2");
## ##   ids = attn_tokenize (tok, "The river bank");
## ##   [~, info] = attn_continue (m, ids, "max_len", 5);
## ##   attn_detokenize (tok, info.ids)
## @end group
## @end example
## @seealso{attn_checkpoint, attn_tokenizer, attn_family, attn_save}
## @end deftypefn

function [m, tok] = attn_import (folder, varargin)
  if (nargin < 1)
    print_usage ();
  endif
  o = parse_options ("attn_import", {"tokenizer", true, "flag";
                                     "class", "double", "one of double, single"}, varargin);
  ck = attn_checkpoint (folder);
  where = sprintf ("attn_import: \"%s\"", ck.folder);
  cfg = ck.config;
  if (isempty (fieldnames (cfg)))
    error ("attention:import", "%s has no config.json (or an empty one)", where);
  endif
  type = config_key (cfg, "model_type", "", "text", where);
  layouts = {"gpt2", @gpt2_layout; "llama", @llama_layout; "bert", @bert_layout;
             "marian", @marian_layout};
  k = find (strcmp (layouts(:,1), type));
  if (isempty (k))
    error ("attention:import", "%s: config.json's model_type \"%s\" is not one the package imports (%s)",
           where, type, strjoin (layouts(:,1)', ", "));
  endif
  [c, src, ignored, specials, copies] = layouts{k,2} (cfg, where);
  tok = [];
  if (o.tokenizer)
    tok = read_tokenizer (ck.folder, where);
  endif
  vocab = vocabulary (tok, c.V, cfg, specials, where);
  c = rmfield (c, "V");
  if (model_family (c.family).decoder || ! isfield (c, "tgt_vocab"))
    [c.src_vocab, c.tgt_vocab] = deal (vocab);   # what it reads and writes (a masked LM: the words)
  else
    c.src_vocab = vocab;
  endif
  c = check_config (c, "attn_import");
  m = build (ck, c, src, ignored, copies, where, o.class);
endfunction

## ------------------------------------------------------------------
## the layouts: the package config (with V, the vocabulary size), each
## schema path's source (path, tensor, op, columns; op "copy" as stored,
## "T" transposed, "cols" some columns, "pos" a position table plus
## token-type row 1), the tensors not read (a regexp), and the
## specials the config names

function [c, src, ignored, specials, copies] = gpt2_layout (cfg, where)
  arch_check (cfg, {"GPT2LMHeadModel"}, false, where);
  d = config_key (cfg, "n_embd", [], "count", where);
  h = config_key (cfg, "n_head", [], "count", where);
  L = config_key (cfg, "n_layer", [], "count", where);
  refuse (cfg, "scale_attn_weights", true, where, "attention scores are divided by sqrt(dk)");
  refuse (cfg, "scale_attn_by_inverse_layer_idx", false, where, "no per-layer scale");
  refuse (cfg, "add_cross_attention", false, where, "no cross-attention");
  c = base_config ("decoder-only", cfg, where, "vocab_size", d, h, L);
  c.d_ff = config_key (cfg, "n_inner", 4 * d, "count", where);
  c.activation = act_name (cfg, "activation_function", "gelu_new", where);
  c.attn_bias = true;
  c.norm = "pre";
  c.norm_eps = config_key (cfg, "layer_norm_epsilon", 1e-5, "real", where);
  c.final_norm = true;
  c.max_len = config_key (cfg, "n_positions", 1024, "count", where);
  c.tie_embeddings = config_key (cfg, "tie_word_embeddings", true, "flag", where);
  c.head_bias = false;
  src = {"tgt_embed", "wte.weight", "copy", [];
         "tgt_pos", "wpe.weight", "copy", []};
  for l = 1:L
    p = sprintf ("decoder.%d.", l);
    t = sprintf ("h.%d.", l - 1);
    qkv = {1:d, d+1:2*d, 2*d+1:3*d};
    src = [src;
           {[p "self.W_Q"], [t "attn.c_attn.weight"], "cols", qkv{1};
            [p "self.b_Q"], [t "attn.c_attn.bias"], "cols", qkv{1};
            [p "self.W_K"], [t "attn.c_attn.weight"], "cols", qkv{2};
            [p "self.b_K"], [t "attn.c_attn.bias"], "cols", qkv{2};
            [p "self.W_V"], [t "attn.c_attn.weight"], "cols", qkv{3};
            [p "self.b_V"], [t "attn.c_attn.bias"], "cols", qkv{3};
            [p "self.W_O"], [t "attn.c_proj.weight"], "copy", [];
            [p "self.b_O"], [t "attn.c_proj.bias"], "copy", [];
            [p "ffn.W_1"], [t "mlp.c_fc.weight"], "copy", [];
            [p "ffn.b_1"], [t "mlp.c_fc.bias"], "copy", [];
            [p "ffn.W_2"], [t "mlp.c_proj.weight"], "copy", [];
            [p "ffn.b_2"], [t "mlp.c_proj.bias"], "copy", [];
            [p "norm_self.gain"], [t "ln_1.weight"], "copy", [];
            [p "norm_self.bias"], [t "ln_1.bias"], "copy", [];
            [p "norm_ffn.gain"], [t "ln_2.weight"], "copy", [];
            [p "norm_ffn.bias"], [t "ln_2.bias"], "copy", []}];
  endfor
  src = [src;
         {"decoder_norm.gain", "ln_f.weight", "copy", [];
          "decoder_norm.bias", "ln_f.bias", "copy", [];
          "W_vocab", "lm_head.weight", "T", []}];
  ignored = '^(transformer\.)?h\.\d+\.attn\.(bias|masked_bias)$';
  specials = {"bos_token_id", "eos_token_id", "pad_token_id"};
  copies = tied_head (c);
endfunction

function [c, src, ignored, specials, copies] = llama_layout (cfg, where)
  arch_check (cfg, {"LlamaForCausalLM"}, false, where);
  d = config_key (cfg, "hidden_size", [], "count", where);
  h = config_key (cfg, "num_attention_heads", [], "count", where);
  L = config_key (cfg, "num_hidden_layers", [], "count", where);
  scaling = config_key (cfg, "rope_scaling", [], "any", where);
  if (! isempty (scaling) && ! (isstruct (scaling) && isequal (fieldnames (scaling), {"rope_type"})
                                && isequal (scaling.rope_type, "default")))
    refuse (cfg, "rope_scaling", [], where, "rotary angles without scaling");
  endif
  refuse (cfg, "partial_rotary_factor", 1, where, "every entry of a head turned");
  c = base_config ("decoder-only", cfg, where, "vocab_size", d, h, L);
  c.kv_heads = config_key (cfg, "num_key_value_heads", h, "count", where);
  c.dk = c.dv = config_key (cfg, "head_dim", d / h, "count", where);
  c.d_ff = config_key (cfg, "intermediate_size", [], "count", where);
  c.activation = act_name (cfg, "hidden_act", "silu", where);
  c.ffn_gated = true;
  c.attn_bias = config_key (cfg, "attention_bias", false, "flag", where);
  c.ffn_bias = config_key (cfg, "mlp_bias", false, "flag", where);
  c.norm = "pre";
  c.norm_kind = "rmsnorm";
  c.norm_eps = config_key (cfg, "rms_norm_eps", 1e-6, "real", where);
  c.final_norm = true;
  c.positions = "rope";
  c.rope_base = config_key (cfg, "rope_theta", 10000, "real", where);
  c.max_len = config_key (cfg, "max_position_embeddings", 2048, "count", where);
  c.tie_embeddings = config_key (cfg, "tie_word_embeddings", false, "flag", where);
  c.head_bias = false;
  src = {"tgt_embed", "model.embed_tokens.weight", "copy", []};
  for l = 1:L
    p = sprintf ("decoder.%d.", l);
    t = sprintf ("model.layers.%d.", l - 1);
    for w = {"Q", "q"; "K", "k"; "V", "v"; "O", "o"}'
      src = [src;
             {[p "self.W_" w{1}], [t "self_attn." w{2} "_proj.weight"], "T", [];
              [p "self.b_" w{1}], [t "self_attn." w{2} "_proj.bias"], "copy", []}];
    endfor
    for w = {"1", "gate"; "3", "up"; "2", "down"}'
      src = [src;
             {[p "ffn.W_" w{1}], [t "mlp." w{2} "_proj.weight"], "T", [];
              [p "ffn.b_" w{1}], [t "mlp." w{2} "_proj.bias"], "copy", []}];
    endfor
    src = [src;
           {[p "norm_self.gain"], [t "input_layernorm.weight"], "copy", [];
            [p "norm_ffn.gain"], [t "post_attention_layernorm.weight"], "copy", []}];
  endfor
  src = [src;
         {"decoder_norm.gain", "model.norm.weight", "copy", [];
          "W_vocab", "lm_head.weight", "T", []}];
  ignored = 'rotary_emb\.inv_freq$';
  specials = {"bos_token_id", "eos_token_id", "pad_token_id"};
  copies = tied_head (c);
endfunction

function [c, src, ignored, specials, copies] = bert_layout (cfg, where)
  why = {"BertForPreTraining", "has the next-sentence head beside the masked-LM one, which no family of the package has (its masked-LM model is imported when architectures is BertForMaskedLM)";
         "BertModel", "has no head"};
  kinds = {"BertForTokenClassification", "BertForSequenceClassification", "BertForMaskedLM"};
  a = config_key (cfg, "architectures", {}, "any", where);
  k = find (ismember (why(:,1), a), 1);
  if (! isempty (k))
    error ("attention:import", "%s: config.json's architectures is %s, which %s; BERT is imported as %s",
           where, why{k,1}, why{k,2}, strjoin (kinds, ", "));
  endif
  arch_check (cfg, kinds, true, where);
  a = cellstr (config_key (cfg, "architectures", {}, "any", where));
  sentence = ismember (kinds{2}, a);
  mlm = ismember (kinds{3}, a);
  d = config_key (cfg, "hidden_size", [], "count", where);
  h = config_key (cfg, "num_attention_heads", [], "count", where);
  L = config_key (cfg, "num_hidden_layers", [], "count", where);
  refuse (cfg, "position_embedding_type", "absolute", where, "absolute positions");
  refuse (cfg, "is_decoder", false, where, "an encoder");
  refuse (cfg, "add_cross_attention", false, where, "no cross-attention");
  if (sentence)                               # [CLS] row, pooler, classifier
    refuse (cfg, "problem_type", "single_label_classification", where,
            "one class a sentence (a softmax over the labels)");
    c = base_config ("encoder-sentence", cfg, where, "vocab_size", d, h, L);
    [c.readout, c.head, c.d_hidden, c.head_activation] = deal ("first", "mlp", d, "tanh");
  else
    c = base_config ("encoder-token", cfg, where, "vocab_size", d, h, L);
  endif
  c.d_ff = config_key (cfg, "intermediate_size", [], "count", where);
  c.activation = act_name (cfg, "hidden_act", "gelu", where);
  if (mlm)                 # every row: dense, hidden_act, LayerNorm, the word table
    [c.d_hidden, c.head_activation, c.head_norm, c.tie_embeddings] = deal (d, c.activation,
                                                                           true, true);
  endif
  c.attn_bias = true;
  c.norm = "post";
  c.norm_eps = config_key (cfg, "layer_norm_eps", 1e-12, "real", where);
  c.final_norm = false;
  c.embed_norm = true;
  c.max_len = config_key (cfg, "max_position_embeddings", 512, "count", where);
  if (! mlm)                                   # a masked LM's classes are its words
    c.tgt_vocab = attn_vocab (class_names (cfg, where), {});
  endif
  src = {"src_embed", "embeddings.word_embeddings.weight", "copy", [];
         "src_pos", "embeddings.position_embeddings.weight", "pos", [];
         "src_embed_norm.gain", "embeddings.LayerNorm.weight", "copy", [];
         "src_embed_norm.bias", "embeddings.LayerNorm.bias", "copy", []};
  for l = 1:L
    p = sprintf ("encoder.%d.", l);
    t = sprintf ("encoder.layer.%d.", l - 1);
    for w = {"Q", "self.query"; "K", "self.key"; "V", "self.value"; "O", "output.dense"}'
      src = [src;
             {[p "self.W_" w{1}], [t "attention." w{2} ".weight"], "T", [];
              [p "self.b_" w{1}], [t "attention." w{2} ".bias"], "copy", []}];
    endfor
    src = [src;
           {[p "ffn.W_1"], [t "intermediate.dense.weight"], "T", [];
            [p "ffn.b_1"], [t "intermediate.dense.bias"], "copy", [];
            [p "ffn.W_2"], [t "output.dense.weight"], "T", [];
            [p "ffn.b_2"], [t "output.dense.bias"], "copy", [];
            [p "norm_self.gain"], [t "attention.output.LayerNorm.weight"], "copy", [];
            [p "norm_self.bias"], [t "attention.output.LayerNorm.bias"], "copy", [];
            [p "norm_ffn.gain"], [t "output.LayerNorm.weight"], "copy", [];
            [p "norm_ffn.bias"], [t "output.LayerNorm.bias"], "copy", []}];
  endfor
  copies = cell (0, 2);
  if (sentence)
    src = [src;
           {"W_hidden", "pooler.dense.weight", "T", [];
            "b_hidden", "pooler.dense.bias", "copy", []}];
    ignored = '^(bert\.)?embeddings\.position_ids$';
  else                                         # the pooler is not read
    ignored = '^(bert\.)?(embeddings\.position_ids|pooler\.dense\.(weight|bias))$';
  endif
  if (mlm)                                     # nor the next-sentence head
    t = "cls.predictions.";
    src = [src;
           {"W_hidden", [t "transform.dense.weight"], "T", [];
            "b_hidden", [t "transform.dense.bias"], "copy", [];
            "head_norm.gain", [t "transform.LayerNorm.weight"], "copy", [];
            "head_norm.bias", [t "transform.LayerNorm.bias"], "copy", [];
            "b_class", [t "bias"], "copy", []}];
    ignored = [ignored '|^cls\.seq_relationship\.(weight|bias)$'];
    copies = {[t "decoder.weight"], "src_embed"; [t "decoder.bias"], "b_class"};
  else
    src = [src;
           {"W_class", "classifier.weight", "T", [];
            "b_class", "classifier.bias", "copy", []}];
  endif
  specials = {"", "", "pad_token_id"};
endfunction

function [c, src, ignored, specials, copies] = marian_layout (cfg, where)
  arch_check (cfg, {"MarianMTModel"}, false, where);
  d = config_key (cfg, "d_model", [], "count", where);
  h = config_key (cfg, "encoder_attention_heads", [], "count", where);
  ff = config_key (cfg, "encoder_ffn_dim", [], "count", where);
  for k = {"decoder_attention_heads", h; "decoder_ffn_dim", ff}'
    refuse (cfg, k{1}, k{2}, where, "the encoder's number");
  endfor
  refuse (cfg, "normalize_before", false, where, "post-norm layers");
  refuse (cfg, "normalize_embedding", false, where, "no norm of the embedded rows");
  refuse (cfg, "add_final_layer_norm", false, where, "no final norm");
  refuse (cfg, "static_position_embeddings", true, where, "sinusoidal positions");
  refuse (cfg, "share_encoder_decoder_embeddings", true, where, "one embedding table");
  refuse (cfg, "tie_word_embeddings", true, where, "the head tied to the embeddings");
  c = base_config ("encoder-decoder", cfg, where, "vocab_size", d, h, 1);
  c.encoder_layers = config_key (cfg, "encoder_layers", [], "count", where);
  c.decoder_layers = config_key (cfg, "decoder_layers", [], "count", where);
  c.d_ff = ff;
  c.activation = act_name (cfg, "activation_function", "swish", where);
  c.attn_bias = true;
  c.norm = "post";
  c.final_norm = false;
  c.positions = "sinusoidal_concat";
  c.embed_scale = config_key (cfg, "scale_embedding", false, "flag", where);
  c.tie_embeddings = true;
  c.max_len = config_key (cfg, "max_position_embeddings", 512, "count", where);
  src = {"src_embed", "model.shared.weight", "copy", [];
         "tgt_embed", "model.shared.weight", "copy", []};
  blocks = {"self", "self_attn"; "cross", "encoder_attn"};
  for stack = {"encoder", c.encoder_layers, 1; "decoder", c.decoder_layers, 2}'
    for l = 1:stack{2}
      p = sprintf ("%s.%d.", stack{1}, l);
      t = sprintf ("model.%s.layers.%d.", stack{1}, l - 1);
      for b = blocks(1:stack{3},:)'
        for w = {"Q", "q_proj"; "K", "k_proj"; "V", "v_proj"; "O", "out_proj"}'
          src = [src;
                 {[p b{1} ".W_" w{1}], [t b{2} "." w{2} ".weight"], "T", [];
                  [p b{1} ".b_" w{1}], [t b{2} "." w{2} ".bias"], "copy", []}];
        endfor
        src = [src;
               {[p "norm_" b{1} ".gain"], [t b{2} "_layer_norm.weight"], "copy", [];
                [p "norm_" b{1} ".bias"], [t b{2} "_layer_norm.bias"], "copy", []}];
      endfor
      src = [src;
             {[p "ffn.W_1"], [t "fc1.weight"], "T", [];
              [p "ffn.b_1"], [t "fc1.bias"], "copy", [];
              [p "ffn.W_2"], [t "fc2.weight"], "T", [];
              [p "ffn.b_2"], [t "fc2.bias"], "copy", [];
              [p "norm_ffn.gain"], [t "final_layer_norm.weight"], "copy", [];
              [p "norm_ffn.bias"], [t "final_layer_norm.bias"], "copy", []}];
    endfor
  endfor
  src(end+1,:) = {"b_vocab", "final_logits_bias", "copy", []};
  ignored = '^(model\.)?(encoder|decoder)\.embed_positions\.weight$';
  specials = {"decoder_start_token_id", "eos_token_id", "pad_token_id"};
  copies = {"model.encoder.embed_tokens.weight", "src_embed";
            "model.decoder.embed_tokens.weight", "tgt_embed";
            "lm_head.weight", "tgt_embed"};
endfunction

## a tied head's lm_head.weight, when a checkpoint holds it, is tgt_embed
function copies = tied_head (c)
  copies = cell (0, 2);
  if (c.tie_embeddings)
    copies = {"lm_head.weight", "tgt_embed"};
  endif
endfunction

## the fields every layout sets, with the package's defaults for the rest
function c = base_config (family, cfg, where, vocab_key, d, h, L)
  c = struct ("family", family, "V", config_key (cfg, vocab_key, [], "count", where),
              "d", d, "heads", h, "encoder_layers", 0, "decoder_layers", 0);
  if (mod (d, h) != 0 && ! isfield (cfg, "head_dim"))
    error ("attention:import", "%s: config.json's heads (%d) do not divide the width (%d)",
           where, h, d);
  endif
  if (model_family (family).source)            # the stack it has (both: set later)
    c.encoder_layers = L;
  else
    c.decoder_layers = L;
  endif
endfunction

## error unless config.json's architectures are one of these (absent
## only when not required)
function arch_check (cfg, allowed, required, where)
  a = config_key (cfg, "architectures", {}, "any", where);
  if (ischar (a))
    a = {a};
  endif
  if (! iscellstr (a) || ! all (ismember (a, allowed)) || (isempty (a) && required))
    error ("attention:import",
           "%s: config.json's architectures is %s; this model_type is imported as %s",
           where, disp_arg (a), strjoin (allowed, ", "));
  endif
endfunction

## error unless config.json's key is absent, null or the value the
## package's layout has
function refuse (cfg, key, value, where, meaning)
  if (! isfield (cfg, key) || isempty (cfg.(key)) || isequal (cfg.(key), value))
    return;
  endif
  error ("attention:import", "%s: config.json's %s is %s; the package imports %s only (%s)",
         where, key, value_text (cfg.(key)), value_text (value), meaning);
endfunction

## a config value as JSON would write it (null for [])
function t = value_text (x)
  if (isempty (x) && ! ischar (x))
    t = "null";
  elseif (islogical (x) && isscalar (x))
    t = merge (x, "true", "false");
  elseif (isnumeric (x) && isscalar (x))
    t = sprintf ("%.17g", x);
  elseif (ischar (x))
    t = ["\"" x "\""];
  else
    t = jsonencode (x);
  endif
endfunction

## config.json's key (absent or null: default; no default: an error),
## checked as kind: "count" (an integer >= 1), "id" (an integer >= 0),
## "real" (> 0), "flag", "text", "any"
function v = config_key (cfg, key, default, kind, where)
  if (! isfield (cfg, key) || (isempty (cfg.(key)) && ! ischar (cfg.(key))))
    if (isempty (default) && ! strcmp (kind, "any") && ! (strcmp (kind, "text") && ischar (default)))
      error ("attention:import", "%s: config.json has no %s", where, key);
    endif
    v = default;
    return;
  endif
  v = cfg.(key);
  switch (kind)
    case "count"
      ok = isnumeric (v) && isscalar (v) && v == fix (v) && v >= 1 && v < 2^31;
    case "id"
      ok = isnumeric (v) && isscalar (v) && v == fix (v) && v >= 0 && v < 2^31;
    case "real"
      ok = isnumeric (v) && isscalar (v) && isfinite (v) && v > 0;
    case "flag"
      ok = islogical (v) && isscalar (v);
    case "text"
      ok = ischar (v) && rows (v) == 1;
    otherwise
      ok = true;
  endswitch
  if (! ok)
    error ("attention:import", "%s: config.json's %s must be %s, got %s", where, key,
           struct ("count", "a positive integer", "id", "a token id (an integer from 0)",
                   "real", "a positive number", "flag", "true or false",
                   "text", "a string").(kind), disp_arg (v));
  endif
  if (any (strcmp (kind, {"count", "id", "real"})))
    v = double (v);
  endif
endfunction

## the package's name of an activation key's value
function a = act_name (cfg, key, default, where)
  names = {"gelu_new", "gelu_tanh"; "gelu_pytorch_tanh", "gelu_tanh"; "gelu", "gelu";
           "relu", "relu"; "silu", "silu"; "swish", "silu"};
  v = config_key (cfg, key, default, "text", where);
  k = find (strcmp (names(:,1), v));
  if (isempty (k))
    error ("attention:import", "%s: config.json's %s is \"%s\"; the package imports %s", where,
           key, v, strjoin (unique (names(:,1))', ", "));
  endif
  a = names{k,2};
endfunction

## id2label's names in id order (keys "0" ... "C-1", each once)
function names = class_names (cfg, where)
  map = config_key (cfg, "id2label", [], "any", where);
  if (isempty (map))
    error ("attention:import", "%s: config.json has no id2label (the class names)", where);
  endif
  ok = isstruct (map) && isscalar (map);
  if (ok)
    keys = fieldnames (map);
    names = struct2cell (map);
    [ids, order] = sort (str2double (keys));
    ok = iscellstr (names) && isequal (ids(:)', 0:numel (keys) - 1) && numel (keys) >= 2;
  endif
  if (! ok)
    error ("attention:import",
           "%s: config.json's id2label must map the ids \"0\" ... to at least 2 class names", where);
  endif
  names = names(order)';
  if (isfield (cfg, "num_labels") && ! isequal (cfg.num_labels, numel (names)))
    error ("attention:import", "%s: config.json's num_labels (%s) is not the %d names of id2label",
           where, disp_arg (cfg.num_labels), numel (names));
  endif
endfunction

## ------------------------------------------------------------------
## the tokenizer of the folder ([] when it has no tokenizer files)
function tok = read_tokenizer (folder, where)
  tok = [];
  files = {"tokenizer.json", "vocab.json", "vocab.txt", "source.spm", "tokenizer.model"};
  if (! any (cellfun (@(f) isfile (fullfile (folder, f)), files)))
    return;
  endif
  try
    tok = attn_tokenizer (folder);
  catch err
    error ("attention:import",
           "%s: its tokenizer files cannot be read (%s); attn_import (FOLDER, \"tokenizer\", false) imports the model with numbered words",
           where, err.message);
  end_try_catch
endfunction

## the model's vocabulary: the tokenizer's pieces (or "<k>"), the specials
## of config.json (0-based ids there)
function v = vocabulary (tok, V, cfg, specials, where)
  if (isempty (tok))
    words = arrayfun (@(k) sprintf ("<%d>", k), 1:V, "UniformOutput", false);
    unk = 0;
  else
    words = tok.pieces;
    if (numel (words) > V)
      error ("attention:import",
             "%s: the tokenizer has %d tokens, config.json's vocab_size only %d",
             where, numel (words), V);
    endif
    extra = numel (words) + 1:V;            # embedding rows no token uses
    words = [words, arrayfun(@(k) sprintf ("<%d>", k), extra, "UniformOutput", false)];
    words = strrep (words, "\0", "<0x00>");
    sorted = sort (words);
    twice = find (strcmp (sorted(1:end-1), sorted(2:end)), 1);
    if (! isempty (twice))
      error ("attention:import", "%s: two tokens of the tokenizer read as \"%s\"",
             where, sorted{twice});
    endif
    unk = 0;
    if (isfield (tok, "unk"))
      unk = tok.unk;
    endif
  endif
  v = struct ("words", {words}, "pad", 0, "unk", unk, "bos", 0, "eos", 0);
  names = {"bos", "eos", "pad"};
  for i = 1:3
    if (! isempty (specials{i}))
      id = config_key (cfg, specials{i}, -1, "id", where);
      if (id >= V)
        error ("attention:import", "%s: config.json's %s (%d) is not below vocab_size (%d)",
               where, specials{i}, id, V);
      endif
      v.(names{i}) = id + 1;
    endif
  endfor
  if (v.pad > 0 && any (v.pad == [v.unk, v.bos, v.eos]))
    v.pad = 0;                              # padding is masked: the shared token serves
  endif
endfunction

## ------------------------------------------------------------------
## the model of config c with every array read from ck as src says
function m = build (ck, c, src, ignored, copies, where, cls)
  parts = model_schema (c);
  [has, at] = ismember ({parts.path}, src(:,1));
  fixed = ismember ({parts.init}, {"heads", "kv_heads", "rope_base", "sinusoidal", ...
                                   "sinusoidal_concat"});
  if (! all (has | fixed))                  # a bug of a layout table
    error ("attention:internal", "%s: no source for the array %s", where,
           parts(find (! (has | fixed), 1)).path);
  endif
  ## every tensor found, with the shape the array needs, before any is read
  n = numel (parts);
  name = cell (1, n);
  name(:) = {""};
  for i = find (has)
    s = src(at(i),:);
    name{i} = attn_checkpoint (ck, s{2}, "name");
    if (isempty (name{i}))
      error ("attention:import", "%s has no tensor \"%s\" (the model's %s)", where, s{2},
             parts(i).path);
    endif
    stored = ck.shapes{strcmp (ck.names, name{i})};
    want = stored_shape (s{3}, parts(i).shape, stored);
    if (! isequal (stored, want))
      error ("attention:import", "%s: tensor \"%s\" is %s; the model's %s needs %s", where,
             name{i}, shape_str (stored), parts(i).path, shape_str (want));
    endif
  endfor
  used = name(! cellfun ("isempty", name));
  if (any (strcmp (src(:,3), "pos")))
    used{end+1} = attn_checkpoint (ck, "embeddings.token_type_embeddings.weight", "name");
    types = ck.shapes(strcmp (ck.names, used{end}));
    if (isempty (types) || numel (types{1}) != 2 || types{1}(2) != c.d)
      error ("attention:import", "%s has no tensor \"embeddings.token_type_embeddings.weight\" of %d columns",
             where, c.d);
    endif
  endif
  for k = 1:rows (copies)
    copies{k,1} = attn_checkpoint (ck, copies{k,1}, "name");
  endfor
  copies = copies(! cellfun ("isempty", copies(:,1)),:);
  other = setdiff (ck.names, [used, copies(:,1)']);
  other = other(cellfun ("isempty", regexp (other, ignored, "once")));
  if (! isempty (other))
    error ("attention:import",
           "%s holds the tensor \"%s\", which a %s model of this config does not have",
           where, other{1}, config_key (ck.config, "model_type", "", "text", where));
  endif
  sizes = prod (vertcat (parts.shape), 2);
  share = 1 - 0.5 * strcmp (cls, "single");   # of a double's 8 bytes
  check_memory (share * sum (sizes), share * max (sizes), "attn_import", "the model", "");
  as = {};                                  # attn_checkpoint's reading: double, or single
  if (strcmp (cls, "single"))
    as = {"single"};
  endif

  ## the layout in schema order, then each tensor read once
  m.config = rmfield (c, {"src_vocab", "tgt_vocab"});
  m.src_vocab = c.src_vocab;
  m.tgt_vocab = c.tgt_vocab;
  for i = 1:n
    x = [];
    if (fixed(i) && strncmp (parts(i).init, "sinusoidal", 10))
      x = cast (sinusoid_table (parts(i).shape(1), parts(i).shape(2), parts(i).init), cls);
    elseif (fixed(i))
      x = c.(parts(i).init);
    endif
    m = subsasgn (m, parts(i).subs, x);
  endfor
  [tensors, ~, which] = unique (name);
  for t = 1:numel (tensors)
    if (isempty (tensors{t}))
      continue;
    endif
    X = attn_checkpoint (ck, tensors{t}, as{:});
    if (! all (isfinite (X(:))))
      error ("attention:import", "%s: tensor \"%s\" holds NaN or Inf", where, tensors{t});
    endif
    for i = find (which(:)' == t)
      m = subsasgn (m, parts(i).subs, cast (convert (X, src(at(i),:), ck), cls));
    endfor
  endfor
  for k = 1:rows (copies)                   # a tied copy must be the array
    if (! isequal (attn_checkpoint (ck, copies{k,1}, as{:}), m.(copies{k,2})))
      error ("attention:import", "%s: the tensor \"%s\" should be a copy of the model's %s (they are tied), and is not",
             where, copies{k,1}, copies{k,2});
    endif
  endfor
  check_model (m, "attn_import");
endfunction

## the shape a tensor must be stored in for an array of shape want
function s = stored_shape (op, want, stored)
  switch (op)
    case "T"
      s = fliplr (want);
    case "cols"                               # d×(3d) or [3d]
      s = [want(1), 3 * want(2)];
    otherwise
      s = want;
  endswitch
  if (s(1) == 1 && numel (stored) == 1)      # a 1-D tensor is a row
    s = s(2);
  endif
endfunction

## the array of one part from its tensor X
function x = convert (X, s, ck)
  switch (s{3})
    case "T"
      x = X';
    case "cols"
      x = X(:, s{4});
    case "pos"                                # positions + token type 0
      x = X + cast (attn_checkpoint (ck, "embeddings.token_type_embeddings.weight")(1,:), class (X));
    otherwise
      x = X;
  endswitch
endfunction

## a folder with config.json and a model.safetensors of the named F64
## arrays (row-major, as torch writes them)
%!function d = checkpoint (config, names, arrays)
%!  d = tempname ();
%!  mkdir (d);
%!  fid = fopen (fullfile (d, "config.json"), "w");
%!  fputs (fid, jsonencode (config));
%!  fclose (fid);
%!  entries = {};
%!  at = 0;
%!  for k = 1:numel (names)
%!    n = 8 * numel (arrays{k});
%!    shape = size (arrays{k});
%!    if (shape(1) == 1)
%!      shape = shape(2);
%!    endif
%!    entries{end+1} = sprintf ('"%s":{"dtype":"F64","shape":%s,"data_offsets":[%d,%d]}',
%!                              names{k}, mat2str (shape), at, at + n);
%!    at += n;
%!  endfor
%!  header = ["{" strjoin(strrep (entries, " ", ","), ",") "}"];
%!  header = [header, repmat(" ", 1, mod (-numel (header), 8))];
%!  fid = fopen (fullfile (d, "model.safetensors"), "w");
%!  fwrite (fid, numel (header), "uint64", 0, "ieee-le");
%!  fwrite (fid, header);
%!  for k = 1:numel (names)
%!    fwrite (fid, arrays{k}.', "double", 0, "ieee-le");
%!  endfor
%!  fclose (fid);
%!endfunction

%!shared config, names, arrays
%! ## GPT-2 with d 4, 2 heads, 1 layer, 6 tokens, 5 positions
%! config = struct ("model_type", "gpt2", "n_embd", 4, "n_head", 2, "n_layer", 1,
%!                  "n_positions", 5, "vocab_size", 6, "bos_token_id", 5, "eos_token_id", 5);
%! names = {"wte.weight", "wpe.weight", "h.0.ln_1.weight", "h.0.ln_1.bias", ...
%!          "h.0.attn.c_attn.weight", "h.0.attn.c_attn.bias", "h.0.attn.c_proj.weight", ...
%!          "h.0.attn.c_proj.bias", "h.0.ln_2.weight", "h.0.ln_2.bias", "h.0.mlp.c_fc.weight", ...
%!          "h.0.mlp.c_fc.bias", "h.0.mlp.c_proj.weight", "h.0.mlp.c_proj.bias", ...
%!          "ln_f.weight", "ln_f.bias"};
%! shapes = {[6 4], [5 4], [1 4], [1 4], [4 12], [1 12], [4 4], [1 4], [1 4], [1 4], ...
%!           [4 16], [1 16], [16 4], [1 4], [1 4], [1 4]};
%! arrays = cellfun (@(s, k) reshape (sin (k * (1:prod (s))), s), shapes,
%!                   num2cell (1:numel (shapes)), "UniformOutput", false);

%!test
%! ## c_attn's columns are W_Q, W_K, W_V; the head is wte transposed
%! d = checkpoint (config, names, arrays);
%! unwind_protect
%!   [m, tok] = attn_import (d);
%!   assert (isempty (tok));
%!   assert (m.decoder(1).self.W_K, arrays{5}(:,5:8));
%!   assert (m.decoder(1).self.b_V, arrays{6}(9:12));
%!   assert (m.decoder(1).ffn.W_2, arrays{13});
%!   assert (m.decoder_norm.bias, arrays{16});
%!   tr = attn_forward (m, [1 2]);
%!   assert (tr.logits, tr.decoder_out * arrays{1}.', 1e-12);
%!   assert (m.tgt_vocab.words([1 6]), {"<1>", "<6>"});
%!   assert ([m.tgt_vocab.bos, m.tgt_vocab.eos], [6 6]);
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (d, "s");
%! end_unwind_protect

%!test
%! ## a tensor left out, a config value the package has not: refused by name
%! d = checkpoint (config, names(1:end-1), arrays(1:end-1));
%! e = checkpoint (setfield (config, "scale_attn_weights", false), names, arrays);
%! unwind_protect
%!   fail ("attn_import (d)", 'has no tensor "ln_f.bias"');
%!   fail ("attn_import (e)", "scale_attn_weights is false");
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (d, "s");
%!   rmdir (e, "s");
%! end_unwind_protect

%!error <Invalid call> attn_import ()
%!error id=attention:option attn_import (".", "tokenizer", 3)
%!error <has neither model.safetensors> attn_import (tempdir ())
