## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {} tutorial_check_outputs (@var{blocks}, @var{outs})
## Check what the tutorial's code printed against what its text says it
## prints.  @var{blocks} are the tutorial's Octave blocks (as
## @code{tutorial_blocks} returns them, shortened or not), @var{outs} the
## text each printed, one string per block (carriage returns and terminal
## escape sequences are ignored).  Used by @file{tests/test_tutorial.m}
## (the blocks run at the prompt) and @file{tests/test_notebook.m} (the
## same blocks as notebook cells).  An error naming the first claim that
## does not hold; a claim whose block is gone from the tutorial is an
## error too (change this file with the tutorial).
##
## The claims hold for the shortened training runs too: the numbers of
## sections 1 to 3 (hand-built and fitted models), and for sections 4, 7
## and 8 (whose checkpoints may be the test fixtures) that the lines the
## text describes come out, not their values.
## @end deftypefn

function tutorial_check_outputs (blocks, outs)
  assert (numel (outs), numel (blocks));
  outs = cellfun (@clean, outs, "UniformOutput", false);
  for k = 1:numel (outs)
    msg = regexp (outs{k}, '(?m)^error: ([^\n]*)', "tokens", "once");
    if (! isempty (msg))
      error ("tutorial_check_outputs: block %d failed: %s", k, msg{1});
    endif
  endfor
  out = @(code) outs{find_block(blocks, code)};

  ## section 1: the black cat, seed 004's numbers
  o = out ('[text, info] = attn_greedy (m, "the black cat")');
  expect (o, '(?m)^text = le chat noir$', "the black cat translates to le chat noir");
  expect (o, 'ans =\s+1\s+4\s', "one encoder pass, four decoder steps");
  o = out ('"decoder(1).cross.A", "last", true');
  assert (shown_row (o, "decoder(1).cross.Q", "chat"), [0 1 2 0]);
  assert (shown_row (o, "decoder(1).cross.scores", "chat"), [0 1 2 0]);
  assert (shown_row (o, "decoder(1).cross.A", "chat"), [0.08 0.22 0.61 0.08]);
  expect (out ("q * K'"), 'ans =\s+0\s+2\s+4\s+0\s', "raw scores q*K' = [0 2 4 0]");
  expect (out ("attn_walkthrough"), 'Greedy choice after "le": chat ', "the walkthrough chooses chat");
  expect (out ('attn_greedy (m, "the white dog")'), '(?m)^ans = le chien blanc$',
          "the white dog translates to le chien blanc");
  o = out ('grid = info.A(:, :, 1, 1);');
  [~, j] = max (shown_row (o, "cross.A", "chat"));
  assert (j == 3, "chat reads cat (column 3)");
  [~, j] = max (shown_row (o, "cross.A", "noir"));
  assert (j == 2, "noir reads black (column 2)");

  ## section 2: a key mask and the causal mask put weight 0
  for i = 1:3
    row = shown_row (out ("logical ([1 1 1 0 0]')"), "cross.A", sprintf ("%d", i));
    assert (all (row(4:5) == 0), "masked keys 4 and 5 of row %d", i);
    row = shown_row (out ("attn_masked (D, B)"), "masked.A", sprintf ("%d", i));
    assert (all (row(i+1:end) == 0), "row %d reads rows 1...%d only", i, i);
  endfor

  ## section 3: the river bank
  o = out ('attn_greedy (r, "the river bank")');
  expect (o, '(?m)^ans = la rive$', "the river bank translates to la rive");
  expect (o, '(?m)^ans = la banque$', "the financial bank translates to la banque");
  expect (out ('size (info.trace.decoder(1).cross.A)'), 'ans =\s+3\s+4\s',
          "3 target rows × 4 source positions");
  o = out ("attn_gradcheck");
  expect (o, 'all 18 parameters agree', "the gradient check agrees");
  assert (numel (regexp (o, '(?m) ok$')) == 18, "one ok line per learned array");
  expect (out ("attn_sgd (r, G, 0.1)"), '(?m)^ans = 1$', "one step lowers the loss");

  ## section 4: the trained model's lines (not their values: the run may
  ## have been shortened)
  expect (out ('attn_plot_loss (hist, "file", "loss.png"'), '(?m)^epoch 1/\d+  loss \d',
          "attn_train prints a line per epoch");
  expect (out ("exact match on the test set"), 'exact match on the test set: \d+ of 50',
          "the test set's exact match");
  o = out ('attn_heatmap (tr, "decoder(2).cross.A"');
  expect (o, 'decoder\(2\)\.cross\.A  \(\d+×\d+: word written × source\)  head 1',
          "head 1's cross-attention table");

  ## section 5
  expect (out ("attn_compare (T, T2"), '(?m)^ok = 1$', "Q, K and V do not depend on the mask");

  ## section 7
  expect (out ("attn_corpus_lm"), 'held-out answers right: [01]\.\d{3} \(guessing a name or place of the asked kind: 0\.\d{3}\)',
          "the held-out answers line");
  o = out ("layer 2, the ? row");
  expect (o, 'layer 2, the \? row  \(\d+×4\)\n +head 1  head 2  head 3  head 4\n<bos> ',
          "the ? row, token × head");
  expect (o, '(?m)^\? +[01]\.\d\d +[01]\.\d\d +[01]\.\d\d +[01]\.\d\d$', "the ? row reads itself");
  o = out ("attn_ablate");
  expect (o, 'layer 2 heads off   who \(\d+\)  where \(\d+\)', "the ablation table's header");
  for heads = {"none", "1", "2", "3", "4", "2  3", "1  2  3", "1  2  3  4"}
    expect (o, ['(?m)^', heads{1}, ' +[01]\.\d{3}     [01]\.\d{3}$'],
            ["an ablation row for heads ", heads{1}]);
  endfor

  ## section 8 (real checkpoints, or the fixtures in their layouts): what
  ## is printed, not what the models say
  expect (out ("r = attn_demo_real_models ("), "All three checkpoints were found.",
          "the three demonstrations ran");
  expect (out ("attn_show (mean (A, 3)"), 'last layer, mean of the heads  \(\d+×\d+: piece written × source\)',
          "the cross-attention grid, a row per piece written");
  expect (out ('attn_tokenize(tok, "Raghav goes to school in Delhi")'), '\[1,1\] = \[CLS\]',
          "the tagger's pieces and labels");
endfunction

## Without carriage returns and terminal escape sequences (a notebook
## kernel's output has both).
function t = clean (t)
  t = regexprep (t, '\x1b\[[0-9;?]*[A-Za-z]', "");
  t = strrep (t, "\r", "");
endfunction

function k = find_block (blocks, code)
  k = find (! cellfun (@isempty, strfind (blocks, code)));
  if (numel (k) != 1)
    error ("tutorial_check_outputs: %d tutorial blocks hold %s (expected one)",
           numel (k), code);
  endif
endfunction

function expect (text, pattern, what)
  if (isempty (regexp (text, pattern, "once")))
    error ("tutorial_check_outputs: %s: no match for %s in:\n%s", what, pattern, text);
  endif
endfunction

%!error <block 1 failed: 'y' undefined$> tutorial_check_outputs ({"x = 1"}, {"\r\nerror: 'y' undefined\r\n"})
%!error <0 tutorial blocks hold> tutorial_check_outputs ({"x = 1"}, {"x = 1\n"})
