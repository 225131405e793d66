## s = family_names (builder): the families the function builder
## ("attn_model" or "attn_family") builds, quoted and comma separated, as
## error messages list them (model_family's table).
function s = family_names (builder)
  T = model_family ();
  s = strjoin (strcat ("\"", {T(strcmp ({T.builder}, builder)).name}, "\""), ", ");
endfunction
