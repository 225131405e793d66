## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn  {} {} attn_demo_real_models ()
## @deftypefnx {} {} attn_demo_real_models (@var{folder})
## @deftypefnx {} {} attn_demo_real_models (@dots{}, @var{name}, @var{value})
## @deftypefnx {} {@var{r} =} attn_demo_real_models (@dots{})
## The seeds' sentences through real attention models. Three
## demonstrations on checkpoints downloaded from Hugging Face, each run
## when its checkpoint is there:
##
## @table @asis
## @item @file{opus-mt-en-fr} (Helsinki-NLP/opus-mt-en-fr, Marian)
## seed 004's @qcode{"the black cat"} translated into French; the
## cross-attention of one decoder layer (the last by default), averaged
## over its heads, printed beside seed 004's hand-built grid
## (@code{attn_toy ("blackcat")}): a row per piece written, a column per
## source piece.  Figures: that layer's heads
## (@file{opus_cross.png}) and the hand-built grid (@file{seed004_cross.png}).
## @item @file{gpt2} (GPT-2 small)
## the model on one screen (@code{attn_show}), a prompt continued greedily
## and the explorer page of the prompt and its continuation
## (@file{gpt2_heads.html}: its Model view shows the 12 layers × 12
## heads at once; about 60 MB for 20 tokens).
## @item @file{bert-base-NER} (dslim/bert-base-NER, a BERT token classifier)
## seed 003's @qcode{"Raghav goes to school in Delhi"} labelled, a label
## per WordPiece piece from @file{config.json}'s @code{id2label}, with
## the class probabilities (@file{ner_labels.png}).
## @end table
##
## @var{folder} holds the checkpoints as subfolders named as above (what
## @code{git clone https://huggingface.co/@var{repo}} makes); without it,
## the folder named by the environment variable @env{ATTENTION_CHECKPOINTS},
## else @file{checkpoints} in the current folder.  A checkpoint that is
## not there (or lacks a file it needs) is skipped, with the files it needs
## and three ways to download them: @command{git clone} with git-lfs,
## @command{huggingface-cli download}, or @command{curl} file by file.  The
## files are @file{config.json} and @file{model.safetensors} for each, and
## the tokenizer's: @file{source.spm}, @file{target.spm},
## @file{vocab.json} (Marian); @file{vocab.json}, @file{merges.txt}
## (GPT-2); @file{vocab.txt}, @file{tokenizer_config.json} (BERT).
##
## Options:
## @table @code
## @item marian, gpt2, bert
## the folder of that checkpoint, instead of the subfolder of @var{folder}
## @item source, prompt, sentence
## the texts: @qcode{"the black cat"}, @qcode{"The river bank"} (seed 000's),
## @qcode{"Raghav goes to school in Delhi"}
## @item layer
## the Marian decoder layer whose cross-attention is shown (default: the last)
## @item max_len
## most tokens to write: the translation and the continuation (20)
## @item out
## the folder the figures and the page are written to (the current folder)
## @item figures
## write them (true)
## @end table
##
## @var{r} has a field per demonstration, empty when its checkpoint is
## missing, and @code{missing}, the names of those skipped.
## @code{r.marian}: @code{folder}, @code{source} (the source pieces,
## @code{</s>} appended), @code{written} (the pieces written, @code{</s>}
## last when the model ended), @code{text}, @code{layer}, @code{A}
## (written × source × heads), @code{grid} (the mean of @code{A} over the
## heads), @code{toy_grid}, @code{toy_rows}, @code{toy_cols}, @code{files}.
## @code{r.gpt2}: @code{folder}, @code{prompt} (pieces), @code{ids} (the
## tokens written), @code{text}, @code{summary} (@code{attn_show} of the
## model), @code{files}.  @code{r.bert}: @code{folder}, @code{pieces}
## (@code{[CLS]} first, @code{[SEP]} last), @code{labels}, @code{probs}
## (pieces × classes), @code{classes}, @code{files}.
##
## @example
## @group
## r = attn_demo_real_models (tempname ());
## @print{} Real models, looked for in ...
## strjoin (r.missing)
## @result{} ans = opus-mt-en-fr gpt2 bert-base-NER
## @end group
## @end example
## @seealso{attn_import, attn_tokenize, attn_demo_black_cat, attn_demo_applications, attn_explore}
## @end deftypefn

