## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## A hostile class (issue 22): honest, merely wrong and attacking
## submissions graded by ONE attn_grade_class run as root, with short
## limits, then every promised property checked: honest ones get full
## marks, wrong ones less, no hostile one more than it deserves, no file
## outside the grades folder changed, no secret in any output, no process
## left, the limits held, grades.csv and results.json consistent.
##
## The assignment: my_twice.m (2*x) and my_half.m (x/2); the grader forbids
## attn_softmax and uses attn_compare, assert, exp and attn_softmax itself
## (which a submission's files must not shadow).  An attack that tries to
## escape or read what it must not see returns the right value only when
## the attack worked, and leaks what it read into its output and feedback:
## a working attack shows as a score above what it deserves and as a
## secret in the grades folder.  Tests 1, 2 and 4 call my_twice (1, 2 and
## 1 points), test 3 calls my_half (1 point): 5 points.
##
## Runs only as root with a working bwrap (how course platforms run an
## autograder); tests/test_grade_hostile_user.m covers a normal user.  With
## ATTN_HOSTILE_KEEP set, the class and its grades folder are kept (under
## the folder the "hostile class" line names) to look into a failure.

%!function write (file, text)
%!  fid = fopen (file, "w");
%!  fputs (fid, text);
%!  fclose (fid);
%!endfunction

## Root with bwrap: the setting of the issue.  Anything else is skipped.
%!function tf = hostile_here ()
%!  tf = (getuid () == 0 && isunix ()
%!        && system ("bwrap --unshare-all --ro-bind / / --dev /dev true >/dev/null 2>&1") == 0
%!        && system ("setpriv --version >/dev/null 2>&1") == 0);
%!endfunction

## An Octave string literal.
%!function s = q (s)
%!  s = ["'", strrep(s, "'", "''"), "'"];
%!endfunction

%!function s = qcell (c)
%!  s = ["{", strjoin(cellfun (@q, c, "uniformoutput", false), ", "), "}"];
%!endfunction

## my_twice for an attack: CODE sets ok when the attack worked (and leak
## to what it read); only then is the value right, and the leak is raised
## as an error in test 4 (x = 0), so that it would reach the feedback.
%!function src = gated (code)
%!  src = sprintf (["function y = my_twice (x)\n  ok = false;\n  leak = '';\n  try\n%s\n", ...
%!                  "  catch err\n    printf ('attack stopped: %%s\\n', err.message);\n", ...
%!                  "  end_try_catch\n  if (ok && ! isempty (leak) && isscalar (x) && x == 0)\n", ...
%!                  "    error ('leaked: %%s', leak);\n  elseif (ok)\n    y = 2 * x;\n", ...
%!                  "  else\n    y = x + 1;\n  endif\nendfunction\n"], code);
%!endfunction

## my_twice that does CODE, then returns the right value.
%!function src = twice_after (code)
%!  src = sprintf ("function y = my_twice (x)\n%s\n  y = 2 * x;\nendfunction\n", code);
%!endfunction

## The same, CODE only in the first call of a worker (for the costly ones).
%!function src = twice_once (code)
%!  src = twice_after (sprintf ("  persistent done\n  if (isempty (done))\n    done = true;\n%s\n  endif", code));
%!endfunction

%!function src = half (body)
%!  src = sprintf ("function h = my_half (x)\n  %s\nendfunction\n", body);
%!endfunction

## Appends the write marker to each of PATHS (creating new files); the
## marker is split so that it is in no submission's source.
%!function code = writes (paths)
%!  code = sprintf (["  for p = %s\n    fid = fopen (p{1}, 'a');\n    if (fid >= 0)\n", ...
%!                   "      fputs (fid, ['HOST', 'ILE_WRITE']);\n      fclose (fid);\n", ...
%!                   "      ok = true;\n      printf ('wrote %%s\\n', p{1});\n    endif\n  endfor\n"],
%!                  qcell (paths));
%!endfunction

## Reads each of PATHS (after the text of the Octave expression PREFIX);
## what it gets is printed and kept as the leak.
%!function code = reads (paths, prefix)
%!  if (nargin < 2)
%!    prefix = "''";
%!  endif
%!  code = sprintf (["  for p = %s\n    fid = fopen ([%s, p{1}], 'r');\n    if (fid >= 0)\n", ...
%!                   "      t = fread (fid, [1, 4096], 'char=>char');\n      fclose (fid);\n", ...
%!                   "      if (! isempty (t))\n        printf ('read %%s: %%s\\n', p{1}, t);\n", ...
%!                   "        leak = [leak, t];\n        ok = true;\n      endif\n    endif\n  endfor\n"],
%!                  qcell (paths), prefix);
%!endfunction

## Runs shell commands; ok when the output has WORKED in it.
%!function code = shell (cmd)
%!  code = sprintf (["  [~, o] = system (%s);\n  printf ('%%s\\n', o);\n", ...
%!                   "  if (! isempty (strfind (o, 'WORKED')))\n    ok = true;\n    leak = [leak, o];\n  endif\n"],
%!                  q (cmd));
%!endfunction

## The same file writes, as shell commands (e.g. inside unshare).
%!function s = shell_writes (paths)
%!  s = strjoin (cellfun (@(p) sprintf ("echo HOST\"ILE\"_WRITE >> '%s' && echo WORKED;", p),
%!                        paths, "uniformoutput", false), " ");
%!endfunction

