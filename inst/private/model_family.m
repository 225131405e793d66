## -*- texinfo -*-
## @deftypefn  {} {@var{f} =} model_family (@var{name})
## @deftypefnx {} {@var{f} =} model_family (@var{m})
## @deftypefnx {} {@var{table} =} model_family ()
## The family table: one row for each arrangement of seed 003 the package
## builds, the one place that says what a family is.  Schema, batches,
## forward and backward passes, decoding, checks and files read these
## columns; no other code tests a family's name.
##
## @var{name} is a family name (@code{m.config.family}); given a model or a
## config, its family is used (@qcode{"encoder-decoder"} when the config
## has none).  Without arguments, returns the whole table (a struct array).
## The columns:
## @table @code
## @item name
## the family's name
## @item builder
## the function that builds it: @qcode{"attn_model"} or @qcode{"attn_family"}
## @item source
## true when the model reads a source sentence through an encoder stack
## (@code{src_embed}, @code{src_pos}, @code{encoder})
## @item decoder
## true when a causal decoder stack reads the target and a vocabulary head
## writes it (@code{tgt_embed}, @code{tgt_pos}, @code{decoder},
## @code{W_vocab}); false for the classifiers (@code{W_class})
## @item cross
## true when every decoder layer has a cross-attention block
## @item pool
## how the pooled source c (the mean of the encoded rows) enters the
## decoder's input (@code{decoder_input}): @qcode{""} not at all,
## @qcode{"add"} (@code{W_u}), @qcode{"concat"} (@code{W_F}) or
## @qcode{"prefix"} (@code{W_P}, a row before the first target row)
## @item readout
## what the head reads: @qcode{"vocab"} (every decoder row),
## @qcode{"token"} (every source row, one class each) or
## @qcode{"sentence"} (one row a sentence, one class)
## @item batch
## how a corpus becomes a batch (@code{model_batch}): @qcode{"pairs"}
## (source in, @code{<bos>} target in, target @code{<eos>} out),
## @qcode{"text"} (@code{<bos>} source target @code{<eos>} in one sequence),
## @qcode{"tokens"} (a label a word) or @qcode{"sentence"} (a label a
## sentence)
## @item start
## what decoding starts from: @qcode{"source"} (a sentence the encoder
## reads), @qcode{"prompt"} (text the decoder continues) or @qcode{""} (the
## family does not write text)
## @end table
##
## Unknown names are @code{attention:config} errors listing the families.
## @end deftypefn

function f = model_family (x)
  persistent table names
  if (isempty (table))
    ##        name                builder       source decoder cross pool      readout     batch       start
    rows = {"encoder-decoder",  "attn_model",  true,  true,   true,  "",       "vocab",    "pairs",    "source";
            "decoder-only",     "attn_family", false, true,   false, "",       "vocab",    "text",     "prompt";
            "encoder-token",    "attn_family", true,  false,  false, "",       "token",    "tokens",   "";
            "encoder-sentence", "attn_family", true,  false,  false, "",       "sentence", "sentence", "";
            "pooled-add",       "attn_family", true,  true,   false, "add",    "vocab",    "pairs",    "source";
            "pooled-concat",    "attn_family", true,  true,   false, "concat", "vocab",    "pairs",    "source";
            "pooled-prefix",    "attn_family", true,  true,   false, "prefix", "vocab",    "pairs",    "source"};
    table = cell2struct (rows, {"name", "builder", "source", "decoder", "cross", "pool", ...
                                "readout", "batch", "start"}, 2);
    names = rows(:,1);
  endif
  if (nargin == 0)
    f = table;
    return;
  endif
  name = x;
  if (isstruct (x))
    if (isfield (x, "config"))                 # a model
      x = x.config;
    endif
    name = "encoder-decoder";
    if (isfield (x, "family"))
      name = x.family;
    endif
  endif
  f = table(find (strcmp (names, name), 1));
  if (isempty (f))
    error ("attention:config", "the family must be one of %s, got %s",
           strjoin ({table.name}, ", "), disp_arg (name));
  endif
endfunction

%!test
%! T = model_family ();
%! assert (numel (unique ({T.name})), numel (T));
%! ## a decoder reads the source through cross-attention or the pooled vector, never both
%! assert (! any ([T.cross] & ! cellfun (@isempty, {T.pool})));
%! ## exactly the families that write text have a start and a vocabulary head
%! assert ([T.decoder], ! cellfun (@isempty, {T.start}));
%! assert ([T.decoder], strcmp ({T.readout}, "vocab"));
%! ## a classifier reads a source; text is framed with no source
%! assert (all ([T.source] | [T.decoder]));
%! assert (strcmp ({T.batch}, "text"), ! [T.source]);
%!test
%! assert (model_family ("pooled-prefix").pool, "prefix");
%! assert (model_family (struct ("d", 4)).name, "encoder-decoder");
%! assert (model_family (struct ("config", struct ("family", "encoder-token"))).readout, "token");
%!error <the family must be one of encoder-decoder, decoder-only> model_family ("encoder")
