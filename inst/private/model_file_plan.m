## [parts, config] = model_file_plan (config, src_vocab, tgt_vocab, caller,
## most): the arrays (model_schema) of the model a file holds or will hold,
## and its config as check_config returns it (without the vocabularies),
## after checking the config and the vocabularies: each a struct of
## exactly words (a row of distinct text), pad, unk, bos, eos (integer ids
## in 0..numel (words), 0 = absent, distinct unless 0).  most: how many
## arrays the model may have (the file's count), checked before the schema
## is built, so that absurd layer counts cost nothing.  Errors:
## attention:config, attention:vocab.
function [parts, config] = model_file_plan (config, src_vocab, tgt_vocab, caller, most)
  check_vocab (src_vocab, caller, "src_vocab");
  check_vocab (tgt_vocab, caller, "tgt_vocab");
  c = config;
  c.src_vocab = src_vocab;
  c.tgt_vocab = tgt_vocab;
  for name = {"encoder_layers", "decoder_layers"}
    if (isfield (c, name{1}) && isnumeric (c.(name{1})) && isscalar (c.(name{1}))
        && c.(name{1}) > most)
      error ("attention:config", "%s: CONFIG.%s is %s, more than the %d arrays of the model",
             caller, name{1}, disp_arg (c.(name{1})), most);
    endif
  endfor
  c = check_config (c, caller);
  parts = model_schema (c);
  config = rmfield (c, {"src_vocab", "tgt_vocab"});
endfunction