## The class: struct array with name, kind (honest, wrong, hostile),
## deserved (the most it may get), exact (it must get exactly that),
## twice and half (the sources; "" for none) and setup (special files).
## P holds the host's paths the attacks aim at.
%!function C = class_list (P)
%!  good = half ("h = x / 2;");
%!  V = P.victims;
%!  K = P.secrets;
%!  rows = {
%!    ## honest: full marks
%!    "good_plain", "honest", 5, true, twice_after(""), good, "";
%!    "good_chatty", "honest", 5, true, ...
%!      twice_after("  printf ('working on %d values\\n', numel (x));\n  fid = fopen ('/tmp/scratch', 'w'); fputs (fid, 'x'); fclose (fid);\n  attn_compare (2 * x, x + x);"), ...
%!      half("h = 0.5 * x;"), "";
%!    "good student", "honest", 5, true, twice_after(""), half("h = x ./ 2;"), "";
%!    ## merely wrong: below full
%!    "wrong_plus_one", "wrong", 1, true, twice_after("  x = x + 0.5;"), good, "";
%!    "wrong_matrix", "wrong", 3, true, ...
%!      "function y = my_twice (x)\n  y = 2 * x(1) * ones (size (x));\nendfunction\n", good, "";
%!    "wrong_half", "wrong", 4, true, twice_after(""), half("h = x / 3;"), "";
%!    "wrong_errors", "wrong", 0, true, twice_after("  error ('not done yet');"), half("error ('later');"), "";
%!    ## escape: mounts, unshare, setuid programs, the network
%!    "esc_remount", "hostile", 1, true, gated([shell("mount -o remount,bind,rw / 2>&1; mount -o remount,rw /attention 2>&1; mount -o remount,rw /submission 2>&1; mount -o remount,rw /usr 2>&1"), writes(V), reads(K)]), good, "";
%!    "esc_umount", "hostile", 1, true, gated([shell("for d in /attention /submission /tmp /dev/shm /usr /proc /; do umount -l $d 2>&1; done"), writes(V), reads(K)]), good, "";
%!    "esc_unshare", "hostile", 1, true, gated(shell(["unshare -Urm sh -c 'mount -o remount,rw /attention; id' 2>&1; unshare -r true 2>&1 && echo UNSHARE_WORKED; ", ...
%!                                                    "unshare -Ur sh -c \"", strrep(shell_writes(V), "\"", "\\\""), "\" 2>&1"])), good, "";
%!    "esc_mount", "hostile", 1, true, gated([shell("mount -t tmpfs none /attention 2>&1 && echo MOUNT_WORKED; mount --bind /tmp /submission 2>&1 && echo BIND_WORKED; nsenter -t 1 -a true 2>&1 && echo NSENTER_WORKED; chroot / true 2>&1 && echo CHROOT_WORKED"), writes(V)]), good, "";
%!    "esc_setuid", "hostile", 1, true, gated(shell("su -c id root < /dev/null 2>&1 | grep -q uid=0 && echo SU_WORKED; sudo -n id 2>&1 | grep -q uid=0 && echo SUDO_WORKED; ls -l /usr/bin/mount /usr/bin/su 2>&1")), good, "";
%!    "esc_network", "hostile", 1, true, gated(shell("for p in 22 53 80 443 631 3306 5432 8080; do timeout 1 bash -c \"echo > /dev/tcp/127.0.0.1/$p\" 2>/dev/null && echo NET_WORKED $p; done; getent hosts example.com && echo DNS_WORKED")), good, "";
%!    ## escape: writing where it may not
%!    "write_package", "hostile", 1, true, gated([writes({"/attention/attn_compare.m", "/attention/zz_hostile.m", "/attention/private/zz_hostile.m", P.inst_new, P.src_new}), ...
%!                                               "  if (unlink ('/attention/attn_softmax.m') == 0)\n    ok = true;\n  endif\n"]), good, "";
%!    "write_submission", "hostile", 1, true, gated([writes({"/submission/my_half.m", "/submission/zz_hostile.m", "/submission/my_twice.m"}), ...
%!                                                  "  if (unlink ('/submission/my_half.m') == 0)\n    ok = true;\n  endif\n"]), good, "";
%!    "write_others", "hostile", 1, true, gated([writes(V), "  for p = glob (", q(P.scratch_glob), ")'\n    if (unlink (p{1}) == 0)\n      ok = true;\n    endif\n  endfor\n", ...
%!                                              "  if (unlink (", q(P.other), ") == 0)\n    ok = true;\n  endif\n"]), good, "";
%!    "write_grader", "hostile", 1, true, gated(writes({P.grader, P.key, P.grader_new})), good, "";
%!    "dotdot", "hostile", 1, true, gated([writes(strcat("../../../../../../..", V)), reads(strcat("/submission/../../../..", K)), ...
%!                                        reads(strcat("/attention/../../..", K))]), good, "";
%!    ## escape: reading what it may not
%!    "read_shadow", "hostile", 1, true, gated([reads({"/etc/shadow", "/etc/gshadow", "/root/.bash_history"}), shell("cat /etc/shadow 2>&1 | grep -q root: && echo SHADOW_WORKED")]), good, "";
%!    "read_git", "hostile", 1, true, gated([reads({P.dotgit, [P.gitdir, "/HEAD"], P.solution}), ...
%!                                          shell(sprintf("git -C '%s' show HEAD:doc/assignments/softmax/solution/my_softmax.m 2>&1 | grep -q function && echo GIT_WORKED", P.checkout))]), good, "";
%!    "read_keys", "hostile", 1, true, gated(reads(K)), good, "";
%!    "proc_root", "hostile", 1, true, gated([reads(strcat("/proc/1/root", K)), reads(strcat("/proc/1/cwd/../../../..", K)), ...
%!                                           "  for d = glob ('/proc/[0-9]*')'\n", reads(K, "d{1}, '/root'"), "  endfor\n"]), good, "";
%!    "proc_spy", "hostile", 1, true, gated(["  for d = glob ('/proc/[0-9]*')'\n    for f = {'environ', 'cmdline'}\n", ...
%!                                           "      fid = fopen ([d{1}, '/', f{1}], 'r');\n      if (fid >= 0)\n        t = fread (fid, [1, Inf], 'char=>char');\n        fclose (fid);\n", ...
%!                                           "        if (! isempty (strfind (t, 'ATTN_GRADE')) || ! isempty (strfind (t, ", q(P.root), ")))\n          ok = true;\n          leak = [leak, t];\n        endif\n      endif\n    endfor\n  endfor\n", ...
%!                                           "  fid = fopen ('/proc/1/mem', 'r+');\n  printf ('proc 1 mem: %d\\n', fid);\n"]), good, "";
%!    ## escape: signals to every other process (never as root: the guard
%!    ## keeps a broken sandbox from killing the machine)
%!    "kill_all", "hostile", 5, false, twice_after("  if (getuid () != 0)\n    [~] = kill (-1, 9);\n    for p = 2:64\n      if (p != getpid ())\n        [~] = kill (p, 9);\n      endif\n    endfor\n    system ('kill -9 -1');\n  endif"), good, "";
%!    ## forging a result
%!    "forge_guess", "hostile", 1, true, twice_after(["  printf ('\\n#ATTN-REPLY#%s#', repmat ('0', 1, 32));\n  fwrite (stdout, uint8 ([8 0 0 0 0 0 0 0 65 84 71 86 1 1 0 2]));\n", ...
%!                                                    "  printf ('\\ndone 1\\ndone 2\\ndone 3\\ndone 4\\n  ok    2  twice a matrix  2 of 2 points\\n4 of 4 tests, 5 of 5 points\\nRead-only file system\\nstatus: ok\\n');\n", ...
%!                                                    "  fputs (stderr, 'Read-only file system\\nkilled: memory limit\\n');\n  x = x + 1;"]), good, "";
%!    "forge_stolen_nonce", "hostile", 1, true, twice_after(["  addpath ('/attention/private');\n  nonce = evalin ('caller', 'evalin (''caller'', ''nonce'')');\n", ...
%!                                                           "  r = grade_value ('encode', {'ok', {2 * x}, ''});\n  fflush (stdout);\n", ...
%!                                                           "  fwrite (stdout, [char(10), '#ATTN-REPLY#', nonce, '#']);\n  fwrite (stdout, typecast (uint64 (numel (r)), 'uint8'));\n", ...
%!                                                           "  fwrite (stdout, r);\n  fflush (stdout);\n  x = x + 1;"]), good, "";
%!    ## a crafted reply, cheap to send and slow to decode on the trusted side
%!    "slow_decode", "hostile", 1, false, twice_after(["  if (isscalar (x) && x == 3)\n    nonce = evalin ('caller', 'evalin (''caller'', ''nonce'')');\n", ...
%!                                                     "    u = @(v) typecast (uint64 (v), 'uint8');\n    n = 12000;\n", ...
%!                                                     "    r = [uint8('ATGV'), 1, 13, 0, 2, u(1), u(3), 12, 0, 2, u(1), u(2), uint8('ok'), 13, 0, 2, u(1), u(1), ", ...
%!                                                     "13, 0, 2, u(1), u(n), repmat(uint8 ([1 0 2 zeros(1, 16)]), 1, n), 12, 0, 2, u(0), u(0)];\n", ...
%!                                                     "    fflush (stdout);\n    fwrite (stdout, [char(10), '#ATTN-REPLY#', nonce, '#']);\n", ...
%!                                                     "    fwrite (stdout, u(numel (r)));\n    fwrite (stdout, r);\n    fflush (stdout);\n  endif\n  x = x + 1;"]), good, "";
%!    ## errors whose text the trusted side reads as a cause
%!    "forge_status", "hostile", 1, true, twice_after(["  if (isscalar (x) && x == 3)\n    error ('out of memory or dimension too large for Octave''s index type');\n", ...
%!                                                      "  else\n    error ('attention:forbidden', 'attn_softmax may not be used in this assignment: write it yourself');\n  endif"]), good, "";
%!    "not_utf8", "hostile", 4, true, twice_after("  fwrite (stdout, uint8 ([255 254 192 128 237 160 128 10]));\n  fputs (stderr, char ([255 10]));"), ...
%!      half("error (char ([98 97 100 32 255 254 10 192 175 32 226 130]));"), "";
%!    "huge_line", "hostile", 1, true, twice_after("  printf ('%s', repmat ('A', 1, 2e6));"), good, "";
%!    "huge_value", "hostile", 1, true, "function y = my_twice (x)\n  y = zeros (1, 9e6);\nendfunction\n", good, "";
%!    "handle_value", "hostile", 1, true, ["function y = my_twice (x)\n  if (isscalar (x) && x == 3)\n    y = @() 2 * x;\n", ...
%!                                         "  elseif (isscalar (x))\n    y = containers.Map ();\n  else\n    y = struct ('f', @sin);\n  endif\nendfunction\n"], good, "";
%!    "deep_nested", "hostile", 1, true, "function y = my_twice (x)\n  y = 2 * x;\n  for i = 1:3000\n    y = {y};\n  endfor\nendfunction\n", good, "";
%!    "exit_calls", "hostile", 1, true, ["function y = my_twice (x)\n  y = 2 * x;\n  if (isscalar (x) && x == 3)\n    exit (0);\n", ...
%!                                       "  elseif (isscalar (x))\n    builtin ('exit', 0);\n  else\n    quit (1);\n  endif\nendfunction\n"], good, "";
%!    "kill_self", "hostile", 1, true, twice_after("  kill (getpid (), 9);\n  pause (1);"), good, "";
%!    ## stopping the class
%!    "infinite_loop", "hostile", 1, true, twice_after("  while (true)\n  endwhile"), good, "";
%!    "sleep_forever", "hostile", 2, true, twice_after("  if (isscalar (x) && x == 3)\n    pause (Inf);\n  elseif (! isscalar (x))\n    system ('sleep 1000');\n  endif"), good, "";
%!    "close_stdout", "hostile", 5, false, twice_after("  for f = {stdout, 1, 2, 0, stdin}\n    try\n      fclose (f{1});\n    catch\n    end_try_catch\n  endfor"), good, "";
%!    "read_stdin", "hostile", 4, true, twice_after("  if (isscalar (x) && x == 3)\n    s = fread (stdin, Inf);\n  endif"), good, "";
%!    "fifo_file", "hostile", 1, true, "", good, "fifo";
%!    "symlinks", "hostile", 0, true, "", "", "symlink";
%!    "folder_file", "hostile", 1, true, "", good, "folder";
%!    "big_file", "hostile", 1, true, "", good, "big";
%!    "syntax_half", "hostile", 4, true, twice_after(""), half("h = x / 2 +;"), "";
%!    "syntax_twice", "hostile", 1, true, "function y = my_twice (x)\n  y = 2 * x +* ;\nendfunction\n", good, "";
%!    "error_lines", "hostile", 1, true, twice_after(["  error (['wrong', char(10), '  ok    2  twice a matrix  2 of 2 points', char(10), ", ...
%!                                                     "'4 of 4 tests, 5 of 5 points', char(10), 'status: ok', char([13 10 0 27]), '[2J']);"]), good, "";
%!    "global_state", "hostile", 1, true, twice_after(["  global attn_grade_channel G\n  attn_grade_channel = @(varargin) {2 * x};\n  G = 1;\n", ...
%!                                                      "  persistent n\n  n(end+1) = 1;\n  assignin ('base', 'ans', 2 * x);\n  x = x + numel (n);"]), good, "";
%!    ## shadowing: only the named files are copied
%!    "shadowing", "hostile", 0, true, twice_after("  x = x + 1;"), half("h = x;"), "shadow";
%!    "assign_caller", "hostile", 5, false, twice_after(["  assignin ('caller', 'args', {});\n  evalin ('caller', 'nout = 0;');\n  assignin ('base', 'x', 1);\n", ...
%!                                                       "  evalin ('caller', 'evalin (''caller'', ''max_bytes = 10;'')');"]), good, "";
%!    "clear_all", "hostile", 5, false, twice_after("  clear functions\n  clear -global\n  more on\n  page_screen_output (true);\n  page_output_immediately (false);\n  disp (x);"), good, "";
%!    ## exhausting the machine
%!    ## (the loop in the background: in the foreground, bash's retries of a
%!    ## refused fork outlasted the time limit before PROCS was printed)
%!    "fork_bomb", "hostile", 5, false, twice_once(["    system ('(i=0; while [ $i -lt 300 ]; do (sleep 60 &) 2>/dev/null; i=$((i+1)); done) > /dev/null 2>&1 &');\n", ...
%!                                                    "    system ('f() { f | f & }; f > /dev/null 2>&1 &');\n    pause (1);\n", ...
%!                                                    "    printf ('PROCS=%d\\n', numel (glob ('/proc/[0-9]*')));"]), good, "";
%!    "memory_hog", "hostile", 1, true, twice_after("  z = ones (2e8, 1);\n  x = x + z(end);"), good, "";
%!    "memory_children", "hostile", 5, false, twice_after(["  if (isscalar (x) && x == 3)\n    system ('for i in 1 2 3; do (python3 -c \"import mmap, time; m = mmap.mmap (-1, 450 << 20); m[::4096] = b''x'' * (450 << 8); time.sleep (3)\"; echo CHILD_STATUS=$? > /tmp/child$i) & done');\n", ...
%!                                                         "  else\n    for k = 1:40\n      t = cellfun (@fileread, glob ('/tmp/child*'), 'uniformoutput', false);\n", ...
%!                                                         "      if (! isempty (regexp ([t{:}, ''], 'STATUS=[1-9]', 'once')))\n        break;\n      endif\n      pause (0.1);\n    endfor\n", ...
%!                                                         "    printf ('%s', t{:}, '');\n  endif"]), good, "";
%!    "disk_fill", "hostile", 5, false, twice_once(["    system ('dd if=/dev/zero of=/tmp/fill bs=1M count=200 2>&1; dd if=/dev/zero of=/dev/shm/fill bs=1M count=100 2>&1; true');\n", ...
%!                                                    "    d = dir ('/tmp/fill');\n    s = dir ('/dev/shm/fill');\n    printf ('TMP_BYTES=%d\\nSHM_BYTES=%d\\n', d.bytes, s.bytes);"]), good, "";
%!    "cpu_busy", "hostile", 5, false, twice_once("    system ('sh -c \"while :; do :; done\" > /dev/null 2>&1 &');\n    system ('yes > /dev/null 2>&1 &');"), good, "";
%!    "many_files", "hostile", 5, false, twice_once(["    n = 0;\n    for i = 1:2000\n      fid = fopen (sprintf('/tmp/f%d', i), 'w');\n      if (fid < 0)\n        break;\n      endif\n      n += 1;\n    endfor\n", ...
%!                                                     "    printf ('OPENED=%d\\n', n);"]), good, "";
%!    ## forbidden: the package's own attn_softmax, by every route
%!    "forbid_direct", "hostile", 1, true, twice_after("  attn_softmax (x);"), good, "";
%!    "forbid_feval", "hostile", 1, true, twice_after("  feval ('attn_softmax', x);"), good, "";
%!    "forbid_handle", "hostile", 1, true, twice_after("  f = @attn_softmax;\n  f (x);"), good, "";
%!    "forbid_cellfun", "hostile", 1, true, twice_after("  cellfun ('attn_softmax', {x}, 'uniformoutput', false);"), good, "";
%!    "forbid_evalin", "hostile", 1, true, twice_after("  evalin ('base', 'attn_softmax (1);');"), good, "";
%!  };
%!  C = cell2struct (rows, {"name", "kind", "deserved", "exact", "twice", "half", "setup"}, 2);
%!endfunction

