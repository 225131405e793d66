## check_batch (m, batch, fname, need_labels): error attention:field when a
## batch struct lacks a field of attn_batch's (labels only when
## need_labels), attention:size when an encoder-decoder batch's ids and
## masks disagree in shape.
function check_batch (m, batch, fname, need_labels)
  need = {"src", "src_allow", "tgt_in", "tgt_allow"};
  if (need_labels)
    need{end+1} = "labels";
  endif
  if (! isscalar (batch) || ! all (isfield (batch, need)))
    error ("attention:field", "%s: BATCH must be a struct from attn_batch with fields %s",
           fname, strjoin (need, ", "));
  endif
  if (strcmp (family_kind (m), "encoder-decoder")
      && (! isequal (size (batch.src), size (batch.src_allow))
          || ! isequal (size (batch.tgt_in), size (batch.tgt_allow))
          || need_labels && ! isequal (size (batch.labels), size (batch.tgt_in))))
    error ("attention:size",
           "%s: BATCH ids and masks must agree in shape (src %s, src_allow %s, tgt_in %s, tgt_allow %s)",
           fname, mat2str (size (batch.src)), mat2str (size (batch.src_allow)),
           mat2str (size (batch.tgt_in)), mat2str (size (batch.tgt_allow)));
  endif
endfunction
