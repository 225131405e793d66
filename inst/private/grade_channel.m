## -*- texinfo -*-
## @deftypefn  {} {} grade_channel ("open", @var{box})
## @deftypefnx {} {@var{outputs} =} grade_channel ("call", @var{name}, @var{nout}, @var{args})
## @deftypefnx {} {} grade_channel ("deadline", @var{t}, @var{limit})
## @deftypefnx {} {@var{causes} =} grade_channel ("causes")
## @deftypefnx {} {@var{log} =} grade_channel ("close")
## The trusted side of grading talks to the worker, the process in which
## the student's functions run (@code{grade_sandbox}), through this
## channel alone.
##
## A call sends @var{name}, @var{nout} and the cell @var{args} (encoded by
## @code{grade_value}) on the worker's standard input and waits for the
## reply: a frame on its standard output that starts with a marker holding
## a fresh random nonce, then the length and the encoded outputs.  Every
## other byte the worker writes is the student's output, of which the first
## @code{box.output} KiB are kept for the log.  Nothing else crosses: the
## reply is decoded strictly, within @code{box.max_bytes}; a malformed
## reply, a reply over the limit, more than @code{box.output} KiB of output
## in one call, a worker past the deadline (decoding included) or a worker
## that ended are errors of the call
## (@code{attention:channel}, @code{attention:output},
## @code{attention:timeout}, @code{attention:worker}), and the worker is
## killed and started anew at the next call.  An error the student's
## function raised comes back as an error with its message and, when it is
## a valid one, its identifier.
##
## @qcode{"deadline"}: calls must be answered by time @var{t} (as from
## @code{time}); @var{limit} is the time limit to name when one is not.
## @qcode{"causes"}: what stopped the worker since the last look (each a
## text such as @qcode{"timed out (more than 2 s)"}).
## @qcode{"close"}: kills the worker; returns the student's output.
## @end deftypefn

function varargout = grade_channel (action, varargin)
  persistent W = struct ("box", [], "pid", -1, "in", -1, "out", -1, "pending", uint8 ([]),
                         "log", "", "printed", 0, "causes", {{}}, "deadline", Inf, "limit", Inf);
  switch (action)
    case "open"
      W.box = varargin{1};
      W.log = "";
      W.causes = {};
      W.deadline = Inf;
    case "deadline"
      [W.deadline, W.limit] = varargin{:};
    case "call"
      ## the arguments encoded first, a new worker known at once (Ctrl-C
      ## may come at any time), the state kept before a failure is raised
      [name, nout, args] = varargin{:};
      urandom = fopen ("/dev/urandom", "r");
      nonce = sprintf ("%02x", fread (urandom, 16, "uint8=>uint8"));
      fclose (urandom);
      request = grade_value ("encode", {nonce, name, nout, args});
      if (W.pid < 0)
        W = start (W);
      endif
      [W, varargout{1}, failure] = call (W, nonce, nout, request);
      if (! isempty (failure))
        error (failure);
      endif
    case "causes"
      varargout{1} = W.causes;
      W.causes = {};
    case "close"
      W = stop (W, "");
      varargout{1} = W.log;
      W.box = [];
  endswitch
endfunction

function [W, outputs, failure] = call (W, nonce, nout, request)
  outputs = {};
  if (time () > W.deadline)
    cause = sprintf ("timed out (more than %g s)", W.limit);
    [W, failure] = fail (W, cause, "attention:timeout", ["the submission ", cause]);
    return;
  endif
  W.printed = 0;
  try
    fwrite (W.in, [typecast(uint64 (numel (request)), "uint8"), request]);
    fflush (W.in);
  catch
    ## the worker is gone: what it wrote and why it ended are read below
  end_try_catch
  [W, payload, failure] = await (W, ["\n#ATTN-REPLY#", nonce, "#"]);
  if (! isempty (failure))
    return;
  endif
  unreadable = "sent a reply that cannot be read";
  try
    reply = grade_value ("decode", payload, W.box.max_bytes);
  catch err
    [W, failure] = fail (W, unreadable, "attention:channel",
                         sprintf ("the submission's process %s (%s)", unreadable, err.message));
    return;
  end_try_catch
  if (time () > W.deadline)      # a reply slow to decode counts in the test's time
    cause = sprintf ("timed out (more than %g s)", W.limit);
    [W, failure] = fail (W, cause, "attention:timeout", ["the submission ", cause]);
    return;
  endif
  if (iscell (reply) && numel (reply) == 3 && strcmp (reply{1}, "ok") && iscell (reply{2})
      && numel (reply{2}) <= max (nout, 1))
    outputs = reply{2};
  elseif (iscell (reply) && numel (reply) == 3 && strcmp (reply{1}, "error")
          && ischar (reply{2}) && ischar (reply{3}))
    ident = reply{3};
    if (numel (ident) > 200 || any (ident > 127)
        || isempty (regexp (ident, '^[A-Za-z][\w-]*(:[\w-]+)+$', "once")))
      ident = "attention:submission";
    endif
    message = reply{2}(1:min (end, 8000))(:)';
    if (strcmp (ident, "Octave:bad-alloc"))
      message = sprintf ("%s (the worker's memory limit is %g MiB)", message, W.box.memory);
    endif
    failure = struct ("identifier", ident, "message", message);
  else
    [W, failure] = fail (W, unreadable, "attention:channel",
                         ["the submission's process ", unreadable]);
  endif
