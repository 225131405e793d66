## -*- texinfo -*-
## @deftypefn  {} {@var{M} =} grade_mistakes ("read", @var{file})
## @deftypefnx {} {} grade_mistakes ("apply", @var{mistake}, @var{folder})
## The planted mistakes of an assignment: small edits of its solution.
##
## @qcode{"read"}: the table @var{file} (an assignment's
## @file{mistakes.txt}) as a struct array with @code{name},
## @code{description} and @code{edits} (struct array: @code{file},
## @code{old} and @code{new}, each a cellstr of lines).  In the table a
## line @samp{== NAME: what is wrong} starts a mistake, @samp{-- FILE} an
## edit of one file of the solution, and each following line starting with
## @samp{-} is a line to replace, with @samp{+} a line that replaces them;
## lines starting with @samp{#} and blank lines between mistakes are
## comments.  The table is data: nothing in it is run.
##
## @qcode{"apply"}: makes @var{mistake} in the copy of the solution in
## @var{folder}: in each edited file, the first run of the lines
## @code{old} after the previous edit of that file becomes @code{new}.
##
## A table or edit that does not fit is an @code{attention:grader} error.
## @end deftypefn

function M = grade_mistakes (action, varargin)
  switch (action)
    case "read"
      M = read_table (varargin{:});
    case "apply"
      apply (varargin{:});
  endswitch
endfunction

function M = read_table (file)
  M = struct ("name", {}, "description", {}, "edits", {});
  lines = strsplit (strrep (fileread (file), "\r", ""), "\n");
  for i = 1:numel (lines)
    line = lines{i};
    head = regexp (line, '^== ([\w-]+): (.*)$', "tokens", "once");
    if (! isempty (head))
      M(end+1) = struct ("name", head{1}, "description", head{2},
                         "edits", struct ("file", {}, "old", {}, "new", {}));
    elseif (strncmp (line, "-- ", 3) && ! isempty (M))
      M(end).edits(end+1) = struct ("file", line(4:end), "old", {{}}, "new", {{}});
    elseif (any (strncmp (line, {"-", "+"}, 1)) && ! isempty (M) && ! isempty (M(end).edits))
      side = merge (line(1) == "-", "old", "new");
      M(end).edits(end).(side){end+1} = line(2:end);
    elseif (! (isempty (strtrim (line)) || line(1) == "#"))
      error ("attention:grader", "%s line %d: expected \"== NAME: ...\", \"-- FILE\", \"-\" or \"+\", got \"%s\"",
             file, i, line);
    endif
  endfor
  for m = M
    if (isempty (m.edits) || any (cellfun (@isempty, {m.edits.old})))
      error ("attention:grader", "%s: mistake %s needs edits that each replace a line", file, m.name);
    endif
  endfor
endfunction

function apply (mistake, folder)
  after = struct ();               # per file: where the last edit ended
  for e = mistake.edits
    file = fullfile (folder, e.file);
    key = matlab.lang.makeValidName (e.file);
    if (! isfield (after, key))
      after.(key) = 0;
    endif
    lines = strsplit (fileread (file), "\n");
    n = numel (e.old);
    at = after.(key) + find (arrayfun (@(k) isequal (lines(k:k+n-1), e.old),
                                       after.(key)+1:numel (lines) - n + 1), 1);
    if (isempty (at))
      error ("attention:grader", "mistake %s: the lines to replace are not in %s%s",
             mistake.name, e.file, merge (after.(key) > 0, " after the previous edit", ""));
    endif
    lines = [lines(1:at-1), e.new, lines(at+n:end)];
    after.(key) = at + numel (e.new) - 1;
    fid = fopen (file, "w");
    fputs (fid, strjoin (lines, "\n"));
    fclose (fid);
  endfor
endfunction

%!test
%! folder = tempname ();
%! mkdir (folder);
%! unwind_protect
%!   fid = fopen (fullfile (folder, "f.m"), "w");
%!   fputs (fid, "function y = f (x)\n  y = 2 * x;\n  y += 1;\nendfunction\n");
%!   fclose (fid);
%!   fid = fopen (fullfile (folder, "mistakes.txt"), "w");
%!   fputs (fid, "# a comment\n\n== thrice: three times\n-- f.m\n-  y = 2 * x;\n+  y = 3 * x;\n+  y = y;\n");
%!   fputs (fid, "\n== no_add: no one added\n-- f.m\n-  y += 1;\n");
%!   fputs (fid, "\n== twice: two edits, in order\n-- g.m\n-x\n+a\n-- g.m\n-x\n+b\n");
%!   fclose (fid);
%!   M = grade_mistakes ("read", fullfile (folder, "mistakes.txt"));
%!   assert ({M.name}, {"thrice", "no_add", "twice"});
%!   assert (M(1).description, "three times");
%!   assert (M(1).edits.old, {"  y = 2 * x;"});
%!   assert (M(1).edits.new, {"  y = 3 * x;", "  y = y;"});
%!   assert (M(2).edits.new, {});
%!   grade_mistakes ("apply", M(1), folder);
%!   assert (fileread (fullfile (folder, "f.m")), "function y = f (x)\n  y = 3 * x;\n  y = y;\n  y += 1;\nendfunction\n");
%!   grade_mistakes ("apply", M(2), folder);
%!   assert (fileread (fullfile (folder, "f.m")), "function y = f (x)\n  y = 3 * x;\n  y = y;\nendfunction\n");
%!   ## the same edit again: the lines are no longer there
%!   try
%!     grade_mistakes ("apply", M(2), folder);
%!     error ("not reached");
%!   catch err
%!     assert (err.identifier, "attention:grader");
%!     assert (err.message, "mistake no_add: the lines to replace are not in f.m");
%!   end_try_catch
%!   ## edits of one file go down it: the second x is the second line
%!   fid = fopen (fullfile (folder, "g.m"), "w");
%!   fputs (fid, "x\nx\nx");
%!   fclose (fid);
%!   grade_mistakes ("apply", M(3), folder);
%!   assert (fileread (fullfile (folder, "g.m")), "a\nb\nx");
%!   fid = fopen (fullfile (folder, "bad.txt"), "w");
%!   fputs (fid, "== a: b\n-- f.m\n-x\nstray\n");
%!   fclose (fid);
%!   try
%!     grade_mistakes ("read", fullfile (folder, "bad.txt"));
%!     error ("not reached");
%!   catch err
%!     assert (err.identifier, "attention:grader");
%!     assert (! isempty (strfind (err.message, "line 4")));
%!   end_try_catch
%! unwind_protect_cleanup
%!   confirm_recursive_rmdir (false, "local");
%!   rmdir (folder, "s");
%! end_unwind_protect
