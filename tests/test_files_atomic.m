## attn_save is atomic: a failed, refused or interrupted save leaves the old
## file byte for byte as it was and no other file in its folder.  The full
## disk is a child octave-cli under `ulimit -f` (and a 64 KiB tmpfs when
## mount works); the interrupt is SIGINT sent to a child in mid-save.

%!shared folder, old, m
%! folder = tempname ();
%! mkdir (folder);
%! old = attn_toy ("river");
%! c = struct ("src_vocab", {{"a b c"}}, "tgt_vocab", {{"x y"}}, "d", 64, "heads", 2,
%!             "encoder_layers", 2, "decoder_layers", 2);
%! m = attn_model (c);

%!function bytes = read_bytes (f)
%!  fid = fopen (f, "r");
%!  bytes = fread (fid, Inf, "uint8=>uint8");
%!  fclose (fid);
%!endfunction

## the folder holds exactly names (no temporary file left)
%!function assert_only (folder, names)
%!  d = dir (folder);
%!  got = setdiff ({d.name}, {".", ".."});
%!  assert (sort (got), sort (names));
%!endfunction

## run code in a child octave-cli (with the package on the path) under the
## shell prefix pre; its output
%!function out = child (pre, code)
%!  script = child_script (code);
%!  [~, out] = system (sprintf ("%s OMP_NUM_THREADS=1 octave-cli --no-history --no-gui %s 2>&1",
%!                              pre, script));
%!  delete (script);
%!endfunction

%!test
%! ## full disk (file size limit of 16 KiB): attention:file, old file intact
%! f = fullfile (folder, "model.safetensors");
%! attn_save (old, f);
%! before = read_bytes (f);
%! out = child ("ulimit -f 16;", sprintf (["m = attn_toy ('river'); m.src_pos = randn (1000, 3); ", ...
%!              "m.tgt_pos = m.src_pos; m.config.max_len = 1000; ", ...
%!              "try, attn_save (m, '%s'); disp ('saved'); ", ...
%!              "catch err, disp (err.identifier); disp (err.message); end"], f));
%! assert (! isempty (strfind (out, "attention:file")), out);
%! assert (! isempty (strfind (out, "the file is unchanged")), out);
%! assert (read_bytes (f), before);
%! assert_only (folder, {"model.safetensors"});
%! assert (isequal (attn_load (f), old));

%!test
%! ## a real full disk: a 64 KiB tmpfs (skipped where mount is not allowed)
%! mnt = tempname ();
%! mkdir (mnt);
%! [status, ~] = system (sprintf ("mount -t tmpfs -o size=64k tmpfs %s 2>/dev/null", mnt));
%! if (status == 0)
%!   unwind_protect
%!     f = fullfile (mnt, "model.safetensors");
%!     attn_save (old, f);
%!     before = read_bytes (f);
%!     try
%!       attn_save (m, f);
%!       error ("no error");
%!     catch err
%!       assert (err.identifier, "attention:file");
%!     end_try_catch
%!     assert (read_bytes (f), before);
%!     assert_only (mnt, {"model.safetensors"});
%!   unwind_protect_cleanup
%!     system (sprintf ("umount %s", mnt));
%!   end_unwind_protect
%! endif
%! rmdir (mnt);

%!test
%! ## SIGINT while a large model is being written: the old file stays
%! f = fullfile (folder, "model.safetensors");
%! attn_save (old, f);
%! before = read_bytes (f);
%! ready = [tempname() ".ready"];
%! script = child_script (sprintf (["m = attn_toy ('river'); m.src_pos = randn (1e6, 3); ", ...
%!   "m.tgt_pos = randn (1e6, 3);\nm.config.max_len = 1e6; fclose (fopen ('%s', 'w'));\n", ...
%!   "for i = 1:20, attn_save (m, '%s'); end"], ready, f));
%! pid = str2double (nthargout (2, @system, sprintf (
%!   "OMP_NUM_THREADS=1 octave-cli --no-history --no-gui %s > /dev/null 2>&1 & echo $!", script)));
%! for k = 1:600
%!   d = dir (folder);
%!   if (exist (ready, "file") && numel (d) > 3)   # a temporary file exists
%!     break;
%!   endif
%!   pause (0.05);
%! endfor
%! midway = numel (dir (folder)) > 3;
%! system (sprintf ("kill -INT %d 2>/dev/null", pid));
%! for k = 1:200
%!   if (system (sprintf ("kill -0 %d 2>/dev/null", pid)) != 0)
%!     break;
%!   endif
%!   pause (0.05);
%! endfor
%! delete (script);
%! delete (ready);
%! assert (midway);                     # the signal came while a new file was written
%! assert (read_bytes (f), before);
%! assert_only (folder, {"model.safetensors"});

%!test
%! ## refusals never touch the old file: a bad model, a NaN weight
%! f = fullfile (folder, "model.safetensors");
%! attn_save (old, f);
%! before = read_bytes (f);
%! bad = old;  bad.W_vocab(:,end) = [];
%! fail ("attn_save (bad, f)", "W_vocab");
%! bad = old;  bad.src_embed(2) = NaN;
%! fail ("attn_save (bad, f)", "src_embed");
%! bad = old;  bad.tgt_vocab.words{1} = "\xFF";
%! fail ("attn_save (bad, f)", "UTF-8");
%! bad = old;  bad.extra = 1;
%! fail ("attn_save (bad, f)", "extra");
%! bad = old;  bad.config.hook = @() 1;
%! fail ("attn_save (bad, f)", "hook");
%! assert (read_bytes (f), before);
%! assert_only (folder, {"model.safetensors"});

%!test
%! ## a target that is not a regular file: refused at once, untouched
%! tic;
%! fail ("attn_save (old, '/dev/full')", "exists and is not a regular file");
%! fail ("attn_save (old, folder)", "exists and is not a regular file");
%! assert (toc < 1);
%! assert (isfolder (folder));

%!test
%! ## a successful save replaces the file and leaves nothing else
%! f = fullfile (folder, "model.safetensors");
%! attn_save (old, f);
%! attn_save (m, f);
%! assert (isequal (attn_load (f), m));
%! assert_only (folder, {"model.safetensors"});
%! confirm_recursive_rmdir (false, "local");
%! rmdir (folder, "s");

%!testif ; isfolder ("/proc/self")
%! ## a folder where no file can be made (/proc): the error says so, with
%! ## its identifier (the cleanup used to fail on the missing temporary file)
%! try
%!   attn_save (attn_toy ("river"), "/proc/model.safetensors");
%!   error ("saved into /proc");
%! catch err
%!   assert (err.identifier, "attention:file");
%!   assert (regexp (err.message, '^attn_save: "/proc/model.safetensors" cannot be written'), 1);
%! end_try_catch