function varargout = attn_demo_real_models (varargin)
  folder = getenv ("ATTENTION_CHECKPOINTS");
  if (isempty (folder))
    folder = "checkpoints";
  endif
  args = varargin;
  if (mod (numel (args), 2) == 1)
    folder = args{1};
    args(1) = [];
  endif
  if (! ischar (folder) || rows (folder) > 1)
    error ("attention:type", "attn_demo_real_models: FOLDER must be a string");
  endif
  folder = make_absolute_filename (tilde_expand (folder));
  o = parse_options ("attn_demo_real_models",
                     {"marian", "", "text"; "gpt2", "", "text"; "bert", "", "text";
                      "source", "the black cat", "text";
                      "prompt", "The river bank", "text";
                      "sentence", "Raghav goes to school in Delhi", "text";
                      "layer", 0, "integer [0, Inf)";
                      "max_len", 20, "integer [1, Inf)";
                      "out", pwd(), "text"; "figures", true, "flag"}, args);
  ## name, repository, files, size of the download, what it shows, option
  demos = {"opus-mt-en-fr", "Helsinki-NLP/opus-mt-en-fr", ...
           {"config.json", "model.safetensors", "source.spm", "target.spm", "vocab.json"}, ...
           "300 MB", "seed 004's sentence translated", "marian", @demo_marian;
           "gpt2", "openai-community/gpt2", ...
           {"config.json", "model.safetensors", "vocab.json", "merges.txt"}, ...
           "550 MB", "a prompt continued, its heads in the browser", "gpt2", @demo_gpt2;
           "bert-base-NER", "dslim/bert-base-NER", ...
           {"config.json", "model.safetensors", "vocab.txt", "tokenizer_config.json"}, ...
           "430 MB", "seed 003's sentence labelled", "bert", @demo_bert};
  printf ("Real models, looked for in %s\n", folder);
  printf ("(a folder as argument, or the environment variable ATTENTION_CHECKPOINTS, changes it)\n\n");
  r = struct ("marian", [], "gpt2", [], "bert", [], "missing", {{}});
  for k = 1:rows (demos)
    [name, repo, files, size_, what, key, run] = demos{k,:};
    dir_ = o.(key);
    if (isempty (dir_))
      dir_ = fullfile (folder, name);
    endif
    dir_ = make_absolute_filename (tilde_expand (dir_));
    why = missing_files (dir_, files);
    if (! isempty (why))
      r.missing{end+1} = name;
      say_missing (name, repo, files, size_, what, dir_, why);
      continue;
    endif
    printf ("== %s (%s): %s\n", name, repo, what);
    r.(key) = run (dir_, o);
    printf ("\n");
  endfor
  if (isempty (r.missing))
    printf ("All three checkpoints were found.\n");
  endif
  if (nargout > 0)                   # called by name: no ans of the result
    varargout{1} = r;
  endif
endfunction

## Why the checkpoint in DIR cannot be read ("" when it can): a file
## missing, or a Git LFS pointer where the weights should be.
function why = missing_files (dir_, files)
  why = "";
  if (! isfolder (dir_))
    why = "no such folder";
    return;
  endif
  absent = files(! cellfun (@(f) isfile (fullfile (dir_, f)), files));
  if (any (strcmp (absent, "model.safetensors"))
      && isfile (fullfile (dir_, "model.safetensors.index.json")))
    absent(strcmp (absent, "model.safetensors")) = [];      # sharded weights
  endif
  if (! isempty (absent))
    why = ["it has no " strjoin(absent, ", ")];
    if (any (strcmp (absent, "model.safetensors")) && isfile (fullfile (dir_, "pytorch_model.bin")))
      why = [why, sprintf("\n    (it has pytorch_model.bin: convert it once, in that folder, with\n", ...
                          "     python3 -c \"import torch; from safetensors.torch import save_file; ", ...
                          "s = torch.load('pytorch_model.bin', map_location='cpu'); ", ...
                          "save_file({k: v.contiguous().clone() for k, v in s.items()}, ", ...
                          "'model.safetensors', {'format': 'pt'})\")")];
    endif
    return;
  endif
  fid = fopen (fullfile (dir_, "model.safetensors"), "r");
  if (fid >= 0)
    head = fread (fid, [1 40], "char=>char");
    fclose (fid);
    if (strncmp (head, "version https://git-lfs", 23))
      why = "its model.safetensors is a Git LFS pointer, not the weights: run git lfs pull in that folder";
    endif
  endif
endfunction

function say_missing (name, repo, files, size_, what, dir_, why)
  url = ["https://huggingface.co/" repo];
  printf ("-- %s (%s, %s) skipped: %s\n", name, what, dir_, why);
  printf ("   It needs %s (about %s). Get them with one of:\n", strjoin (files, ", "), size_);
  printf ("     git lfs install && git clone %s %s\n", url, dir_);
  printf ("     huggingface-cli download %s %s --local-dir %s\n", repo, strjoin (files, " "), dir_);
  printf ("     for f in %s; do curl -L --create-dirs -o %s/$f %s/resolve/main/$f; done\n\n",
          strjoin (files, " "), dir_, url);
