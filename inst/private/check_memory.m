## check_memory (n, largest, caller, what, advice): error attention:toolarge
## when n doubles, of which the largest array holds largest, would not fit
## in the memory this process may still use, before any of them is
## allocated: the arrays and twice the largest (one made and copied, as
## drawing a weight or reading a row-major array does) against
## MemAvailable of /proc/meminfo (MemTotal where that is missing), less
## than the address-space limit (ulimit -v) leaves.  The message is
## "CALLER: WHAT would hold ... numbers ...ADVICE".  The one rule for
## models made (model_new) and models read from a file (safetensors_data).
function check_memory (n, largest, caller, what, advice)
  need = 8 * (n + 2 * largest);
  [have, where] = memory_free ();
  if (need > have)
    error ("attention:toolarge",
           "%s: %s would hold %.4g numbers (%s as doubles), more than the %s of memory available (%s)%s",
           caller, what, n, bytes_str (8 * n), bytes_str (have), where, advice);
  endif
endfunction

## bytes this process may still allocate, and where the number comes from
function [have, where] = memory_free ()
  have = Inf;
  where = "no /proc/meminfo";
  info = file_text ("/proc/meminfo");
  for key = {"MemAvailable", "MemTotal"}
    kb = regexp (info, [key{1} ':\s*(\d+)\s*kB'], "tokens", "once");
    if (! isempty (kb))
      have = 1024 * str2double (kb{1});
      where = [key{1} " in /proc/meminfo"];
      break;
    endif
  endfor
  limit = regexp (file_text ("/proc/self/limits"), 'Max address space\s+(\d+)', "tokens", "once");
  used = regexp (file_text ("/proc/self/status"), 'VmSize:\s*(\d+)\s*kB', "tokens", "once");
  if (! isempty (limit) && ! isempty (used))
    left = str2double (limit{1}) - 1024 * str2double (used{1});
    if (left < have)
      have = max (left, 0);
      where = "what the address-space limit (ulimit -v) leaves";
    endif
  endif
endfunction


function s = bytes_str (b)
  units = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  k = min (max (floor (log2 (max (b, 1)) / 10), 0), numel (units) - 1);
  s = sprintf ("%.3g %s", b / 1024^k, units{k+1});
endfunction

%!error <f: the arrays would hold 1e\+15 numbers \(7.11 PiB as doubles\), more than the .* of memory available \(.*\); smaller> check_memory (1e15, 1, "f", "the arrays", "; smaller")
%!test
%! check_memory (1000, 10, "f", "the arrays", "");
