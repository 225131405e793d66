## -*- texinfo -*-
## @deftypefn  {} {@var{kind} =} grade_sandbox ("probe", @var{want})
## @deftypefnx {} {[@var{program}, @var{args}] =} grade_sandbox ("command", @var{box})
## @deftypefnx {} {@var{cg} =} grade_sandbox ("cgroup", @var{name}, @var{limits})
## @deftypefnx {} {@var{cause} =} grade_sandbox ("cgroup events", @var{cg})
## @deftypefnx {} {} grade_sandbox ("kill", @var{box}, @var{pid})
## @deftypefnx {} {} grade_sandbox ("cgroup remove", @var{cg})
## The process a student's functions run in during grading: how it is
## isolated and limited.
##
## @qcode{"probe"}: the strongest isolation this machine allows, among
## @table @asis
## @item @qcode{"bwrap"}
## bubblewrap in new user, mount, PID, network and IPC namespaces, with no
## capabilities and no further user namespaces; the process sees only
## @file{/usr}, the package, the submission's files and its own
## size-limited @file{/tmp} and @file{/dev/shm}.  Run as root, it first
## drops to an unprivileged uid of its own (@command{setpriv}).
## @item @qcode{"uid"}
## (root without a working bwrap) an unprivileged uid of its own and
## resource limits, but the whole file system readable as that uid.
## @item @qcode{"none"}
## a plain process with resource limits, as the caller's user.
## @end table
## @var{want} @qcode{"auto"} takes the first that works; @qcode{"bwrap"}
## or @qcode{"uid"} requires that one (an @code{attention:sandbox} error
## otherwise).
##
## @qcode{"command"}: the program and arguments for @code{popen2} that
## start the worker: a shell that joins the cgroups of @var{box}, then the
## resource limits (@command{prlimit}), the uid change, the sandbox and
## @command{octave-cli} running @code{attn_grade ("--worker", @dots{})}.
## @var{box} has @code{kind}, @code{package} (the package copy, see
## @code{grade_package}), @code{submission} (the folder of the copied
## files), @code{uid}, @code{memory} and @code{disk} (MiB),
## @code{processes}, @code{cpu} (seconds), @code{max_bytes} (of a message)
## @code{cgroup}, and for bwrap @code{bwrap_args}, a file in a folder only
## the grading side may read.
##
## @qcode{"package"}, @var{folder}, @var{forbidden}: a copy of the
## package's functions in @var{folder} for the worker (its topic folders
## flattened into one), in which each
## function named in the cellstr @var{forbidden} is moved to
## @file{private/} (where the package's own functions still find it) and
## replaced by one that raises @code{attention:forbidden}.
##
## @qcode{"uid"}, @var{run}, @var{slot}: the uid of the worker in
## @var{slot} (0 to 255) of the grading run @var{run} (the pid of the
## process that started it) when grading runs as root.  @qcode{"cgroup name"}, @var{pid}, @var{slot}: the
## name of the cgroup the grading process @var{pid} makes for its worker.
##
## @qcode{"cgroup"}: a cgroup (v1 or v2, where this process may create one)
## with the memory and process limits of @var{limits} and at most one core
## of CPU; empty where none can be made.  @qcode{"cgroup events"}: why the cgroup stopped
## a process (@qcode{""} if it did not).
## @end deftypefn

function varargout = grade_sandbox (action, varargin)
  switch (action)
    case "probe"
      varargout{1} = probe (varargin{:});
    case "command"
      [varargout{1:2}] = command (varargin{:});
    case "package"
      package_copy (varargin{:});
    case "kill"
      kill_worker (varargin{:});
    case "uid"
      varargout{1} = unused_uid (varargin{:});
    case "cgroup name"
      varargout{1} = sprintf ("attn-grade-%d-%d", varargin{:});
    case "cgroup"
      varargout{1} = cgroup_create (varargin{:});
    case "cgroup events"
      varargout{1} = cgroup_events (varargin{:});
    case "cgroup remove"
      cgroup_remove (varargin{:});
    case "cgroup sweep"
      cgroup_sweep ();
  endswitch
