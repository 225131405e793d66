## n = safetensors_limit (): the most bytes a safetensors header may have
## here (1 MiB: room for vocabularies of tens of thousands of words).  The
## reader refuses longer headers before reading them, which keeps every
## refusal well under a second; the writer refuses to write one.
function n = safetensors_limit ()
  n = 2^20;
endfunction
