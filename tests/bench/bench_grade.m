## Benchmark of class grading: a class of honest submissions of the softmax
## assignment (the reference solution, each copy with its own comment line)
## graded by attn_grade_class with the default limits and one job per
## core.  Reports the class's wall time per student (the target of issue
## 22: at most 1 s per honest student on 2 cores) and the median of each
## student's own time.  Run by `make bench`; ATTN_GRADE_CLASS sets the class
## size (default 200).

1;   # a script

function make_class (root, solution, n)
  files = glob (fullfile (solution, "*.m"));
  for k = 1:n
    folder = fullfile (root, sprintf ("student%03d", k));
    mkdir (folder);
    for f = files'
      [~, name, ext] = fileparts (f{1});
      text = fileread (f{1});
      fid = fopen (fullfile (folder, [name, ext]), "w");
      fprintf (fid, "%% student %d\n%s", k, text);
      fclose (fid);
    endfor
  endfor
endfunction

n = str2double (getenv ("ATTN_GRADE_CLASS"));
if (isnan (n))
  n = 200;
endif
here = fileparts (fileparts (fileparts (mfilename ("fullpath"))));
assignment = fullfile (here, "doc", "assignments", "softmax");
root = tempname ();
mkdir (root);
unwind_protect
  make_class (fullfile (root, "class"), fullfile (assignment, "solution"), n);
  t0 = tic ();
  S = attn_grade_class (fullfile (assignment, "grade_softmax.m"), fullfile (root, "class"),
                        fullfile (root, "grades"), "quiet", true);
  wall = toc (t0);
  full = nnz ([S.score] == [S.points]);
  printf ("class grading: %d honest submissions of softmax, %d cores, sandbox %s\n", n,
          nproc (), S(1).sandbox);
  printf ("  full marks          %d of %d\n", full, n);
  printf ("  class wall time     %.1f s, %.3f s a student (target: at most 1 s)\n", wall, wall / n);
  printf ("  a student's time    median %.2f s, max %.2f s\n", median ([S.seconds]),
          max ([S.seconds]));
unwind_protect_cleanup
  confirm_recursive_rmdir (false, "local");
  rmdir (root, "s");
end_unwind_protect
