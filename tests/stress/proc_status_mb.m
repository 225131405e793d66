## -*- texinfo -*-
## @deftypefn {} {@var{mb} =} proc_status_mb (@var{field})
## A memory figure of this Octave process in MiB, from /proc/self/status:
## @var{field} is e.g. @qcode{"VmRSS"} (resident now) or @qcode{"VmHWM"}
## (peak resident).  NaN where /proc is missing.
##
## @example
## proc_status_mb ("VmRSS")
## @end example
## @end deftypefn

function mb = proc_status_mb (field)
  mb = NaN;
  if (! exist ("/proc/self/status", "file"))
    return;
  endif
  tok = regexp (fileread ("/proc/self/status"),
                ['(?m)^' field ':\s*(\d+)\s*kB'], "tokens", "once");
  if (! isempty (tok))
    mb = str2double (tok{1}) / 1024;
  endif
endfunction