endfunction

## ------------------------------------------------------------------
## the three demonstrations: each prints and returns what it showed

function d = demo_marian (dir_, o)
  [m, tok] = attn_import (dir_);
  ids = attn_tokenize (tok, o.source);
  limit = min (o.max_len, m.config.max_len - 1);     # the forward below reads <bos> too
  [~, info] = attn_greedy (m, ids, "max_len", limit);
  ended = strcmp (info.stopped, "eos");
  written = info.ids(1:end - ended);                # without </s>
  d.folder = dir_;
  d.text = strtrim (attn_detokenize (tok, written));
  printf ("%s -> %s\n", o.source, d.text);
  ## the decoder reads <bos> and what it wrote, each row writing the next
  tr = attn_forward (m, ids, [m.tgt_vocab.bos, info.ids(1:end-1)]);
  d.layer = o.layer;
  if (d.layer == 0)
    d.layer = numel (tr.decoder);
  elseif (d.layer > numel (tr.decoder))
    error ("attention:option", "attn_demo_real_models: option \"layer\" is %d; the decoder has %d layers",
           d.layer, numel (tr.decoder));
  endif
  d.source = tr.source_labels(:)';
  d.written = tr.written_labels(:)';
  d.A = tr.decoder(d.layer).cross.A;
  d.grid = mean (d.A, 3);
  field = sprintf ("decoder(%d).cross.A", d.layer);
  printf ("The pieces the tokenizer made: %s\n", strjoin (d.source, " "));
  printf ("%s averaged over its %d heads (a row per piece written, as in seed 004):\n",
          field, size (d.A, 3));
  show (d.grid, d.written, d.source, [field " (mean of the heads)"], "decimals", 2,
        "axes", {"piece written", "source"});
  toy = attn_toy ("blackcat");
  [~, t] = attn_greedy (toy, "the black cat");
  d.toy_grid = t.A(:,:,1,1);
  d.toy_rows = t.tokens;
  d.toy_cols = t.source_labels(:)';
  printf ("Seed 004's hand-built grid, the same sentence (attn_toy (\"blackcat\")):\n");
  show (d.toy_grid, d.toy_rows, d.toy_cols, "cross.A", "decimals", 2,
        "axes", {"word written", "source"});
  printf ("Seed 004's model reads one role a step by construction; the trained one's\n");
  printf ("heads and layers each read their own way (option \"layer\", 1 to %d).\n", numel (tr.decoder));
  d.files = {};
  if (o.figures)
    d.files = {fullfile(o.out, "opus_cross.png"), fullfile(o.out, "seed004_cross.png")};
    attn_heatmap (tr, field, "file", d.files{1});
    attn_heatmap (d.toy_grid, d.toy_rows, d.toy_cols, "seed 004: the black cat -> le chat noir",
                  "axes", {"word written", "source"}, "file", d.files{2});
    printf ("Figures: %s (one panel per head), %s\n", d.files{:});
  endif
endfunction

function d = demo_gpt2 (dir_, o)
  [m, tok] = attn_import (dir_);
  d.folder = dir_;
  d.summary = attn_show (m);
  printf ("%s", d.summary);
  [ids, d.prompt] = attn_tokenize (tok, o.prompt);
  limit = max (0, min (o.max_len, m.config.max_len - numel (ids) - 1));
  [~, info] = attn_continue (m, ids, "max_len", limit);
  d.ids = info.ids;
  d.text = attn_detokenize (tok, [ids, d.ids]);
  printf ("The prompt's pieces: %s\n", strjoin (strcat ("\"", d.prompt, "\""), " "));
  printf ("Continued (greedy): %s\n", d.text);
  d.files = {};
  if (o.figures)
    d.files = {fullfile(o.out, "gpt2_heads.html")};
    attn_explore (m, [ids, d.ids], "file", d.files{1}, "decode", false,
                  "title", "GPT-2: the prompt and its continuation");
    printf ("Its heads: open %s in a browser (Model: every layer and head at once)\n", d.files{1});
  endif
endfunction

function d = demo_bert (dir_, o)
  [m, tok] = attn_import (dir_);
  d.folder = dir_;
  special = @(p) find (strcmp (tok.pieces, p), 1);
  ids = [special("[CLS]"), attn_tokenize(tok, o.sentence), special("[SEP]")];
  tr = attn_forward (m, ids);
  d.pieces = tr.source_labels(:)';
  d.classes = m.tgt_vocab.words;
  d.probs = tr.probs;
  [~, best] = max (tr.probs, [], 2);
  d.labels = d.classes(best);
  printf ("%s: a label per piece ([CLS] and [SEP] added as BERT reads a sentence)\n", o.sentence);
  show (d.probs, d.pieces, d.classes, "probs", "decimals", 2, "axes", {"piece", "label"});
  printf ("%s\n", strjoin (strcat (d.pieces, "/", d.labels), "  "));
  d.files = {};
  if (o.figures)
    d.files = {fullfile(o.out, "ner_labels.png")};
    attn_heatmap (d.probs, d.pieces, d.classes, "the label probabilities of each piece",
                  "axes", {"piece", "label"}, "file", d.files{1});
    printf ("Figure: %s\n", d.files{1});
  endif