## Writes one student's folder, with the special files of its setup.
%!function put (subs, s, P)
%!  d = fullfile (subs, s.name);
%!  mkdir (d);
%!  if (! isempty (s.twice))
%!    write (fullfile (d, "my_twice.m"), s.twice);
%!  endif
%!  if (! isempty (s.half))
%!    write (fullfile (d, "my_half.m"), s.half);
%!  endif
%!  switch (s.setup)
%!    case "fifo"
%!      assert (system (sprintf ("mkfifo '%s'", fullfile (d, "my_twice.m"))), 0);
%!    case "symlink"
%!      symlink (fullfile (subs, "good_plain", "my_twice.m"), fullfile (d, "my_twice.m"));
%!      symlink (P.rootonly, fullfile (d, "my_half.m"));
%!    case "folder"
%!      mkdir (fullfile (d, "my_twice.m"));
%!      write (fullfile (d, "my_twice.m", "my_twice.m"), "function y = my_twice (x)\n  y = 2 * x;\nendfunction\n");
%!    case "big"
%!      write (fullfile (d, "my_twice.m"), ["function y = my_twice (x)\n  y = 2 * x;\nendfunction\n", ...
%!                                          repmat("% padding padding padding padding padding\n", 1, 250000)]);
%!    case "shadow"
%!      ## each would make a wrong answer pass if it reached the grader
%!      write (fullfile (d, "error.m"), "function error (varargin)\nendfunction\n");
%!      write (fullfile (d, "assert.m"), "function assert (varargin)\nendfunction\n");
%!      write (fullfile (d, "exp.m"), "function y = exp (x)\n  y = ones (size (x));\nendfunction\n");
%!      write (fullfile (d, "attn_compare.m"), "function varargout = attn_compare (varargin)\n  varargout = {true, '', {}};\nendfunction\n");
%!      write (fullfile (d, "attn_softmax.m"), "function A = attn_softmax (S, varargin)\n  A = S;\nendfunction\n");
%!      write (fullfile (d, "PKG_ADD"), sprintf ("fid = fopen ('%s', 'w'); fputs (fid, 'ran'); fclose (fid);\n", P.pkg_add_mark));
%!  endswitch
%!endfunction

