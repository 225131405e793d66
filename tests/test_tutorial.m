## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## Every Octave command of doc/tutorial.md runs, in order, in one session.
## The training runs are shortened (tests/reference/tutorial_shorten.m):
## what is checked is that the commands work and print what the text says
## they print (tests/reference/tutorial_check_outputs.m), not how well the
## short runs translate.

%!function outs__ = run_tutorial_blocks (blocks__)
%!  ## in a function of its own: the tutorial's variables stay here; one
%!  ## block at a time, each block's printed text kept
%!  outs__ = cell (size (blocks__));
%!  for k__ = 1:numel (blocks__)
%!    outs__{k__} = evalc (blocks__{k__});
%!  endfor
%!endfunction

%!test
%! blocks = tutorial_blocks (fileread (tutorial_file ()));
%! assert (numel (blocks) >= 15);
%! ## the package is already on the path
%! blocks = strrep (blocks, 'addpath ([pwd "/src"], [pwd "/inst"]);', "");
%! ## short training runs: section 4's translation model, section 7's
%! ## language model (its many stories and epochs take minutes)
%! blocks = tutorial_shorten (blocks);
%! ## section 8's checkpoints: the fixtures in the published layouts (the
%! ## real ones: the testif below)
%! ck = tutorial_checkpoints ();
%! blocks = tutorial_checkpoints (blocks, ck);
%! old = pwd ();
%! dir = tempname ();
%! mkdir (dir);
%! unwind_protect
%!   cd (dir);
%!   outs = run_tutorial_blocks (blocks);
%!   tutorial_check_outputs (blocks, outs);
%!   ## the checks catch a wrong translation and a wrong weight
%!   for bad = {{"text = le chat noir", "text = le chien noir"}, {"0.61   0.08\n", "0.62   0.08\n"}}
%!     wrong = strrep (outs, bad{1}{:});
%!     assert (! isequal (wrong, outs));
%!     try
%!       tutorial_check_outputs (blocks, wrong);
%!       error ("not caught: %s", bad{1}{2});
%!     catch err
%!       assert (isempty (strfind (err.message, "not caught")), err.message);
%!     end_try_catch
%!   endfor
%!   for png = {"alignment.png", "loss.png", "cross_layer2.png", "encoder_layer1.png", "lm_loss.png", ...
%!              "opus_cross.png", "seed004_cross.png", "ner_labels.png", "gpt2_heads.html"}
%!     assert (exist (fullfile (dir, png{1}), "file"), 2);
%!   endfor
%! unwind_protect_cleanup
%!   cd (old);
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (dir, "s");
%!   rmdir (ck, "s");
%! end_unwind_protect

%!function ok = real_checkpoints ()
%!  d = getenv ("ATTENTION_CHECKPOINTS");
%!  ok = ! isempty (d) && all (cellfun (@(s) isfile (fullfile (d, s, "model.safetensors")),
%!                                      {"opus-mt-en-fr", "gpt2", "bert-base-NER"}));
%!endfunction

%!testif ; real_checkpoints ()
%! ## section 8 on the real checkpoints (ATTENTION_CHECKPOINTS): the black
%! ## cat in French, Raghav a person, Delhi a place
%! text = fileread (tutorial_file ());
%! blocks = tutorial_blocks (text(strfind (text, "## 8. Opening real models"):end));
%! assert (numel (blocks), 5);
%! blocks = tutorial_checkpoints (blocks, getenv ("ATTENTION_CHECKPOINTS"));
%! old = pwd ();
%! dir = tempname ();
%! mkdir (dir);
%! unwind_protect
%!   cd (dir);
%!   outs = run_tutorial_blocks (blocks);
%! unwind_protect_cleanup
%!   cd (old);
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (dir, "s");
%! end_unwind_protect
%! assert (isempty (regexp ([outs{:}], '(?m)^error: ', "once")));
%! assert (! isempty (strfind (outs{1}, "All three checkpoints were found.")));
%! assert (! isempty (regexpi (outs{2}, '(?m)^ans = le chat noir', "once")), outs{2});
%! assert (! isempty (regexp (outs{5}, '\[2,2\] = B-PER', "once")), outs{5});
%! k = regexp (outs{5}, '\[(\d+),1\] = Del', "tokens", "once"){1};   # Delhi's first piece
%! assert (! isempty (strfind (outs{5}, sprintf ("[%s,2] = B-LOC\n", k))), outs{5});

%!test
%! ## one black cat: make demo's step and grid are seed 004's numbers and
%! ## those of attn_toy ("blackcat"), which the tutorial shows
%! out = evalc ("run (tutorial_file (\"attention_demo.m\"))");
%! w = str2double (strsplit (regexp (out, 'softmax weights +\[([^\]]*)\]', "tokens", "once"){1}));
%! assert (w, [0.08 0.22 0.61 0.08]);             # seed 004's softmax row
%! assert (! isempty (regexp (out, 'scores q\*K'' +\[0 2 4 0\]')));
%! assert (isempty (strfind (out, "<end>")));
%! ## it ends by saying where to go next
%! assert (! isempty (regexp (out, 'Next: doc/tutorial\.md.*lookfor attention lists every function\.\n$')));
%! [text, info] = attn_greedy (attn_toy ("blackcat"), "the black cat");
%! assert (text, "le chat noir");
%! for i = 1:numel (info.tokens)
%!   row = regexp (out, ['\n +', regexptranslate("escape", info.tokens{i}), '((?: +[\d.]+){4})\n'],
%!                 "tokens", "once");
%!   assert (str2double (strsplit (strtrim (row{1}))), round (100 * info.A(i,:,1,1)) / 100);
%! endfor
%! ## the tutorial states the same row
%! assert (! isempty (strfind (fileread (tutorial_file ()), "[0.08 0.22 0.61 0.08]")));

%!test
%! ## section 1's claims: the raw scores the tutorial prints are seed 004's
%! ## [0 2 4 0]; the source rows hold role and meaning, W_K twice the role,
%! ## W_V the meaning, as the paragraph after them says
%! text = fileread (tutorial_file ());
%! for cmd = {"q = tr.decoder(1).cross.Q(end, :);", "K = tr.decoder(1).cross.K;", "q * K'", ...
%!            "attn_show (m.src_embed, m.src_vocab.words, [], \"m.src_embed\", \"decimals\", 0)"}
%!   assert (! isempty (strfind (text, cmd{1})), cmd{1});
%! endfor
%! m = attn_toy ("blackcat");
%! tr = attn_forward (m, "the black cat", "<bos> le");
%! q = tr.decoder(1).cross.Q(end, :);
%! assert (q * tr.decoder(1).cross.K', [0 2 4 0], 1e-12);
%! E = m.src_embed;
%! row = @(w) E(strcmp (m.src_vocab.words, w), :);
%! assert (find (row ("the")(1:4)), 1);             # role det in column 1
%! assert (find (row ("black")(1:4)), 2);           # adj in column 2
%! assert (find (row ("cat")(5:10)) + 4, 6);        # meaning chat in column 6
%! french = m.tgt_vocab.words(m.tgt_vocab.bos+1:end);
%! assert (french{6 - 4}, "chat");
%! assert (m.decoder(1).cross.W_K, [2 * eye(4); zeros(6, 4)]);
%! assert (m.decoder(1).cross.W_V, [zeros(4, 6); eye(6)]);