endfunction

function show (varargin)
  printf ("%s\n", attn_show (varargin{:}));
endfunction

%!demo
%! attn_demo_real_models ();

%!test
%! ## no checkpoints: each demonstration skipped, saying what it needs and
%! ## how to download it, without an error
%! d = tempname ();
%! [out, r] = evalc ("attn_demo_real_models (d)");
%! assert (r.missing, {"opus-mt-en-fr", "gpt2", "bert-base-NER"});
%! assert (isempty (r.marian) && isempty (r.gpt2) && isempty (r.bert));
%! assert (! isempty (strfind (out, ["Real models, looked for in " d])));
%! need = {"Helsinki-NLP/opus-mt-en-fr", "opus-mt-en-fr", "config.json model.safetensors source.spm target.spm vocab.json";
%!         "openai-community/gpt2", "gpt2", "config.json model.safetensors vocab.json merges.txt";
%!         "dslim/bert-base-NER", "bert-base-NER", "config.json model.safetensors vocab.txt tokenizer_config.json"};
%! for k = 1:rows (need)
%!   [repo, sub, files] = need{k,:};
%!   at = fullfile (d, sub);
%!   assert (! isempty (strfind (out, sprintf ("-- %s (", sub))));
%!   assert (! isempty (strfind (out, sprintf ("git clone https://huggingface.co/%s %s\n", repo, at))));
%!   assert (! isempty (strfind (out, sprintf ("huggingface-cli download %s %s --local-dir %s\n", repo, files, at))));
%!   assert (! isempty (strfind (out, sprintf ("for f in %s; do curl -L --create-dirs -o %s/$f https://huggingface.co/%s/resolve/main/$f; done",
%!                                             files, at, repo))));
%! endfor
%! assert (isempty (strfind (out, "All three")));
%! ## called by name: no ans
%! out = evalc ("attn_demo_real_models (d)");
%! assert (isempty (strfind (out, "ans =")));

%!test
%! ## the folder of ATTENTION_CHECKPOINTS, else ./checkpoints
%! old = getenv ("ATTENTION_CHECKPOINTS");
%! d = tempname ();
%! unwind_protect
%!   setenv ("ATTENTION_CHECKPOINTS", d);
%!   assert (! isempty (strfind (evalc ("attn_demo_real_models ()"), ["looked for in " d "\n"])));
%!   unsetenv ("ATTENTION_CHECKPOINTS");
%!   assert (! isempty (strfind (evalc ("attn_demo_real_models ()"),
%!                               ["looked for in " fullfile(pwd (), "checkpoints") "\n"])));
%! unwind_protect_cleanup
%!   setenv ("ATTENTION_CHECKPOINTS", old);
%! end_unwind_protect

%!test
%! ## a clone without git-lfs (pointer files) and a folder with PyTorch's
%! ## weights only are skipped, saying what to do
%! d = tempname ();
%! mkdir (fullfile (d, "gpt2"));
%! mkdir (fullfile (d, "bert-base-NER"));
%! unwind_protect
%!   for f = {"config.json", "vocab.json", "merges.txt"}
%!     fclose (fopen (fullfile (d, "gpt2", f{1}), "w"));
%!   endfor
%!   fid = fopen (fullfile (d, "gpt2", "model.safetensors"), "w");
%!   fputs (fid, "version https://git-lfs.github.com/spec/v1\noid sha256:0\nsize 548105171\n");
%!   fclose (fid);
%!   for f = {"config.json", "vocab.txt", "tokenizer_config.json", "pytorch_model.bin"}
%!     fclose (fopen (fullfile (d, "bert-base-NER", f{1}), "w"));
%!   endfor
%!   [out, r] = evalc ("attn_demo_real_models (d)");
%!   assert (r.missing, {"opus-mt-en-fr", "gpt2", "bert-base-NER"});
%!   assert (! isempty (strfind (out, "its model.safetensors is a Git LFS pointer, not the weights: run git lfs pull")));
%!   assert (! isempty (strfind (out, "skipped: it has no model.safetensors\n    (it has pytorch_model.bin: convert it")));
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (d, "s");
%! end_unwind_protect

%!error id=attention:type attn_demo_real_models (3)
%!error id=attention:option attn_demo_real_models (tempname (), "layre", 2)
