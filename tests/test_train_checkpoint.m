## attn_train's checkpoints: an interrupted run (a real SIGINT sent to a
## child octave-cli) continued from its checkpoint ends with the model and
## the losses of the same run uninterrupted, bit for bit; a checkpoint is a
## data-only safetensors file, read strictly; it only continues its own run.

%!shared folder, corpus, m, opts
%! folder = tempname ();
%! mkdir (folder);
%! rand ("seed", 11);
%! en = {"the", "black", "white", "cat", "dog", "sees", "a", "big"};
%! fr = {"le", "noir", "blanc", "chat", "chien", "voit", "un", "grand"};
%! corpus = cell (40, 2);
%! for i = 1:rows (corpus)
%!   k = randi (numel (en), 1, randi ([2 6]));
%!   corpus(i,:) = {strjoin(en(k), " "), strjoin(fr(k), " ")};
%! endfor
%! m = attn_model (struct ("src_vocab", {en}, "tgt_vocab", {fr}, "d", 8, "heads", 2, "d_ff", 8,
%!                         "encoder_layers", 1, "decoder_layers", 1, "norm", "pre", "seed", 2));
%! opts = {"batch_size", 4, "seed", 5, "lr", 0.01, "verbose", false};

## the header of a safetensors file and the offset of its first data byte
%!function [h, start] = header (f)
%!  fid = fopen (f, "r");
%!  n = fread (fid, 1, "uint64", 0, "ieee-le");
%!  h = jsondecode (fread (fid, n, "uint8=>char")', "makeValidName", false);
%!  fclose (fid);
%!  start = 8 + n;
%!endfunction

## the array name of the checkpoint f (read here byte by byte)
%!function x = array (f, name)
%!  [h, start] = header (f);
%!  e = h.(name);
%!  fid = fopen (f, "r");
%!  fseek (fid, start + e.data_offsets(1), SEEK_SET);
%!  x = fread (fid, prod (e.shape), "double", 0, "ieee-le");
%!  fclose (fid);
%!endfunction

## overwrite the first doubles of array name in f with x
%!function poke (f, name, x)
%!  [h, start] = header (f);
%!  fid = fopen (f, "r+");
%!  fseek (fid, start + h.(name).data_offsets(1), SEEK_SET);
%!  fwrite (fid, x, "double", 0, "ieee-le");
%!  fclose (fid);
%!endfunction

%!function [pid, log] = spawn (code)
%!  script = child_script (code);
%!  log = [script ".log"];
%!  pid = str2double (nthargout (2, @system, sprintf (
%!    "OMP_NUM_THREADS=1 octave-cli --no-history --no-gui %s > %s 2>&1 & echo $!", script, log)));
%!endfunction

## attn_train continuing the checkpoint f: an attention:file error saying why
%!function refused (m, corpus, opts, f, why)
%!  try
%!    attn_train (m, corpus, "epochs", 2, opts{:}, "checkpoint", f);
%!    error ("no error");
%!  catch err
%!    assert (err.identifier, "attention:file", err.message);
%!    assert (! isempty (strfind (err.message, why)), err.message);
%!  end_try_catch
%!endfunction

%!function wait_exit (pid)
%!  for k = 1:600
%!    if (system (sprintf ("kill -0 %d 2>/dev/null", pid)) != 0)
%!      return;
%!    endif
%!    pause (0.05);
%!  endfor
%!  error ("the child %d did not end", pid);
%!endfunction

%!test
%! ## Ctrl-C in mid-run: the checkpoint holds the steps done; continued,
%! ## the run ends where the uninterrupted one does
%! f = fullfile (folder, "run.safetensors");
%! args = sprintf ("%s, ", opts{1:end-2});
%! code = sprintf (["rand ('seed', 11); %s\n", ...
%!                  "m = attn_model (struct ('src_vocab', {en}, 'tgt_vocab', {fr}, 'd', 8, 'heads', 2, 'd_ff', 8, ", ...
%!                  "'encoder_layers', 1, 'decoder_layers', 1, 'norm', 'pre', 'seed', 2));\n", ...
%!                  "attn_train (m, c, 'epochs', 30, 'batch_size', 4, 'seed', 5, 'lr', 0.01, 'verbose', false, ", ...
%!                  "'checkpoint', '%s', 'checkpoint_every', 1);\n"], ...
%!                 "en = {'the', 'black', 'white', 'cat', 'dog', 'sees', 'a', 'big'}; fr = {'le', 'noir', 'blanc', 'chat', 'chien', 'voit', 'un', 'grand'}; c = cell (40, 2); for i = 1:40, k = randi (8, 1, randi ([2 6])); c(i,:) = {strjoin(en(k), ' '), strjoin(fr(k), ' ')}; end", f);
%! [pid, log] = spawn (code);
%! t = 0;
%! for k = 1:1200
%!   if (exist (f, "file"))
%!     t = array (f, "train.t");
%!     if (t >= 3)
%!       break;
%!     endif
%!   endif
%!   pause (0.05);
%! endfor
%! system (sprintf ("kill -INT %d", pid));
%! wait_exit (pid);
%! out = fileread (log);
%! at = array (f, "train.t");
%! assert (t >= 3 && at < 300, out);                  # stopped in mid-run (300 steps in all)
%! assert (! isempty (strfind (out, "interrupted in epoch")), out);
%! assert (! isempty (strfind (out, "saved in")), out);
%! [m1, h1] = attn_train (m, corpus, "epochs", 30, opts{:}, "checkpoint", f);
%! [m2, h2] = attn_train (m, corpus, "epochs", 30, opts{:});
%! assert (isequal (m1, m2));
%! assert (isequal (h1.loss, h2.loss));
%! assert (isequal (h1.epoch_loss, h2.epoch_loss));
%! assert (numel (h1.tokens_per_s), 30);
%! assert (h1.epoch_step, h2.epoch_step);
%! ## the directory holds the checkpoint only (no temporary file)
%! d = dir (folder);
%! assert (setdiff ({d.name}, {".", ".."}), {"run.safetensors"});
%! delete (f);

%!test
%! ## Ctrl-C without a checkpoint: a message saying how to keep progress
%! code = sprintf (["m = attn_toy ('blackcat'); c = repmat ({'the black cat', 'le chat noir'}, 400, 1);\n", ...
%!                  "fclose (fopen ('%s', 'w'));\n", ...
%!                  "attn_train (m, c, 'epochs', 1000, 'batch_size', 1, 'verbose', false);\n"],
%!                 fullfile (folder, "ready"));
%! [pid, log] = spawn (code);
%! for k = 1:1200
%!   if (exist (fullfile (folder, "ready"), "file"))
%!     break;
%!   endif
%!   pause (0.05);
%! endfor
%! pause (1);
%! system (sprintf ("kill -INT %d", pid));
%! wait_exit (pid);
%! out = fileread (log);
%! delete (fullfile (folder, "ready"));
%! assert (! isempty (strfind (out, "the progress is lost")), out);
%! assert (! isempty (strfind (out, "\"checkpoint\"")), out);

%!test
%! ## continued at an epoch's end, or with more epochs: the same run
%! f = fullfile (folder, "epochs.safetensors");
%! [a, ha] = attn_train (m, corpus, "epochs", 3, opts{:});
%! attn_train (m, corpus, "epochs", 1, opts{:}, "checkpoint", f, "checkpoint_every", 3);
%! [b, hb] = attn_train (m, corpus, "epochs", 3, opts{:}, "checkpoint", f);
%! assert (isequal (a, b));
%! assert (isequal (ha.loss, hb.loss));
%! assert (isequal (ha.epoch_loss, hb.epoch_loss));
%! ## a finished checkpoint gives its model back at once
%! [c, hc] = attn_train (m, corpus, "epochs", 3, opts{:}, "checkpoint", f);
%! assert (isequal (a, c));
%! assert (isequal (ha.loss, hc.loss));
%! ## SGD with clipping as well
%! g = fullfile (folder, "sgd.safetensors");
%! sgd = {"optimizer", "sgd", "clip", 0.5, "epochs"};
%! [a, ha] = attn_train (m, corpus, sgd{:}, 2, opts{:});
%! attn_train (m, corpus, sgd{:}, 1, opts{:}, "checkpoint", g);
%! [b, hb] = attn_train (m, corpus, sgd{:}, 2, opts{:}, "checkpoint", g);
%! assert (isequal (a, b));
%! assert (isequal (ha.loss, hb.loss));
%! delete (g);
%! ## data only: a safetensors file holding the model under "model." and
%! ## the training state, the format tagged
%! h = header (f);
%! assert (h.("__metadata__").format, "attention-checkpoint 1");
%! assert (h.("model.W_vocab").shape', size (m.W_vocab));
%! assert (array (f, "train.t"), 30);
%! assert (array (f, "train.epoch"), 4);
%! assert (numel (array (f, "train.mom")), numel (array (f, "train.vel")));
%! ## it continues only its own run
%! fail ('attn_train (m, corpus, "epochs", 3, opts{:}, "lr", 0.02, "checkpoint", f)',
%!       'written for lr = 0.01');
%! fail ('attn_train (m, corpus(1:30,:), "epochs", 3, opts{:}, "checkpoint", f)', "another corpus");
%! fail ('attn_train (m, corpus, "epochs", 2, opts{:}, "checkpoint", f)', "more than the 2");
%! fail ('attn_train (m, corpus, "epochs", 3, opts{:}, "optimizer", "sgd", "checkpoint", f)',
%!       "optimizer adam");
%! try
%!   attn_train (attn_toy ("blackcat"), {"the black cat", "le chat noir"}, "epochs", 3, opts{:}, "checkpoint", f);
%!   error ("no error");
%! catch err
%!   assert (err.identifier, "attention:checkpoint");
%! end_try_catch
%! delete (f);

%!test
%! ## with a validation corpus the history continues too: val_loss,
%! ## val_exact, val_token_accuracy as in the run uninterrupted; the
%! ## checkpoint continues only with its own validation corpus
%! f = fullfile (folder, "valid.safetensors");
%! val = corpus(1:5,:);
%! [a, ha] = attn_train (m, corpus, "epochs", 3, opts{:}, "validation", val);
%! attn_train (m, corpus, "epochs", 1, opts{:}, "validation", val, "checkpoint", f,
%!             "checkpoint_every", 3);
%! [b, hb] = attn_train (m, corpus, "epochs", 3, opts{:}, "validation", val, "checkpoint", f);
%! assert (isequal (a, b));
%! timing = {"seconds", "tokens_per_s"};
%! assert (isequal (rmfield (ha, timing), rmfield (hb, timing)));
%! assert (size (hb.val_loss), [1 3]);
%! fail ('attn_train (m, corpus, "epochs", 3, opts{:}, "validation", corpus(6:7,:), "checkpoint", f)',
%!       "another validation corpus");
%! fail ('attn_train (m, corpus, "epochs", 3, opts{:}, "checkpoint", f)', "another validation corpus");
%! ## a validation history that is not one finite entry per epoch: refused
%! poke (f, "train.val_exact", NaN);
%! try
%!   attn_train (m, corpus, "epochs", 3, opts{:}, "validation", val, "checkpoint", f);
%!   error ("no error");
%! catch err
%!   assert (err.identifier, "attention:file", err.message);
%!   assert (! isempty (strfind (err.message, "val_exact")), err.message);
%! end_try_catch
%! delete (f);
%! ## a run without one continues only without one
%! attn_train (m, corpus, "epochs", 1, opts{:}, "checkpoint", f);
%! fail ('attn_train (m, corpus, "epochs", 2, opts{:}, "validation", val, "checkpoint", f)',
%!       "no validation corpus");
%! [~, hc] = attn_train (m, corpus, "epochs", 2, opts{:}, "checkpoint", f);
%! assert (size (hc.val_loss), [1 0]);
%! delete (f);

%!test
%! ## damaged checkpoints are refused (attention:file), never evaluated
%! f = fullfile (folder, "bad.safetensors");
%! g = fullfile (folder, "good.safetensors");
%! attn_train (m, corpus, "epochs", 1, opts{:}, "checkpoint", g);
%! copyfile (g, f);  poke (f, "model.W_vocab", NaN);
%! refused (m, corpus, opts, f, '"model.W_vocab" holds NaN or Inf');
%! copyfile (g, f);  poke (f, "train.order", [1 1]);
%! refused (m, corpus, opts, f, "train.order must be a permutation of 1..40");
%! copyfile (g, f);  poke (f, "train.step", 0.5);
%! refused (m, corpus, opts, f, "train.step must be in 0..10");
%! copyfile (g, f);  poke (f, "train.rand", -1);
%! refused (m, corpus, opts, f, "train.rand must be a random state");
%! copyfile (g, f);  poke (f, "model.encoder.1.self.heads", 3);
%! refused (m, corpus, opts, f, "holds a damaged model");
%! ## a model array declared in another shape of the same bytes: refused
%! ## from the header, before the data are read
%! [r, c] = size (m.W_vocab);
%! declared = @(a, b) sprintf ('"model.W_vocab":{"dtype":"F64","shape":[%d,%d]', a, b);
%! copyfile (g, f);
%! fid = fopen (f, "r+");  text = fread (fid, Inf, "uint8=>char")';
%! fseek (fid, strfind (text, declared (r, c)) - 1, SEEK_SET);  fwrite (fid, declared (c, r));  fclose (fid);
%! refused (m, corpus, opts, f, sprintf ('array "model.W_vocab" is %d×%d, a encoder-decoder model with this config has %d×%d', c, r, r, c));
%! ## another format tag (same length), a model file, a folder, a cut file
%! copyfile (g, f);
%! fid = fopen (f, "r+");  bytes = fread (fid, Inf, "uint8=>char")';
%! at = strfind (bytes, "attention-checkpoint 1");
%! fseek (fid, at - 1, SEEK_SET);  fwrite (fid, "attention-checkpoint 2");  fclose (fid);
%! refused (m, corpus, opts, f, "is not a checkpoint of attn_train");
%! attn_save (m, f);
%! refused (m, corpus, opts, f, "is not a checkpoint of attn_train");
%! fail ('attn_train (m, corpus, "epochs", 2, opts{:}, "checkpoint", folder)', "folder");
%! fid = fopen (f, "w");  fwrite (fid, bytes(1:200));  fclose (fid);
%! refused (m, corpus, opts, f, "cut short");
%! delete (f);
%! delete (g);

%!test
%! ## a run that diverges saves the last finite model in its checkpoint
%! f = fullfile (folder, "diverged.safetensors");
%! evalc ('[a, ha] = attn_train (m, corpus, "epochs", 3, "batch_size", 40, "lr", 1e6, "verbose", false, "checkpoint", f);');
%! assert (ha.diverged, 2);
%! evalc ('[b, hb] = attn_train (m, corpus, "epochs", 3, "batch_size", 40, "lr", 1e6, "verbose", false, "checkpoint", f);');
%! assert (isequal (a, b));
%! assert (isequal (ha.loss, hb.loss));
%! assert (hb.diverged, 2);
%! delete (f);
%! confirm_recursive_rmdir (false, "local");
%! rmdir (folder, "s");