## Names, sizes, modes and times of every file under DIRS (not following
## links), without the folders in SKIP.
%!function list = snapshot (dirs, skip)
%!  prune = strjoin (cellfun (@(s) sprintf ("-path '%s' -prune -o", s), skip, "uniformoutput", false), " ");
%!  [~, list] = system (sprintf ("find %s %s -printf '%%p\\t%%s\\t%%T@\\t%%m\\t%%u\\n' 2>&1 | LC_ALL=C sort",
%!                               strjoin (strcat ("'", dirs, "'"), " "), prune));
%!  list = strsplit (strtrim (list), "\n");
%!endfunction

## Every process: pid, parent, uid, name and its command line and
## environment as one text.
%!function P = processes ()
%!  P = struct ("pid", {}, "ppid", {}, "uid", {}, "name", {}, "text", {}, "zombie", {});
%!  for d = glob ("/proc/[0-9]*")'
%!    st = read_all ([d{1}, "/status"]);
%!    if (isempty (st))
%!      continue;
%!    endif
%!    pp = regexp (st, 'PPid:\s*(\d+)', "tokens", "once");
%!    u = regexp (st, 'Uid:\s*(\d+)', "tokens", "once");
%!    n = regexp (st, 'Name:\s*(\S+)', "tokens", "once");
%!    if (isempty (pp) || isempty (u) || isempty (n))
%!      continue;
%!    endif
%!    t = strrep ([read_all([d{1}, "/cmdline"]), " ", read_all([d{1}, "/environ"])], "\0", " ");
%!    P(end+1) = struct ("pid", str2double (d{1}(7:end)), "ppid", str2double (pp{1}),
%!                       "uid", str2double (u{1}), "name", n{1}, "text", t,
%!                       "zombie", ! isempty (regexp (st, 'State:\s*Z', "once")));
%!  endfor
%!endfunction

