## batch = forward_batch (m, source, prefix, fname): the checked batch of
## one forward pass (attn_forward, attn_patch): a batch from attn_batch as
## it is, one sequence of a one-stack family framed by model_batch, or a
## source and a decoder prefix (<eos> and <bos> added when missing).
function batch = forward_batch (m, source, prefix, fname)
  if (isstruct (source))
    batch = source;
  elseif (! strcmp (model_family (m).batch, "pairs"))   # one sequence: model_batch frames it
    batch = model_batch (m, {source}, {}, fname);
  else
    src = to_ids (m.src_vocab, source, "source", fname, "source");
    tgt = to_ids (m.tgt_vocab, prefix, "prefix", fname, "target");
    batch = struct ("src", src', "src_allow", true (numel (src), 1),
                    "tgt_in", tgt', "tgt_allow", true (numel (tgt), 1));
  endif
  check_batch (m, batch, fname, false);
endfunction
