## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later

## -*- texinfo -*-
## @deftypefn {} {@var{nfail} =} install_check (@var{tarball}, @var{prefix})
## Install @var{tarball} with @code{pkg install -local} under the empty
## folder @var{prefix}, load it and check the installed copy: the MEX
## functions run from the installed architecture folder, each has its help
## stub beside it, @code{attn_sdpa} reproduces seed 004's numbers, the
## internal @code{__grade_value__}, @code{__model_fits__},
## @code{__softmax_rows__} and @code{__cross_entropy__} are installed
## and run, and @code{doc} opens the installed reference manual at each
## public function's node (with @file{tests/reference/doc_screen.m}).
## Prints one line per check and last @samp{@var{N} passed, @var{N} failed};
## returns the number of failed checks.  @code{make check} then runs the
## installed package's own tests with
## @code{run_tests ("--installed", @var{prefix})}.
## @end deftypefn

function nfail = install_check (tarball, prefix)
  tarball = make_absolute_filename (tarball);
  prefix = make_absolute_filename (prefix);
  pkg ("prefix", prefix, prefix);
  pkg ("local_list", fullfile (prefix, "octave_packages"));
  results = false (0, 1);
  manual = info_file ();

  try
    out = evalc ("pkg ('install', '-local', tarball)");
    ok = isempty (regexp (out, '(?im)^warning', "once"));
    if (! ok)
      printf ("%s\n", out);
    endif
    results(end+1) = check ("pkg install without warnings", ok);
  catch err
    results(end+1) = check (["pkg install: " err.message], false);
  end_try_catch

  try
    pkg ("load", "attention");
    results(end+1) = check ("pkg load attention", true);
  catch err
    results(end+1) = check (["pkg load attention: " err.message], false);
  end_try_catch

  names = {"attn_sdpa", "attn_sdpa_backward", "attn_self", "attn_masked", ...
           "attn_cross", "attn_backward"};
  for i = 1:numel (names)
    results(end+1) = check_function (names{i}, prefix);
  endfor

  results(end+1) = check_seed004 ();
  results(end+1) = check_internal ("__grade_value__", prefix, @codec_round_trip);
  results(end+1) = check_internal ("__model_fits__", prefix, @model_checks);
  results(end+1) = check_internal ("__softmax_rows__", prefix,
                                   @() abs (sum (__softmax_rows__ ([1 2 3])) - 1) < 4 * eps);
  results(end+1) = check_internal ("__cross_entropy__", prefix,
                                   @() abs (__cross_entropy__ ([0 0], 1, true, 1, 0) - log (2)) < 4 * eps);
  results(end+1) = check_doc (prefix);
  results(end+1) = check ("pkg load leaves Octave's manual (info_file) as it was",
                          strcmp (info_file (), manual));
  results(end+1) = check_topics (prefix);

  nfail = sum (! results);
  printf ("%d passed, %d failed\n", sum (results), nfail);
endfunction

## Every public function of the installed INDEX is found under PREFIX
## after pkg load (the topic folders its PKG_ADD adds), and pkg unload
## takes every folder of the package off the path again (PKG_DEL).
function ok = check_topics (prefix)
  pkgdir = pkg ("list", "attention"){1}.dir;
  lines = strsplit (fileread (fullfile (pkgdir, "packinfo", "INDEX")), "\n");
  names = strsplit (strtrim (strjoin (lines(strncmp (lines, " ", 1)), " ")));
  found = cellfun (@(n) strncmp (which (n), prefix, numel (prefix)), names);
  pkg ("unload", "attention");
  left = strfind (path (), prefix);
  pkg ("load", "attention");
  ok = check (sprintf ("pkg load finds the %d functions of INDEX in the installed copy, pkg unload takes all its folders off the path",
                       numel (names)), all (found) && isempty (left));
endfunction

function ok = check (what, ok)
  if (ok)
    printf ("  ok    %s\n", what);
  else
    printf ("  FAIL  %s\n", what);
  endif
endfunction

