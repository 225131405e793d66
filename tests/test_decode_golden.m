## Decoding before and after the model layer became data: greedy, beam and
## sampled outputs of a fixed set of models (every generating family, every
## norm placement), and the probabilities greedy decoding saw, as the
## package gave them at commit 689bbde, before the redesign
## (tests/fixtures/decoding/golden.txt, written by make_golden.m there).
## The same tokens, and the same numbers to 1e-12.

%!test
%! here = fileparts (which ("run_tests"));
%! fixtures = fullfile (here, "fixtures", "decoding");
%! addpath (fixtures);
%! unwind_protect
%!   out = [tempname() ".txt"];
%!   make_golden (out);
%!   got = strsplit (strtrim (fileread (out)), "\n");
%!   want = strsplit (strtrim (fileread (fullfile (fixtures, "golden.txt"))), "\n");
%!   delete (out);
%! unwind_protect_cleanup
%!   rmpath (fixtures);
%! end_unwind_protect
%! assert (numel (got), numel (want));
%! for i = 1:numel (want)
%!   g = strsplit (got{i}, " | ");
%!   w = strsplit (want{i}, " | ");
%!   assert (g(1:end-1), w(1:end-1), want{i});      # names, sources and tokens
%!   assert (str2num (g{end}), str2num (w{end}), 1e-12);
%! endfor
