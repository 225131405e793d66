## text = file_text (name): the bytes of the file NAME as a char row, or ""
## when it cannot be opened (a /proc or cgroup file this machine lacks).
function text = file_text (name)
  text = "";
  fid = fopen (name, "r");
  if (fid >= 0)
    text = fread (fid, [1, Inf], "char=>char");
    fclose (fid);
  endif
endfunction