## The processes of P that the run left: those naming ROOT (the trusted
## side inherits TMPDIR under it, bwrap names its folders), those of the
## run's worker uids (slots 1 to JOBS of the run this process started)
## not below another grading run, and
## their descendants; but not this test's own process and its ancestors,
## those in BEFORE, nor zombies (they hold nothing but a pid).
%!function left = leftovers (P, before, root, jobs)
%!  base = 100000000 + 256 * getpid ();    # the uids of this process's run
%!  pids = [P.pid];
%!  mine = [];
%!  p = getpid ();
%!  while (p > 1 && any (pids == p))
%!    mine(end+1) = p;
%!    p = P(pids == p).ppid;
%!  endwhile
%!  left = {};
%!  for i = 1:numel (P)
%!    if (any (P(i).pid == [mine, before]) || P(i).zombie)
%!      continue;
%!    endif
%!    named = ! isempty (strfind (P(i).text, root));
%!    worker = P(i).uid > base && P(i).uid <= base + jobs;
%!    other = false;
%!    a = P(i).ppid;
%!    while (a > 1 && any (pids == a))
%!      up = P(pids == a);
%!      named = named || ! isempty (strfind (up.text, root));
%!      other = other || (! isempty (strfind (up.text, "attn_grade")) && isempty (strfind (up.text, root)));
%!      a = up.ppid;
%!    endwhile
%!    if (named || (worker && ! other))
%!      left{end+1} = sprintf ("%d %d %s", P(i).pid, P(i).uid, P(i).name);
%!    endif
%!  endfor
%!endfunction

## The rows of a CSV text (quoted fields may hold commas and newlines).
%!function rows = csv_rows (text)
%!  rows = {};
%!  row = {};
%!  field = "";
%!  quoted = false;
%!  i = 1;
%!  while (i <= numel (text))
%!    c = text(i);
%!    if (quoted && c == '"' && i < numel (text) && text(i+1) == '"')
%!      field(end+1) = c;
%!      i += 1;
%!    elseif (c == '"')
%!      quoted = ! quoted;
%!    elseif (! quoted && c == ",")
%!      row{end+1} = field;
%!      field = "";
%!    elseif (! quoted && c == "\n")
%!      rows{end+1} = [row, {field}];
%!      row = {};
%!      field = "";
%!    else
%!      field(end+1) = c;
%!    endif
%!    i += 1;
%!  endwhile
%!endfunction

## Every file's text under DIR, as one cellstr with the names.
%!function [names, texts] = folder_texts (dir)
%!  [~, list] = system (sprintf ("find '%s' -type f", dir));
%!  names = strsplit (strtrim (list), "\n");
%!  texts = cellfun (@read_all, names, "uniformoutput", false);
%!endfunction

## The numbers a pattern's token matched in TEXT.
%!function n = numbers (text, pattern)
%!  n = cellfun (@(t) str2double (t{1}), regexp (text, pattern, "tokens"));
%!endfunction

## The entry of student NAME.
%!function s = pick (S, name)
%!  s = S(strcmp ({S.student}, name));
%!  same (numel (s), 1, ["results for ", name]);
%!endfunction

## An error naming WHAT unless GOT equals WANT.
%!function same (got, want, what)
%!  if (! isequal (got, want))
%!    error ("%s: got %s, expected %s", what, disp (got), disp (want));
%!  endif
%!endfunction

## LIST with the message of varargin added unless OK.
%!function list = expect (list, ok, varargin)
%!  if (! ok)
%!    list{end+1} = sprintf (varargin{:});
%!  endif
%!endfunction

## One error naming every failure in LIST.
%!function check_list (what, list)
%!  if (! isempty (list))
%!    error ("%s:\n  %s", what, strjoin (list, "\n  "));
%!  endif
%!endfunction

