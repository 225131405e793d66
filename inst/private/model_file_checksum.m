## block = model_file_checksum (body): the text that ends a model file of
## attn_save, an Octave text-format string variable attention_checksum
## holding the SHA-256 (64 hex digits) of body, every byte before it.
function block = model_file_checksum (body)
  block = ["# name: attention_checksum\n# type: string\n# elements: 1\n", ...
           "# length: 64\n" hash("sha256", body) "\n\n\n"];
endfunction
