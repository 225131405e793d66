## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {@var{code} =} tutorial_shorten (@var{code})
## The tutorial's Octave @var{code} (a string, or a cell array of strings
## changed one by one) with short training runs, for the tests that run
## it: section 4's translation model on 150 pairs for one epoch instead of
## 1,000 pairs for eight, section 7's language model on 300 stories for one
## epoch instead of 60,000 for four, measured on 50 validation and 50
## test stories instead of 200 each.  What the tests check is that the
## commands work and print what the tutorial says they print, not how well
## a short run learns.  An error when the code lacks one of the runs it
## shortens (the tutorial changed: change this too).
## @end deftypefn

function code = tutorial_shorten (code)
  if (iscell (code))
    all_code = strjoin (code, "\n");
  else
    all_code = code;
  endif
  swaps = {'"n_train", 1000',  '"n_train", 150';
           '"epochs", 8',      '"epochs", 1';
           '"n_train", 60000', '"n_train", 300';
           '"n_valid", 200, "n_test", 200', '"n_valid", 50, "n_test", 50';
           '"epochs", 4',      '"epochs", 1'};
  for i = 1:rows (swaps)
    if (isempty (strfind (all_code, swaps{i,1})))
      error ("tutorial_shorten: the tutorial has no %s any more", swaps{i,1});
    endif
  endfor
  for i = 1:rows (swaps)
    code = strrep (code, swaps{i,1}, swaps{i,2});
  endfor
endfunction