## The hostile students graded above what they deserve (EXACT: or not
## exactly what they deserve, where that is known), each with why.
%!function bad = graded_off (S, C, exact)
%!  bad = {};
%!  for c = C(strcmp ({C.kind}, "hostile"))'
%!    s = pick (S, c.name);
%!    if (s.score > c.deserved || (exact && c.exact && s.score != c.deserved))
%!      bad{end+1} = sprintf ("%s: %g points, deserves %s%g; status %s; %s", c.name, s.score,
%!                            merge (c.exact, "exactly ", "at most "), c.deserved, s.status,
%!                            strjoin (strcat ({s.tests.name}, ": ", {s.tests.message}), " | "));
%!    endif
%!  endfor
%!endfunction

%!shared root, P, C, S, opts, before, after, ps_before, ps_after, seconds, ran
%! ran = false;
%! root = "";

%!testif ; hostile_here ()
%! ## the class, its grader and the planted secrets, then one run
%! root = tempname ();
%! mkdir (root);
%! checkout = fileparts (package_dir ());
%! tag = sprintf ("%d%d", getpid (), floor (1e6 * rand ()));
%! P = struct ("root", root, "subs", fullfile (root, "subs"), "out", fullfile (root, "out"),
%!             "tmp", fullfile (root, "tmp"), "graders", fullfile (root, "graders"),
%!             "checkout", checkout, "canary", fullfile (root, "canary.txt"),
%!             "rootonly", fullfile (root, "root_only.txt"),
%!             "key_mark", ["ANSWER_KEY_", tag], "root_mark", ["ROOT_ONLY_", tag]);
%! P.grader = fullfile (P.graders, "grade_hostile.m");
%! P.key = fullfile (P.graders, "answer_key.m");
%! P.grader_new = fullfile (P.graders, "zz_hostile.m");
%! P.inst_new = fullfile (checkout, "inst", "zz_hostile_probe.m");
%! P.src_new = fullfile (checkout, "src", "zz_hostile_probe.c");
%! P.pkg_add_mark = fullfile (root, "pkg_add_ran");
%! P.other = fullfile (P.subs, "good_plain", "my_twice.m");
%! P.scratch_glob = fullfile (P.tmp, "*", "reports", "*");
%! P.solution = fullfile (checkout, "doc", "assignments", "softmax", "solution", "my_softmax.m");
%! P.dotgit = fullfile (checkout, ".git");
%! P.gitdir = "";
%! if (exist (P.dotgit, "file") == 2)
%!   P.gitdir = strtrim (regexprep (read_all (P.dotgit), '^gitdir:\s*', ""));
%! elseif (isfolder (P.dotgit))
%!   P.gitdir = P.dotgit;
%! endif
%! P.victims = {P.other, fullfile(P.subs, "good_plain", "zz_hostile.m"), fullfile(P.out, "good_plain", "feedback.txt"), ...
%!              fullfile(P.out, "grades.csv"), fullfile(P.out, "zz_hostile.txt"), P.grader, P.key, P.grader_new, ...
%!              P.inst_new, P.src_new, P.canary, P.rootonly, P.pkg_add_mark};
%! P.secrets = {P.key, P.rootonly, P.grader, P.solution, P.other};
%! mkdir (P.subs);
%! mkdir (P.out);
%! mkdir (P.tmp);
%! mkdir (P.graders);
%! write (P.canary, "a canary\n");
%! write (P.rootonly, sprintf ("%s\n", P.root_mark));
%! assert (system (sprintf ("chmod 0600 '%s'", P.rootonly)), 0);
%! write (P.key, sprintf ("## the answers\n%% %s\nfunction y = my_twice (x)\n  y = 2 * x;\nendfunction\n", P.key_mark));
%! write (P.grader, ["## Submission: my_twice.m, my_half.m\n## Forbidden: attn_softmax\n\n", ...
%!                   "%!function check_twice (x)\n%!  y = my_twice (x);\n", ...
%!                   "%!  attn_compare (2 * x, y, \"name\", \"y\");\n%!endfunction\n\n", ...
%!                   "## twice a scalar\n%!test\n%! check_twice (3);\n\n", ...
%!                   "## twice a matrix (2 points)\n%!test\n%! check_twice ([1 2; 3 4]);\n\n", ...
%!                   "## half\n%!test\n%! attn_compare (2, my_half (4), \"name\", \"h\");\n", ...
%!                   "%! assert (sum (attn_softmax ([1 2 3])), 1, 1e-12);\n\n", ...
%!                   "## twice zero\n%!test\n%! check_twice (0);\n%! assert (exp (0), 1);\n"]);
%! C = class_list (P);
%! for s = C'
%!   put (P.subs, s, P);
%! endfor
%! assert (numel (C), numel (unique ({C.name})));
%! assert (nnz (strcmp ({C.kind}, "hostile")) >= 30);
%! opts = struct ("time_limit", 5, "total_time", 30, "memory", 1024, "output", 64, "jobs", 2,
%!                "disk", 32, "processes", 64);
%! keep = {P.root, fullfile(checkout, "inst"), fullfile(checkout, "src"), fullfile(checkout, "doc")};
%! skip = {P.out, P.tmp};
%! before = snapshot (keep, skip);
%! ps_before = [processes().pid];
%! old_tmpdir = getenv ("TMPDIR");
%! setenv ("TMPDIR", P.tmp);      # the run's scratch folders under ROOT, to find its processes
%! unwind_protect
%!   t0 = tic ();
%!   S = attn_grade_class (P.grader, P.subs, P.out, "quiet", true, "time_limit", opts.time_limit,
%!                         "total_time", opts.total_time, "memory", opts.memory, "output", opts.output,
%!                         "jobs", opts.jobs, "disk", opts.disk, "processes", opts.processes);
%!   seconds = toc (t0);
%! unwind_protect_cleanup
%!   setenv ("TMPDIR", old_tmpdir);
%! end_unwind_protect
%! ## a killed worker's kernel teardown may hold its processes a moment
%! ## (longer on a loaded machine); one still there after 20 s was left
%! for i = 1:40
%!   ps_after = processes ();
%!   if (isempty (leftovers (ps_after, ps_before, P.root, opts.jobs)))
%!     break;
%!   endif
%!   pause (0.5);
%! endfor
%! after = snapshot (keep, skip);
%! ran = true;
%! printf ("hostile class: %d students in %.1f s, grades in %s\n", numel (S), seconds, P.out);
%! assert (sort ({S.student}), sort ({C.name}));
%! assert (all (strcmp ({S.sandbox}, "bwrap")));

