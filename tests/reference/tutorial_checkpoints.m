## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {@var{code} =} tutorial_checkpoints (@var{code}, @var{folder})
## @deftypefnx {} {@var{folder} =} tutorial_checkpoints ()
## The tutorial's Octave @var{code} (a string, or a cell array of strings
## changed one by one) with its folder of downloaded checkpoints,
## @qcode{"checkpoints"} in section 8, replaced by @var{folder}; an error
## when the code names no such folder (the tutorial changed: change this
## too).
##
## Without arguments: a new temporary @var{folder} holding copies of the
## fixture checkpoints of @file{tests/fixtures/import} under the names
## section 8 downloads, for the tests that run the tutorial without the
## real ones: @file{opus-mt-en-fr} (@file{marian-text}), @file{gpt2}
## (@file{gpt2-text}), @file{bert-base-NER} (@file{bert}).  The caller
## removes it.
## @end deftypefn

function out = tutorial_checkpoints (code, folder)
  if (nargin == 0)
    fixtures = fullfile (fileparts (fileparts (mfilename ("fullpath"))), "fixtures", "import");
    out = tempname ();
    names = {"opus-mt-en-fr", "marian-text"; "gpt2", "gpt2-text"; "bert-base-NER", "bert"};
    for k = 1:rows (names)
      mkdir (fullfile (out, names{k,1}));
      copyfile (fullfile (fixtures, names{k,2}, "*"), fullfile (out, names{k,1}));
    endfor
    return;
  endif
  if (iscell (code))
    all_code = strjoin (code, "\n");
  else
    all_code = code;
  endif
  for name = {'"checkpoints"', '"checkpoints/'}
    if (isempty (strfind (all_code, name{1})))
      error ("tutorial_checkpoints: the tutorial has no %s any more", name{1});
    endif
  endfor
  out = regexprep (code, '"checkpoints(["/])', ['"', strrep(folder, '\', '\\'), '$1']);
endfunction
