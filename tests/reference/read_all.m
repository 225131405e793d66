## t = read_all (f): the text of the file F, or "" when it cannot be opened
## (for the grading tests, which read files a run may or may not write).
function t = read_all (f)
  t = "";
  fid = fopen (f, "r");
  if (fid >= 0)
    t = fread (fid, [1, Inf], "char=>char");
    fclose (fid);
  endif
endfunction