%!testif ; hostile_here ()
%! ## honest ones get full marks; each wrong one gets below full, as expected
%! assert (ran);
%! bad = {};
%! for c = C(! strcmp ({C.kind}, "hostile"))'
%!   s = pick (S, c.name);
%!   if (s.score != c.deserved || (strcmp (c.kind, "honest") && ! strcmp (s.status, "ok"))
%!       || (strcmp (c.kind, "wrong") && s.score >= s.points))
%!     bad{end+1} = sprintf ("%s: %g of %g points (expected %g), status %s", c.name, s.score,
%!                           s.points, c.deserved, s.status);
%!   endif
%! endfor
%! check_list ("honest or wrong submissions graded wrongly", bad);

%!testif ; hostile_here ()
%! ## no hostile one gets more than it deserves
%! assert (ran);
%! check_list ("hostile submissions graded above what they deserve", graded_off (S, C, false));

%!testif ; hostile_here ()
%! ## fairness: an attack costs only the tests it touched (most get
%! ## exactly what they deserve, the others at most that)
%! assert (ran);
%! check_list ("hostile submissions not graded exactly as they deserve", graded_off (S, C, true));

%!testif ; hostile_here ()
%! ## no file outside the grades folder changed (submissions, grader and
%! ## its key, canary, root-only file, the package's folders), none made
%! assert (ran);
%! changed = [setdiff(before, after), setdiff(after, before)];
%! check_list ("files changed outside the grades folder", changed);
%! assert (! exist (P.pkg_add_mark, "file"));
%! ## the run's scratch folders are gone
%! assert (isempty (setdiff (readdir (P.tmp), {".", ".."})));
%! ## nothing the attacks wrote reached the grades folder either
%! [names, texts] = folder_texts (P.out);
%! check_list ("the write marker in the grades folder", names(! cellfun (@isempty, strfind (texts, "HOSTILE_WRITE"))));

%!testif ; hostile_here ()
%! ## no secret in any feedback, output.log, results.json, grades.csv
%! assert (ran);
%! secrets = {P.key_mark, P.root_mark, "gitdir:", "ATTN_GRADE_REPORT"};
%! sol = strsplit (read_all (P.solution), "\n");
%! [~, k] = max (cellfun (@numel, sol));
%! secrets{end+1} = strtrim (sol{k});
%! if (exist ("/etc/shadow", "file"))
%!   sh = strsplit (read_all ("/etc/shadow"), "\n");
%!   secrets{end+1} = sh{1};
%! endif
%! [names, texts] = folder_texts (P.out);
%! names{end+1} = "the struct S";
%! texts{end+1} = strjoin ([{S.status}, arrayfun(@(s) strjoin ({s.tests.message}, "\n"), S, "uniformoutput", false)], "\n");
%! found = {};
%! for i = 1:numel (secrets)
%!   hit = ! cellfun (@isempty, strfind (texts, secrets{i}));
%!   if (any (hit))
%!     found{end+1} = sprintf ("'%s' in %s", secrets{i}, strjoin (names(hit), ", "));
%!   endif
%! endfor
%! check_list ("secrets in the grades folder", found);

%!testif ; hostile_here ()
%! ## no process left: no worker uid, no octave-cli or bwrap of this run
%! assert (ran);
%! check_list ("processes left by the run", leftovers (ps_after, ps_before, P.root, opts.jobs));

%!testif ; hostile_here ()
%! ## the limits held, each named where it stopped a student
%! assert (ran);
%! f = {};
%! logs = @(name) read_all (fullfile (P.out, name, "output.log"));
%! status = @(name) pick (S, name).status;
%! n = numbers (logs ("fork_bomb"), 'PROCS=(\d+)');
%! f = expect (f, ! isempty (n) && n <= opts.processes, "fork bomb not bounded: %s processes", mat2str (n));
%! b = numbers (logs ("disk_fill"), '(?:TMP|SHM)_BYTES=(\d+)');
%! f = expect (f, numel (b) == 2 && b(1) <= opts.disk * 2^20 && b(2) <= 16 * 2^20,
%!             "disk filler not bounded: %s bytes", mat2str (b));
%! n = numbers (logs ("many_files"), 'OPENED=(\d+)');
%! f = expect (f, ! isempty (n) && n <= 256, "open files not bounded: %s", mat2str (n));
%! ## three children of 450 MiB each against 1024 MiB: not all of them
%! ## (by a Python one-liner, when the machine has Python; started in
%! ## test 1, each touching 450 MiB, which takes seconds on a loaded
%! ## machine, and holding it 3 s; the exit statuses so far printed in
%! ## tests 2 and 4, each waiting up to 4 s for a failed one)
%! kids = numbers (logs ("memory_children"), 'CHILD_STATUS=(\d+)');
%! f = expect (f, system ("command -v python3 > /dev/null") != 0 || any (kids != 0)
%!                || ! isempty (strfind (status ("memory_children"), "memory")),
%!             "three 450 MiB children: exit statuses %s, status %s", mat2str (kids), status ("memory_children"));
%! hog = pick (S, "memory_hog").tests;
%! f = expect (f, any (! cellfun (@isempty, strfind ({hog.message}, "the worker's memory limit is 1024 MiB"))),
%!             "memory hog: %s", strjoin ({hog.message}, "; "));
%! f = expect (f, strcmp (status ("infinite_loop"),
%!                       sprintf ("timed out (more than %d s) in tests 1, 2, 4", opts.time_limit)),
%!             "infinite loop: %s", status ("infinite_loop"));
%! f = expect (f, ! isempty (strfind (status ("huge_line"), "flooded its output (more than 64 KiB in a call)")),
%!             "huge line: %s", status ("huge_line"));
%! info = dir (fullfile (P.out, "huge_line", "output.log"));
%! f = expect (f, info.bytes <= 64 * 1024 + 200, "output.log of %d bytes", info.bytes);
%! f = expect (f, ! isempty (strfind (status ("kill_self"), "signal 9")), "kill_self: %s", status ("kill_self"));
%! f = expect (f, isempty (strfind ([S.status], "137")), "a status says 137");
%! ## each test within its time limit (the trusted side's decoding of a
%! ## reply included), each student within its total time (its own start
%! ## and end take a few seconds)
%! for s = S(:)'
%!   [t, k] = max ([0, s.tests.seconds]);
%!   f = expect (f, t <= opts.time_limit + 2, "test %d of %s took %.1f s (time limit %g s)", k - 1,
%!               s.student, t, opts.time_limit);
%!   f = expect (f, s.seconds <= opts.total_time + 5, "%s took %.1f s (total time %g s)", s.student,
%!               s.seconds, opts.total_time);
%! endfor
%! check_list ("limits not held", f);

