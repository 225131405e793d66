## check_lengths (m, batch, fname): error attention:size when a source or
## decoder input is longer than the position tables (m.src_pos, m.tgt_pos).
function check_lengths (m, batch, fname)
  ## a one-stack family (attn_family) has only one of the two tables
  if (rows (batch.src) > rows (field_or_empty (m, "src_pos"))
      || rows (batch.tgt_in) + prefix_rows (m) > rows (field_or_empty (m, "tgt_pos")))
    error ("attention:size",
           "%s: sequences must fit the position tables (source <= %d, target <= %d tokens), got %d and %d",
           fname, rows (field_or_empty (m, "src_pos")), rows (field_or_empty (m, "tgt_pos")),
           rows (batch.src), rows (batch.tgt_in));
  endif
endfunction
