## arrays = safetensors_data (fid, info, start, where): the arrays that
## safetensors_header described (info, in data order), read from fid as
## little-endian doubles and laid out in Octave's order (the file is
## row-major).  Before anything is read, arrays that would not fit in
## memory are an attention:toolarge error (check_memory, the rule of
## attn_model); a short read is an attention:file error.
function arrays = safetensors_data (fid, info, start, where)
  counts = cellfun (@prod, {info.shape});
  check_memory (sum (counts), max ([0, counts]), where, "the file's arrays", "");
  arrays = cell (1, numel (info));
  for i = 1:numel (info)
    shape = info(i).shape;
    n = prod (shape);
    fseek (fid, start + info(i).offsets(1), SEEK_SET);
    x = fread (fid, n, "double=>double", 0, "ieee-le");
    if (numel (x) != n)
      error ("attention:file", "%s: array \"%s\" could not be read whole (the file changed?)",
             where, info(i).name);
    endif
    if (numel (shape) == 2)
      arrays{i} = reshape (x, shape(2), shape(1)).';
    else
      arrays{i} = permute (reshape (x, fliplr (shape)), numel (shape):-1:1);
    endif
  endfor
endfunction
