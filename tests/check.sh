#!/bin/bash
# Copyright (C) 2026 The attention developers
# SPDX-License-Identifier: GPL-3.0-or-later
#
# tests/check.sh TARBALL: every test stage of `make check`, in order:
#   1. C unit tests of the core        make -C tests/core check (if present)
#   2. Octave tests of the source tree tests/run_tests.m
#   3. the demo runs                   doc/attention_demo.m
#   4. install TARBALL into a temporary prefix, load it, spot checks
#   5. no answer key (solution/, mistakes.txt) in TARBALL or its installed copy
#   6. the installed package's tests   run_tests ("--installed", PREFIX)
# A stage reports its counts in a last line "N passed, N failed" or
# "N passed, N failed, N skipped"; a stage that exits non-zero without
# failures counted is one failure, and one that succeeds without printing
# counts is one pass.  Prints the totals as the very last line
# ("N passed, N failed, N skipped") and exits non-zero on any failure.

set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tarball=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
octave=(octave-cli --no-history --no-init-file --no-gui)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

total_pass=0
total_fail=0
total_skip=0
summary=()

stage () {
  local name=$1
  shift
  local log=$tmp/stage.log start=$SECONDS
  printf '\n=== %s\n' "$name"
  "$@" 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  local counts pass=0 fail=0 skip=0
  counts=$(grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$log" \
           | tail -n 1)
  if [ -n "$counts" ]; then
    pass=${counts%% passed*}
    fail=${counts#*passed, }
    fail=${fail%% failed*}
    case $counts in
      *skipped) skip=${counts##*failed, }; skip=${skip%% skipped} ;;
    esac
  elif [ "$status" -eq 0 ]; then
    pass=1
  fi
  if [ "$status" -ne 0 ] && [ "$fail" -eq 0 ]; then
    echo "$name: exited with status $status"
    fail=1
  fi
  total_pass=$((total_pass + pass))
  total_fail=$((total_fail + fail))
  total_skip=$((total_skip + skip))
  summary+=("$(printf '%6d passed %4d failed %4d skipped %5d s  %s' "$pass" \
                "$fail" "$skip" $((SECONDS - start)) "$name")")
}

cd "$root" || exit 1

if [ -f tests/core/Makefile ]; then
  stage "C unit tests (make -C tests/core check)" make -C tests/core check
fi

stage "Octave tests of the source tree (tests/run_tests.m)" \
  "${octave[@]}" --eval "addpath ('$root/tests'); exit (run_tests () > 0)"

stage "The demo (doc/attention_demo.m) runs" \
  "${octave[@]}" --eval \
  "addpath ('$root/src', '$root/inst'); run ('$root/doc/attention_demo.m')"

prefix=$tmp/prefix
mkdir -p "$prefix"
stage "pkg install $(basename "$tarball") into a temporary prefix" \
  "${octave[@]}" --eval \
  "addpath ('$root/tests'); exit (install_check ('$tarball', '$prefix') > 0)"

# The student package: graders and starters, but no solution or table of
# planted mistakes of an assignment, in the tarball or once installed.
answer_keys () {
  local keys graders
  keys=$( { tar tzf "$tarball" | grep -E '/doc/assignments/[^/]+/(solution(/|$)|mistakes\.txt$)';
            find "$prefix" -path '*/doc/assignments/*' \( -name solution -o -name mistakes.txt \) ; } )
  graders=$(tar tzf "$tarball" | grep -cE '/doc/assignments/[^/]+/grade_[^/]+\.m$')
  if [ -n "$keys" ]; then
    printf 'answer keys shipped to students:\n%s\n' "$keys"
    return 1
  fi
  if [ "$graders" -lt 4 ]; then
    echo "only $graders graders in $(basename "$tarball")"
    return 1
  fi
  echo "$graders graders, no solution/ or mistakes.txt in $(basename "$tarball") or installed"
}
stage "No answer key in the student tarball or the installed package" answer_keys

stage "Octave tests of the installed package" \
  "${octave[@]}" --eval \
  "addpath ('$root/tests'); exit (run_tests ('--installed', '$prefix') > 0)"

printf '\n=== Summary\n'
printf '%s\n' "${summary[@]}"
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
