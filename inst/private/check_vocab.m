## check_vocab (v, fname): error attention:type unless v is a vocabulary
## struct from attn_vocab.
function check_vocab (v, fname)
  if (! isstruct (v) || ! isscalar (v) || ! isfield (v, "words")
      || ! iscellstr (v.words) || ! all (isfield (v, {"pad", "unk", "bos", "eos"})))
    error ("attention:type",
           "%s: V must be a vocabulary struct from attn_vocab (words, pad, unk, bos, eos), got %s",
           fname, class (v));
  endif
endfunction