endfunction

## Stops the worker for CAUSE; the call fails with IDENT and MESSAGE.
function [W, failure] = fail (W, cause, ident, message)
  W = stop (W, cause);
  failure = struct ("identifier", ident, "message", message);
endfunction

function W = start (W)
  [program, args] = grade_sandbox ("command", W.box);
  [W.in, W.out, W.pid] = popen2 (program, args);
  if (W.pid < 0)
    error ("attention:worker", "cannot start the worker process (%s)", program);
  endif
  W.pending = uint8 ([]);
endfunction

## Reads the worker's output until the frame that starts with MARKER is
## whole; returns its payload.  Polls: short sleeps first, for fast calls.
function [W, payload, failure] = await (W, marker)
  payload = [];
  failure = [];
  nap = 1e-4;
  need = Inf;                   # the frame's whole length, once known
  at = [];
  ended = false;
  while (true)
    [bytes, n] = fread (W.out, Inf, "uint8=>uint8");
    fclear (W.out);
    if (n > 0)
      W.pending = [W.pending, bytes'];
      nap = 1e-4;
    endif
    if (isempty (at))
      at = strfind (char (W.pending), marker);
      if (isempty (at))
        W = keep_output (W, numel (W.pending) - numel (marker) + 1);
      else
        at = at(1);
        W = keep_output (W, at - 1);
        at = 1;
      endif
    endif
    if (W.printed > W.box.output * 1024)    # also when the reply came with it
      cause = sprintf ("flooded its output (more than %g KiB in a call)", W.box.output);
      [W, failure] = fail (W, cause, "attention:output", ["the submission ", cause]);
      return;
    endif
    head = numel (marker) + 8;
    if (! isempty (at) && isinf (need) && numel (W.pending) >= head)
      len = double (typecast (W.pending(head-7:head), "uint64"));
      if (len > W.box.max_bytes)
        [W, failure] = fail (W, "sent a reply over the size limit", "attention:channel",
                             sprintf ("the submission's process sent a reply of %d bytes (limit %d)",
                                      len, W.box.max_bytes));
        return;
      endif
      need = head + len;
    endif
    if (numel (W.pending) >= need)
      payload = W.pending(head+1:need);
      W.pending = W.pending(need+1:end);
      return;
    endif
    if (ended)
      W = keep_output (W, numel (W.pending));      # its last words
      cause = why_ended (W);
      [W, failure] = fail (W, cause, "attention:worker", ["the submission's process ", cause]);
      return;
    elseif (time () > W.deadline)
      cause = sprintf ("timed out (more than %g s)", W.limit);
      [W, failure] = fail (W, cause, "attention:timeout", ["the submission ", cause]);
      return;
    endif
    [pid, status] = waitpid (W.pid, WNOHANG);
    if (pid == W.pid)
      W.status = status;
      W.pid = -2;               # reaped: read what is left once more
      ended = true;
      continue;
    endif
    pause (nap);
    nap = min (2 * nap, 0.01);
  endwhile
endfunction

## Moves the first N pending bytes to the log, kept within its size; counts
## them as printed in this call.
function W = keep_output (W, n)
  if (n <= 0)
    return;
  endif
  W.printed += n;
  room = W.box.output * 1024 - numel (W.log);
  keep = max (0, min (n, room));
  W.log = [W.log, char(W.pending(1:keep))];
  W.pending = W.pending(n+1:end);
endfunction

function cause = why_ended (W)
  cause = grade_sandbox ("cgroup events", field_or_empty (W.box, "cgroup"));
  if (! isempty (cause))
    return;
  endif
  s = W.status;
  signal = 0;
  if (WIFSIGNALED (s))
    signal = WTERMSIG (s);
  elseif (WIFEXITED (s) && strcmp (W.box.kind, "bwrap") && WEXITSTATUS (s) > 128
          && WEXITSTATUS (s) <= 128 + 64)
    signal = WEXITSTATUS (s) - 128;     # bwrap passes a signal on as 128 + its number
  endif
  names = {1, "SIGHUP"; 2, "SIGINT"; 6, "SIGABRT"; 7, "SIGBUS"; 8, "SIGFPE"; 9, "SIGKILL";
           11, "SIGSEGV"; 15, "SIGTERM"};
  if (signal == 24)
    cause = sprintf ("killed: CPU time limit %d s", ceil (W.box.cpu));
  elseif (signal == 25)
    cause = sprintf ("killed: file size limit %g MiB", W.box.disk);
  elseif (signal > 0)
    k = find ([names{:, 1}] == signal);
    cause = sprintf ("was killed by signal %d%s", signal,
                     merge (isempty (k), "", sprintf (" (%s)", names{k, 2})));
  elseif (WIFEXITED (s))
    cause = sprintf ("ended its process (exit status %d)", WEXITSTATUS (s));
  else
    cause = "ended its process";
  endif
endfunction

## Kills the worker (CAUSE, if any, is recorded) and closes its pipes.
function W = stop (W, cause)
  if (! isempty (cause))
    W.causes{end+1} = cause;
  endif
  if (W.pid != -1)
    grade_sandbox ("kill", W.box, max (W.pid, 0));
    fclose (W.in);
    fclose (W.out);
  endif
  W.pid = -1;
  W.pending = uint8 ([]);
endfunction