endfunction

function kind = probe (want)
  persistent known = struct ();
  key = matlab.lang.makeValidName (want);
  if (isfield (known, key))
    kind = known.(key);
    return;
  endif
  kind = "none";
  if (strcmp (want, "uid"))
    if (getuid () != 0 || system ("setpriv --version >/dev/null 2>&1") != 0)
      error ("attention:sandbox", "the uid sandbox needs root and setpriv");
    endif
    kind = "uid";
  elseif (! strcmp (want, "none"))
    box = struct ("kind", "bwrap", "uid", unused_uid (getpid (), 0));
    probe_cmd = strjoin (cellfun (@shell_quote, [drop_uid(box), bwrap_args(box, {}), {"true"}],
                                  "uniformoutput", false), " ");
    if (system ([probe_cmd, " >/dev/null 2>&1"]) == 0)
      kind = "bwrap";
    elseif (strcmp (want, "bwrap"))
      error ("attention:sandbox",
             "bwrap is missing or does not work here (install the Debian package bubblewrap; inside a container it needs user namespaces)");
    elseif (getuid () == 0 && system ("setpriv --version >/dev/null 2>&1") == 0)
      kind = "uid";
    endif
  endif
  known.(key) = kind;
endfunction

## The uid a worker runs as when grading runs as root: one per grading run
## (RUN, the pid of its supervisor) and slot, far from the uids of people,
## services and the usual subordinate ranges, so that no file is its own,
## its process count is its own, and killing it touches no other run.
function uid = unused_uid (run, slot)
  uid = 100000000 + 256 * run + slot;
endfunction

function args = drop_uid (box)
  args = {};
  if (getuid () == 0 && ! strcmp (box.kind, "none"))
    id = sprintf ("%d", box.uid);
    args = {"setpriv", "--reuid", id, "--regid", id, "--clear-groups", "--inh-caps=-all", ...
            "--bounding-set=-all", "--no-new-privs"};
  endif
endfunction

