#!/bin/bash
# Copyright (C) 2026 The attention developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# tests/valgrind/memcheck.sh: the MEX functions under valgrind memcheck.
#   1. baseline: plain octave-cli with octave.supp must be clean (shows that
#      the suppressions cover Octave's own allocations, and only those)
#   2. exercise_mex.m (kernel test files + fuzz harness, the codec's tests
#      and fuzz harness) under valgrind:
#      any invalid read/write, use of uninitialised memory, bad free or
#      definite leak that octave.supp does not cover fails.
# Logs: tests/valgrind/baseline.log, tests/valgrind/memcheck.log.
# Env: ATTN_MEMCHECK_FUZZ = fuzz cases in step 2 (default 300).

set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
octave=(octave-cli --no-history --no-init-file --no-gui)
vg=(valgrind --error-exitcode=99 --leak-check=full
    --show-leak-kinds=definite --errors-for-leak-kinds=definite
    --suppressions="$here/octave.supp" --keep-debuginfo=yes
    --num-callers=40 --gen-suppressions=all)

# Where the CPU does not report RDTSCP (some virtual machines), Octave
# cannot start under valgrind 3.19: see rdtscp_shim.c.
if [ -r /proc/cpuinfo ] && ! grep -qw rdtscp /proc/cpuinfo; then
  shim="$here/rdtscp_shim.so"
  cc -shared -fPIC -O2 -o "$shim" "$here/rdtscp_shim.c" || exit 1
  export LD_PRELOAD="$shim${LD_PRELOAD:+:$LD_PRELOAD}"
  echo "== this CPU does not report RDTSCP: $shim preloaded"
fi

summary () {
  grep -E "ERROR SUMMARY|definitely lost:|Invalid|uninitialised" "$1" \
    | sed 's/^==[0-9]*== *//' | sort | uniq -c
}

echo "== valgrind baseline: plain octave-cli with $here/octave.supp"
"${vg[@]}" --log-file="$here/baseline.log" "${octave[@]}" \
  --eval "x = rand (30); y = x*x'; disp (size (y))"
status=$?
summary "$here/baseline.log"
if [ "$status" -ne 0 ]; then
  echo "baseline not clean (status $status): the suppressions no longer fit" \
       "this Octave; see $here/baseline.log" >&2
  exit 1
fi

echo "== valgrind: kernel tests, fuzz harness, codec (log $here/memcheck.log)"
ATTN_ROOT="$root" "${vg[@]}" --log-file="$here/memcheck.log" \
  "${octave[@]}" "$here/exercise_mex.m"
status=$?
summary "$here/memcheck.log"
if [ "$status" -eq 99 ]; then
  echo "valgrind found errors; the first records:" >&2
  grep -v "^{\|^}\|^   [a-zA-Z<]" "$here/memcheck.log" \
    | grep -A30 -m3 -E "Invalid|uninitialised|definitely lost in|free" >&2
  exit 1
elif [ "$status" -ne 0 ]; then
  echo "tests failed under valgrind (status $status)" >&2
  exit 1
fi
echo "memcheck clean"
