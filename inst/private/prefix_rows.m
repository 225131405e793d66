## k = prefix_rows (m): decoder rows before the first target row: 1 when
## the family's pooled source takes position 1 (pool rule "prefix",
## model_family), 0 for every other model.
function k = prefix_rows (m)
  k = double (strcmp (model_family (m).pool, "prefix"));
endfunction