## NAME resolves to the installed MEX file and help reads its stub.
function ok = check_function (name, prefix)
  file = which (name);
  [dir, ~, ext] = fileparts (file);
  ok = strcmp (ext, ".mex") && strncmp (file, prefix, numel (prefix));
  [text, format] = get_help_text (name);
  ok = ok && exist (fullfile (dir, [name ".m"]), "file") ...
       && strcmp (format, "texinfo") && ! isempty (strfind (text, name));
  ok = check (sprintf ("%s runs %s, help from its stub", name, file), ok);
endfunction

## The internal MEX function NAME (no stub: a private function documents
## it) is installed and runs: probe () is true.
function ok = check_internal (name, prefix, probe)
  file = which (name);
  [~, ~, ext] = fileparts (file);
  ok = strcmp (ext, ".mex") && strncmp (file, prefix, numel (prefix));
  try
    ok = ok && probe ();
  catch err
    printf ("%s\n", err.message);
    ok = false;
  end_try_catch
  ok = check (sprintf ("%s runs %s", name, file), ok);
endfunction

## the grading channel's codec: a value encoded and decoded
function ok = codec_round_trip ()
  v = {"nonce", int8([1 2]), struct("a", 1)};
  ok = isequal (__grade_value__ ("decode", __grade_value__ ("encode", v)), v);
endfunction

## check_model's one pass: a model passes twice, a NaN in it is named
function ok = model_checks ()
  m = attn_toy ("river");
  ok = ischar (attn_greedy (m, "the river bank")) && ischar (attn_greedy (m, "the river bank"));
  m.W_vocab(2) = NaN;
  try
    attn_greedy (m, "the river bank");
    ok = false;
  catch err
    ok = ok && strcmp (err.identifier, "attention:nonfinite");
  end_try_catch
endfunction

## doc NAME for every function of the installed INDEX: the doc.info beside
## NAME's installed file (the package folder or, for a MEX function, its
## architecture folder), at NAME's node; and the HTML pages are installed.
function ok = check_doc (prefix)
  addpath (fullfile (fileparts (mfilename ("fullpath")), "reference"));
  try
    desc = pkg ("list", "attention"){1};
    lines = strsplit (fileread (fullfile (desc.dir, "packinfo", "INDEX")), "\n");
    names = strsplit (strtrim (strjoin (lines(strncmp (lines, " ", 1)), " ")));
    shown = doc_screen (names);
    files = cellfun (@(n) fullfile (fileparts (which (n)), "doc.info"), names,
                     "uniformoutput", false);
    ok = numel (names) > 50 && all ([shown.status] == 0 & [shown.calls] == 1) ...
         && isequal ({shown.file}, files) && all (strncmp (files, prefix, numel (prefix))) ...
         && isequal ({shown.node}, strcat ("(doc)", names)) ...
         && exist (fullfile (desc.dir, "doc", "html", "attn_sdpa.html"), "file");
  catch err
    printf ("%s\n", err.message);
    ok = false;
  end_try_catch
  ok = check ("doc NAME opens the installed manual at NAME for every function of INDEX",
              ok);
endfunction

## Seed 004: the query q = [0 1 2 0] against keys 2*I gives scores
## [0 2 4 0], scaled [0 1 2 0], weights [0.08 0.22 0.61 0.08]; with one-hot
## values the message equals the weights.
function ok = check_seed004 ()
  q = [0 1 2 0];
  K = 2 * eye (4);
  V = eye (4);
  try
    [M, A, S] = attn_sdpa (q, K, V);
    s = (q * K') / sqrt (4);
    a = exp (s - max (s)) / sum (exp (s - max (s)));
    ok = isequal (q * K', [0 2 4 0]) ...
         && max (abs (S - [0 1 2 0])) < 1e-12 ...
         && max (abs (A - a)) < 1e-12 ...
         && max (abs (round (A * 100) / 100 - [0.08 0.22 0.61 0.08])) < 1e-12 ...
         && max (abs (M - a * V)) < 1e-12;
  catch err
    printf ("%s\n", err.message);
    ok = false;
  end_try_catch
  ok = check ("attn_sdpa reproduces seed 004 (weights [0.08 0.22 0.61 0.08])",
              ok);
endfunction
