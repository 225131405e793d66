## -*- texinfo -*-
## @deftypefn {} {[@var{tests}, @var{functions}, @var{files}] =} grade_parse (@var{grader})
## The tests of a grader file, without running anything.
##
## @var{tests}: struct array with @code{name}, @code{points} and
## @code{code} (the body of each @code{%!test} block, in file order).  The
## name is the first line of the comment block right above the
## @code{%!test} line (default @qcode{"test K"}); @samp{(N points)} or
## @samp{(1 point)} in that comment sets the points (default 1).
## @var{functions}: cellstr, the text of each @code{%!function} block.
## @var{files}: the files the student hands in, from a header line
## @samp{## Submission: a.m, b.m} (empty when there is none).
## Any other kind of block is an @code{attention:grader} error.
## @end deftypefn

function [tests, functions, files] = grade_parse (grader)
  text = fileread (grader);
  lines = strsplit (strrep (text, "\r", ""), "\n");
  tests = struct ("name", {}, "points", {}, "code", {});
  functions = {};
  files = {};
  header = regexp (text, '(?m)^\s*##\s*Submission:\s*(.*?)\s*$', "tokens", "once");
  if (! isempty (header))
    files = strtrim (strsplit (header{1}, {",", " "}));
    files(cellfun (@isempty, files)) = [];
  endif
  comment = {};
  i = 1;
  while (i <= numel (lines))
    line = lines{i};
    kw = regexp (line, '^%!(\w+)', "tokens", "once");
    if (isempty (kw))
      if (strncmp (line, "%!", 2))
        error ("attention:grader", "attn_grade: %s line %d: code outside a block", grader, i);
      elseif (! isempty (regexp (line, '^\s*[#%]', "once")))
        comment{end+1} = regexprep (line, '^\s*[#%]+\s?', "");
      else
        comment = {};
      endif
      i += 1;
      continue;
    endif
    ## the block: its first line and every following "%!" line that does
    ## not start a block of its own
    first = i;
    i += 1;
    while (i <= numel (lines) && strncmp (lines{i}, "%!", 2)
           && isempty (regexp (lines{i}, '^%!(test|function|shared|error|warning|assert|fail|xtest|testif|demo)\>', "once")))
      i += 1;
    endwhile
    body = cellfun (@(s) s(3:end), lines(first:i-1), "uniformoutput", false);
    switch (kw{1})
      case "test"
        body{1} = body{1}(5:end);
        tests(end+1) = test_entry (comment, body, numel (tests) + 1, grader, first);
      case "function"
        if (! strcmp (strtrim (body{end}), "endfunction"))
          error ("attention:grader", "attn_grade: %s line %d: %%!function without %%!endfunction",
                 grader, first);
        endif
        functions{end+1} = strjoin (body, "\n");
      otherwise
        error ("attention:grader",
               "attn_grade: %s line %d: %%!%s blocks are not graded (use %%!test and %%!function)",
               grader, first, kw{1});
    endswitch
    comment = {};
  endwhile
  if (isempty (tests))
    error ("attention:grader", "attn_grade: %s has no %%!test block", grader);
  endif
endfunction

function t = test_entry (comment, body, k, grader, line)
  t.name = sprintf ("test %d", k);
  t.points = 1;
  if (! isempty (comment))
    all_text = strjoin (comment, " ");
    p = regexp (all_text, '\((\d+(\.\d+)?) points?\)', "tokens", "once");
    if (! isempty (p))
      t.points = str2double (p{1});
    endif
    name = strtrim (regexprep (comment{1}, '\s*\(\d+(\.\d+)? points?\)', ""));
    if (! isempty (name))
      t.name = name;
    endif
  endif
  if (! (t.points > 0))
    error ("attention:grader", "attn_grade: %s line %d: a test needs more than 0 points",
           grader, line);
  endif
  t.code = strjoin (body, "\n");
endfunction

%!test
%! f = [tempname(), ".m"];
%! fid = fopen (f, "w");
%! fprintf (fid, "## Submission: my_a.m, my_b.m\n\n%%!function y = helper (x)\n%%!  y = 2 * x;\n%%!endfunction\n\n");
%! fprintf (fid, "## rows sum to one (2 points)\n## more words\n%%!test\n%%! assert (helper (1), 2);\n\n");
%! fprintf (fid, "%%!test\n%%! x = 1;\n%%! assert (x, 1);\n");
%! fclose (fid);
%! unwind_protect
%!   [t, fn, files] = grade_parse (f);
%!   assert ({t.name}, {"rows sum to one", "test 2"});
%!   assert ([t.points], [2 1]);
%!   assert (t(2).code, "\n x = 1;\n assert (x, 1);");
%!   assert (numel (fn), 1);
%!   assert (strncmp (fn{1}, "function y = helper (x)", 23));
%!   assert (files, {"my_a.m", "my_b.m"});
%! unwind_protect_cleanup
%!   delete (f);
%! end_unwind_protect

%!test
%! f = [tempname(), ".m"];
%! fid = fopen (f, "w");
%! fprintf (fid, "%%!shared x\n%%! x = 1;\n%%!test\n%%! assert (x, 1);\n");
%! fclose (fid);
%! unwind_protect
%!   try
%!     grade_parse (f);
%!     error ("not reached");
%!   catch err
%!     assert (err.identifier, "attention:grader");
%!     assert (! isempty (strfind (err.message, "%!shared blocks are not graded")));
%!   end_try_catch
%! unwind_protect_cleanup
%!   delete (f);
%! end_unwind_protect
