## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {@var{blocks} =} tutorial_blocks (@var{text})
## The @samp{```octave} blocks of the tutorial's Markdown @var{text}, in
## order, as a cell array of strings (each ending with its last newline).
## @end deftypefn

function blocks = tutorial_blocks (text)
  blocks = regexp (text, '```octave\n(.*?)```', "tokens");
  blocks = cellfun (@(b) b{1}, blocks, "UniformOutput", false);
endfunction
