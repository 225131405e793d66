## [parts, config] = file_model_plan (config, src_vocab, tgt_vocab, caller,
## most): the arrays (model_schema) of the model a file holds or will hold,
## and its config as check_config returns it (without the vocabularies),
## after checking the config and the vocabularies: each a struct of
## exactly words (a row of distinct text), pad, unk, bos, eos (integer ids
## in 0..numel (words), 0 = absent, distinct unless 0).  most: how many
## arrays the model may have (the file's count), checked before the schema
## is built, so that absurd layer counts cost nothing.  Errors:
## attention:config, attention:vocab.
function [parts, config] = file_model_plan (config, src_vocab, tgt_vocab, caller, most)
  check_vocab_ids (src_vocab, "src_vocab", caller);
  check_vocab_ids (tgt_vocab, "tgt_vocab", caller);
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

function check_vocab_ids (v, name, caller)
  ids = {"pad", "unk", "bos", "eos"};
  if (! isstruct (v) || ! isscalar (v) || ! isempty (setxor (fieldnames (v), [{"words"}, ids])))
    error ("attention:vocab",
           "%s: %s must be a vocabulary struct of exactly words, pad, unk, bos, eos", caller, name);
  endif
  w = v.words;
  if (! iscellstr (w) || isempty (w) || rows (w) != 1
      || ! all (cellfun ("rows", w) == 1 | cellfun ("isempty", w)))
    error ("attention:vocab", "%s: %s.words must be a row of text, got %s",
           caller, name, disp_arg (w));
  endif
  if (numel (unique (w)) < numel (w))
    [~, first] = unique (w, "first");
    twice = setdiff (1:numel (w), first);
    error ("attention:vocab", "%s: %s.words holds \"%s\" twice", caller, name, w{twice(1)});
  endif
  got = zeros (1, 4);
  for i = 1:4
    x = v.(ids{i});
    if (! isa (x, "double") || ! isreal (x) || ! isscalar (x) || x != fix (x)
        || x < 0 || x > numel (w))
      error ("attention:vocab", "%s: %s.%s must be an integer id in 0..%d (0 = absent), got %s",
             caller, name, ids{i}, numel (w), disp_arg (x));
    endif
    got(i) = x;
  endfor
  used = got(got > 0);
  if (numel (unique (used)) < numel (used))
    error ("attention:vocab", "%s: %s gives one id to two of pad, unk, bos, eos (%s)",
           caller, name, mat2str (got));
  endif
endfunction
