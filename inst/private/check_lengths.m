## check_lengths (m, batch, fname): error attention:size when a source or
## decoder input is longer than its position table (m.src_pos, m.tgt_pos).
## The message gives the true limits of the model: no source limit for a
## model without an encoder, and for pooled-prefix the target table less
## the row the pooled source takes.
function check_lengths (m, batch, fname)
  parts = {};
  too_long = false;
  if (isfield (m, "src_pos"))
    limit = rows (m.src_pos);
    too_long = rows (batch.src) > limit;
    parts{end+1} = sprintf ("source <= %d tokens, got %d", limit, rows (batch.src));
  endif
  if (isfield (m, "tgt_pos"))
    k = prefix_rows (m);
    limit = rows (m.tgt_pos) - k;
    too_long = too_long || rows (batch.tgt_in) > limit;
    where = "";
    if (k > 0)
      where = ", position 1 holding the pooled source";
    endif
    parts{end+1} = sprintf ("decoder input <= %d tokens%s, got %d", limit, where,
                            rows (batch.tgt_in));
  endif
  if (too_long)
    error ("attention:size", "%s: sequences must fit the position tables (%s)", fname,
           strjoin (parts, "; "));
  endif
endfunction
