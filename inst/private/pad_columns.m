## [X, allow] = pad_columns (seqs, fill): 1×N cell of id rows -> X n×N (one
## sequence per column, n the longest, the rest filled with id `fill`) and
## allow n×N logical (true = real token).  n is at least 1: a batch of
## empty sentences is one row of padding (allow false), so every array of
## the pass keeps its batch dimension.
function [X, allow] = pad_columns (seqs, fill)
  len = cellfun (@numel, seqs);
  n = max ([len, 1]);
  allow = (1:n)' <= len;
  X = repmat (fill, n, numel (seqs));
  X(allow) = [seqs{:}];
endfunction
