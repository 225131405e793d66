## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {@var{shown} =} doc_screen (@var{names})
## Run @code{doc} on each of the function names of the cell array
## @var{names} as a user would, without a user: the real @command{info}
## reader runs on a pseudo-terminal (@command{script}, from util-linux) and
## quits at once.  Returns a struct array, one element per name, with
## fields @code{status} (what @code{doc} returned: 0 when the index search
## found the name), @code{calls} (how many times @code{doc} started the
## reader: a second start shows the manual's top), @code{file} and
## @code{search} (the @option{--file} and @option{--index-search} of the
## first start) and @code{node} (the node on its first screen, as
## @samp{(doc)attn_sdpa}).  @code{info_program} is restored afterwards.
## @end deftypefn

function shown = doc_screen (names)
  dir = tempname ();
  mkdir (dir);
  log = fullfile (dir, "log");
  reader = fullfile (dir, "info");
  fid = fopen (reader, "w");
  fprintf (fid, "#!/bin/sh\n");
  fprintf (fid, "printf '%%s\\n' -- \"$@\" >> '%s.args'\n", log);
  fprintf (fid, "cmd=info\nfor a in \"$@\"; do cmd=\"$cmd '$a'\"; done\n");
  fprintf (fid, "printf q | TERM=vt100 script -qec \"$cmd\" /dev/null >> '%s'\n", log);
  fclose (fid);
  system (sprintf ("chmod 755 '%s'", reader));
  old = info_program (reader);
  shown = struct ("status", {}, "calls", {}, "file", {}, "search", {},
                  "node", {});
  unwind_protect
    for k = 1:numel (names)
      unlink_quiet ([log ".args"]);
      unlink_quiet (log);
      s.status = doc (names{k});
      args = strsplit (fileread ([log ".args"]), "\n");
      starts = find (strcmp (args, "--"));
      s.calls = numel (starts);
      first = args(starts(1)+1:end);
      s.file = option (first, "--file");
      s.search = option (first, "--index-search");
      node = regexp (fileread (log), 'Info: (\([^)]*\)[^,]+),', "tokens", "once");
      s.node = [node{:}];
      shown(end+1) = s;
    endfor
  unwind_protect_cleanup
    info_program (old);
    confirm_recursive_rmdir (false, "local");
    rmdir (dir, "s");
  end_unwind_protect
endfunction

## The value after OPT in the argument list ARGS ("" when absent).
function v = option (args, opt)
  i = find (strcmp (args, opt), 1);
  v = "";
  if (! isempty (i) && i < numel (args))
    v = args{i+1};
  endif
endfunction

function unlink_quiet (file)
  if (exist (file, "file"))
    delete (file);
  endif
endfunction

## a function of Octave's own: doc opens Octave's manual at its node
%!testif ; exist ([info_file() ".gz"], "file") || exist (info_file (), "file")
%! s = doc_screen ({"cumsum"});
%! assert (s.status, 0);
%! assert (s.calls, 1);
%! assert (s.file, info_file ());
%! assert (s.search, "cumsum");
%! assert (s.node, "(octave)Sums and Products");
