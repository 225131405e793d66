## k = prefix_rows (m): decoder rows before the first target row: 1 for a
## pooled-prefix model (attn_family: the source vector takes position 1),
## 0 for every other model.
function k = prefix_rows (m)
  k = double (strcmp (field_or_empty (m.config, "family"), "pooled-prefix"));
endfunction