%!testif ; hostile_here ()
%! ## what the attacks printed or raised is no status: only what happened
%! assert (ran);
%! f = {};
%! status = @(name) pick (S, name).status;
%! st = strjoin ({S.status}, "\n");
%! f = expect (f, isempty (strfind (st, "Read-only")) && isempty (strfind (st, "blocked")),
%!             "a status names a printed text");
%! f = expect (f, strcmp (status ("forge_guess"), "ok"), "forge_guess: %s", status ("forge_guess"));
%! ## an error's text is no cause: neither memory nor a forbidden call
%! f = expect (f, strcmp (status ("forge_status"), "ok"), "forge_status: %s", status ("forge_status"));
%! ## the forbidden ones fail exactly the tests that call attn_softmax,
%! ## each saying so
%! for c = C(strncmp ({C.name}, "forbid_", 7))'
%!   s = pick (S, c.name);
%!   said = ! cellfun (@isempty, strfind ({s.tests.message}, "attn_softmax may not be used"));
%!   f = expect (f, isequal (said, [true true false true]) && isequal ([s.tests.passed], ! said),
%!               "%s: %s", c.name, strjoin ({s.tests.message}, "; "));
%! endfor
%! ## a file that does not parse fails only the tests that call it, saying why
%! s = pick (S, "syntax_half");
%! f = expect (f, isequal ([s.tests.passed], [true true false true])
%!                && ! isempty (strfind (s.tests(3).message, "parse error")), "syntax_half: %s", s.tests(3).message);
%! s = pick (S, "syntax_twice");
%! f = expect (f, isequal ([s.tests.passed], [false false true false])
%!                && ! isempty (strfind (s.tests(1).message, "parse error")), "syntax_twice: %s", s.tests(1).message);
%! ## files that are not regular, or too large, are not graded, and said so
%! for c = {"fifo_file", "not a regular file"; "folder_file", "not a regular file"; "big_file", "larger than 1 MiB"}'
%!   f = expect (f, strcmp (status (c{1}), sprintf ("missing my_twice.m; my_twice.m is %s (not graded)", c{2})),
%!               "%s: %s", c{1}, status (c{1}));
%! endfor
%! f = expect (f, ! isempty (strfind (status ("symlinks"), "my_half.m is not a regular file")),
%!             "symlinks: %s", status ("symlinks"));
%! check_list ("statuses", f);

%!testif ; hostile_here ()
%! ## grades.csv, results.json and feedback.txt agree with S
%! assert (ran);
%! rows = csv_rows (read_all (fullfile (P.out, "grades.csv")));
%! assert (rows{1}, {"student", "score", "points", "time", "status"});
%! rows = vertcat (rows{2:end});
%! assert (rows(:, 1), sort ({C.name})');
%! for i = 1:numel (S)
%!   s = S(i);
%!   r = rows(strcmp (rows(:, 1), s.student), :);
%!   same (str2double (r(2:3)), [s.score, s.points], [s.student, " in grades.csv"]);
%!   assert (r{5}, s.status);
%!   assert (s.score, sum ([s.tests.score]));
%!   assert ([s.points, numel(s.tests)], [5, 4]);
%!   j = jsondecode (read_all (fullfile (P.out, s.student, "results.json")));
%!   same (j.score, s.score, [s.student, " results.json score"]);
%!   same (j.score, sum ([j.tests.score]), [s.student, " results.json sum"]);
%!   assert ([j.tests.max_score], [1 2 1 1]);
%!   assert ({j.tests.name}, {"twice a scalar", "twice a matrix", "half", "twice zero"});
%!   fb = read_all (fullfile (P.out, s.student, "feedback.txt"));
%!   ends = find (fb == "\n");       # (not regexp: the text may be any bytes)
%!   last = fb(ends(end-1)+1:ends(end)-1);
%!   same (last, sprintf ("%d of 4 tests, %g of 5 points", nnz ([s.tests.passed]), s.score),
%!         [s.student, " feedback.txt"]);
%! endfor

%!testif ; hostile_here ()
%! ## a second, small class: student folders named like the run's own
%! ## output and with quotes and a comma; the run completes and grades both
%! assert (ran);
%! subs = fullfile (root, "names");
%! out = fullfile (root, "names_out");
%! mkdir (subs);
%! names = {"grades.csv", "o'brien, \"jr\""};
%! good = C(strcmp ({C.name}, "good_plain"));
%! for n = names
%!   good.name = n{1};
%!   put (subs, good, P);
%! endfor
%! try
%!   T = attn_grade_class (P.grader, subs, out, "quiet", true, "time_limit", opts.time_limit,
%!                         "total_time", opts.total_time, "jobs", opts.jobs);
%! catch err
%!   error ("a class with folders named %s stopped: %s", strjoin (names, " and "), err.message);
%! end_try_catch
%! ## the one named like the grades file is not graded, and said so
%! same ({T.student}, sort (names), "students");
%! same ([T.score], [0 5], "scores");
%! same (T(1).status, "not graded: a student's folder may not be named grades.csv", "status");
%! rows = csv_rows (read_all (fullfile (out, "grades.csv")));
%! same (numel (rows), 3, "lines of grades.csv");
%! same (sort (cellfun (@(r) r{1}, rows(2:end), "uniformoutput", false)), sort (names), "students in grades.csv");

%!test
%! ## clean up (also after a failure above)
%! if (! isempty (root) && isempty (getenv ("ATTN_HOSTILE_KEEP")))
%!   confirm_recursive_rmdir (false, "local");
%!   [~] = rmdir (root, "s");
%!   for f = {P.inst_new, P.src_new}
%!     if (exist (f{1}, "file"))
%!       delete (f{1});
%!     endif
%!   endfor
%! endif