## bwrap's arguments: what the worker sees.  /usr read-only (with the
## /etc entries the dynamic linker needs), the package and the submission
## read-only, a size-limited /tmp as home and working folder.
function args = bwrap_args (box, binds)
  args = {"bwrap", "--unshare-user", "--unshare-all", "--die-with-parent", "--new-session", ...
          "--disable-userns", "--cap-drop", "ALL", "--ro-bind", "/usr", "/usr"};
  for d = {"bin", "sbin", "lib", "lib32", "lib64", "libx32"}
    [info, err] = lstat (["/", d{1}]);
    if (err == 0 && S_ISLNK (info.mode))
      args = [args, {"--symlink", readlink(["/", d{1}]), ["/", d{1}]}];
    elseif (err == 0 && S_ISDIR (info.mode))
      args = [args, {"--ro-bind", ["/", d{1}], ["/", d{1}]}];
    endif
  endfor
  for f = {"/etc/alternatives", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d"}
    if (exist (f{1}))
      args = [args, {"--ro-bind", f{1}, f{1}}];
    endif
  endfor
  disk = 64;
  if (isfield (box, "disk"))
    disk = box.disk;
  endif
  ## /tmp holds what the worker may write; /dev/shm a little more
  args = [args, {"--proc", "/proc", "--dev", "/dev", "--size", sprintf("%d", round (disk * 2^20)), ...
                 "--tmpfs", "/tmp", "--size", sprintf("%d", 16 * 2^20), "--tmpfs", "/dev/shm"}, ...
          binds, {"--chdir", "/tmp"}];
endfunction

function [program, args] = command (box)
  limits = {"prlimit", sprintf("--as=%d", round (box.memory * 2^20)), ...
            sprintf("--fsize=%d", round (box.disk * 2^20)), sprintf("--cpu=%d", ceil (box.cpu)), ...
            "--nofile=256", "--core=0"};
  nproc = {"prlimit", sprintf("--nproc=%d", box.processes)};
  home = merge (strcmp (box.kind, "bwrap"), "/tmp", box.work);
  env = {"HOME", home; "TMPDIR", home; "PATH", "/usr/bin:/bin"; "LANG", "C.UTF-8";
         "OMP_NUM_THREADS", "1"; "OPENBLAS_NUM_THREADS", "1"};
  octave = {fullfile(OCTAVE_HOME (), "bin", "octave-cli"), "--no-history", "--norc", ...
            "--no-gui", "--no-window-system", "--eval"};
  switch (box.kind)
    case "bwrap"
      package = "/attention";
      submission = "/submission";
      ## bwrap reads its arguments from a file only the grading side may
      ## read (fd 3): the worker's /proc/1/cmdline names no folder of the host
      binds = {"--ro-bind", box.package, package, "--ro-bind", box.submission, submission};
      sandbox = bwrap_args (box, binds);
      fid = fopen (box.bwrap_args, "w");
      fprintf (fid, "%s\0", sandbox{2:end});
      fclose (fid);
      inner = [{"bwrap", "--args", "3"}, nproc];
    case "uid"
      ## a dedicated uid: its process count is the worker's alone
      package = box.package;
      submission = box.submission;
      limits = [limits, nproc(2)];
      inner = {"setsid"};
    otherwise
      package = box.package;
      submission = box.submission;
      inner = {"setsid"};
  endswitch
  code = sprintf ("addpath ('%s'); attn_grade ('--worker', '%s', %d);", package, submission,
                  box.max_bytes);
  ## The shell closes every file the grading side has open, joins the
  ## cgroups, opens bwrap's arguments, then becomes the worker (one pid from
  ## here on) with a clean environment (nothing of the grading side's,
  ## which /proc would show) and the student's output and errors in one
  ## stream.
  join = {};
  if (isfield (box, "cgroup") && ! isempty (box.cgroup))
    join = strcat (box.cgroup.dirs, "/cgroup.procs");
  endif
  script = ["for f in /proc/$$/fd/*; do n=${f##*/}; ", ...
            "if [ \"$n\" -gt 2 ] 2>/dev/null; then eval \"exec $n>&-\"; fi; done; ", ...
            "cd \"$1\" || exit 97; shift; exec 3< \"$1\" || exit 97; shift; ", ...
            "while [ \"$1\" != -- ]; do echo $$ > \"$1\" || exit 97; shift; done; shift; ", ...
            "exec env -i \"$@\" 2>&1"];
  args_file = "/dev/null";
  if (strcmp (box.kind, "bwrap"))
    args_file = box.bwrap_args;
  endif
  program = "/bin/bash";          # (dash cannot close a file number above 9)
  args = [{"-c", script, "bash", box.work, args_file}, join, {"--"}, ...
          strcat(env(:, 1), "=", env(:, 2))', limits, drop_uid(box), inner, octave, {code}];
endfunction

function package_copy (folder, forbidden)
  ## the package folder (this file may be reached through a topic's link)
  here = fileparts (canonicalize_file_name (fileparts (mfilename ("fullpath"))));
  mkdir (fullfile (folder, "private"));
  for from = unique ({here, fileparts(which ("attn_sdpa"))})
    ## the topic folders' functions, flattened into one folder
    files = [glob(fullfile (from{1}, "*.m")); glob(fullfile (from{1}, "*", "*.m"));
             glob(fullfile (from{1}, "*.mex"))];
    files(! cellfun (@isempty, regexp (files, '[/\\]private[/\\][^/\\]+$', "once"))) = [];
    copyfile (files, folder);
    private = glob (fullfile (from{1}, "private", "*"));
    if (! isempty (private))
      copyfile (private, fullfile (folder, "private"));
    endif
  endfor
  for name = forbidden(:)'
    moved = [glob(fullfile (folder, [name{1}, ".m"])); glob(fullfile (folder, [name{1}, ".mex"]))];
    if (isempty (moved))
      error ("attention:grader", "the grader forbids %s, which is not a function of the package",
             name{1});
    endif
    for f = moved'
      movefile (f{1}, fullfile (folder, "private"));
    endfor
    fid = fopen (fullfile (folder, [name{1}, ".m"]), "w");
    fprintf (fid, ["function varargout = %s (varargin)\n  error (\"attention:forbidden\", ", ...
                   "\"%s may not be used in this assignment: write it yourself\");\nendfunction\n"],
             name{1}, name{1});
    fclose (fid);
  endfor
endfunction

## Every process of the worker: its PID namespace dies with bwrap; the uid
## sandbox kills every process of its uid; without either, its group.
## PID 0: the worker itself has been reaped already.
function kill_worker (box, pid)
  if (pid > 0)
    [~] = kill (pid, 9);
    if (! strcmp (box.kind, "bwrap"))
      [~] = kill (-pid, 9);           # its process group (setsid)
    endif
  endif
  if (isfield (box, "cgroup") && ! isempty (box.cgroup))
    cgroup_kill (box.cgroup);
  elseif (strcmp (box.kind, "uid"))
    system (sprintf ("pkill -9 -U %d >/dev/null 2>&1", box.uid));
  endif
  if (pid > 0)
    waitpid (pid);
  endif
endfunction

## Where this process may make cgroups: for memory and pids, the folder of
## its own cgroup in the v1 hierarchy of that controller, or in the v2
## hierarchy when that has it.
function cg = cgroup_create (name, limits)
  cg = struct ("dirs", {{}}, "v2", false);
  if (getuid () != 0)
    cg = [];
    return;
  endif
  [mounts, own] = cgroup_places ();
  dirs = {};
  for c = cgroup_controllers ()
    d = "";
    if (isfield (mounts.v1, c{1}) && isfield (own.v1, c{1}))
      d = fullfile (mounts.v1.(c{1}), own.v1.(c{1}), name);
    elseif (! isempty (mounts.v2) && ! isempty (own.v2))
      parent = fullfile (mounts.v2, own.v2);
      if (any (strcmp (c{1}, strsplit (strtrim (file_text (fullfile (parent, "cgroup.subtree_control")))))))
        d = fullfile (parent, name);
        cg.v2 = true;
      endif
    endif
    if (isempty (d) || any (strcmp (d, dirs)))
      continue;
    endif
    [ok] = mkdir (d);
    if (ok)
      dirs{end+1} = d;
    endif
  endfor
  cg.dirs = dirs;
  cg.memory = limits.memory;
  cg.processes = limits.processes;
  bytes = sprintf ("%d", round (limits.memory * 2^20));
  for d = dirs
    write_text (fullfile (d{1}, "memory.limit_in_bytes"), bytes);
    write_text (fullfile (d{1}, "memory.memsw.limit_in_bytes"), bytes);
    write_text (fullfile (d{1}, "memory.max"), bytes);
    write_text (fullfile (d{1}, "memory.swap.max"), "0");
    write_text (fullfile (d{1}, "pids.max"), sprintf ("%d", limits.processes));
    ## one core at most: a student's busy processes cannot slow another's tests
    write_text (fullfile (d{1}, "cpu.cfs_period_us"), "100000");
    write_text (fullfile (d{1}, "cpu.cfs_quota_us"), "100000");
    write_text (fullfile (d{1}, "cpu.max"), "100000 100000");
  endfor
  if (isempty (dirs))
    cg = [];
  endif
endfunction

## The controllers a worker's cgroup limits: memory, processes, CPU.
function c = cgroup_controllers ()
  c = {"memory", "pids", "cpu"};
endfunction

function [mounts, own] = cgroup_places ()
  mounts = struct ("v1", struct (), "v2", "");
  own = struct ("v1", struct (), "v2", "");
  for line = strsplit (file_text ("/proc/self/mountinfo"), "\n")
    f = strsplit (line{1}, " ");
    sep = find (strcmp (f, "-"), 1);
    if (isempty (sep) || numel (f) < sep + 3)
      continue;
    endif
    if (strcmp (f{sep+1}, "cgroup2"))
      mounts.v2 = f{5};
    elseif (strcmp (f{sep+1}, "cgroup"))
      for c = intersect (cgroup_controllers (), strsplit (f{sep+3}, ","))
        mounts.v1.(c{1}) = f{5};
      endfor
    endif
  endfor
  for line = strsplit (file_text ("/proc/self/cgroup"), "\n")
    f = regexp (line{1}, '^\d+:([^:]*):(.*)$', "tokens", "once");
    if (isempty (f))
      continue;
    elseif (isempty (f{1}))
      own.v2 = f{2};
    endif
    for c = intersect (cgroup_controllers (), strsplit (f{1}, ","))
      own.v1.(c{1}) = f{2};
    endfor
  endfor
endfunction

function cause = cgroup_events (cg)
  cause = "";
  if (isempty (cg))
    return;
  endif
  for d = cg.dirs
    oom = [regexp(file_text (fullfile (d{1}, "memory.oom_control")), 'oom_kill (\d+)', "tokens", "once"), ...
           regexp(file_text (fullfile (d{1}, "memory.events")), 'oom_kill (\d+)', "tokens", "once")];
    if (any (str2double (oom) > 0))
      cause = sprintf ("killed: memory limit %g MiB", cg.memory);
      return;
    endif
    pids = regexp (file_text (fullfile (d{1}, "pids.events")), 'max (\d+)', "tokens", "once");
    if (! isempty (pids) && str2double (pids{1}) > 0)
      cause = sprintf ("stopped: process limit %d", cg.processes);
    endif
  endfor
endfunction

function cgroup_kill (cg)
  for d = cg.dirs
    for pid = str2double (strsplit (strtrim (file_text (fullfile (d{1}, "cgroup.procs")))))
      if (! isnan (pid))
        [~] = kill (pid, 9);
      endif
    endfor
  endfor
endfunction

## The folders under which this process makes cgroups.
function parents = cgroup_parents ()
  [mounts, own] = cgroup_places ();
  parents = {};
  for c = cgroup_controllers ()
    if (isfield (mounts.v1, c{1}) && isfield (own.v1, c{1}))
      parents{end+1} = fullfile (mounts.v1.(c{1}), own.v1.(c{1}));
    endif
  endfor
  if (! isempty (mounts.v2) && ! isempty (own.v2))
    parents{end+1} = fullfile (mounts.v2, own.v2);
  endif
  parents = unique (parents);
endfunction

## CG: as made, or its name (after its maker was killed).
function cgroup_remove (cg)
  if (ischar (cg))
    dirs = fullfile (cgroup_parents (), cg);
    cg = struct ("dirs", {dirs(cellfun (@isfolder, dirs))});
  endif
  if (isempty (cg) || isempty (cg.dirs))
    return;
  endif
  for attempt = 1:250
    cgroup_kill (cg);
    if (all (cellfun (@(d) rmdir (d), cg.dirs) | ! cellfun (@isfolder, cg.dirs)))
      return;
    endif
    pause (0.02);
  endfor
endfunction

function cgroup_sweep ()
  if (getuid () != 0)
    return;
  endif
  for parent = cgroup_parents ()
    for d = glob (fullfile (parent{1}, "attn-grade-*-*"))'
      pid = str2double (regexp (d{1}, 'attn-grade-(\d+)-\d+$', "tokens", "once"));
      if (! isempty (pid) && ! isfolder (sprintf ("/proc/%d", pid)))
        cgroup_remove (struct ("dirs", {d}));
      endif
    endfor
  endfor
endfunction


## Writes a control file that may not exist on this kind of cgroup.
function write_text (file, txt)
  if (exist (file, "file"))
    fid = fopen (file, "w");
    if (fid >= 0)
      fputs (fid, txt);
      fclose (fid);
    endif
  endif
endfunction

function q = shell_quote (s)
  q = ["'", strrep(s, "'", "'\\''"), "'"];
endfunction
