## tf = tok_space (cp): true for the code points with Unicode's White_Space
## property (what \s matches in the tokenizers' reference implementations).
function tf = tok_space (cp)
  tf = (cp >= 9 & cp <= 13) | cp == 32 | cp == 133 | cp == 160 | cp == 5760 ...
       | (cp >= 8192 & cp <= 8202) | cp == 8232 | cp == 8233 | cp == 8239 ...
       | cp == 8287 | cp == 12288;
endfunction
