## -*- texinfo -*-
## @deftypefn {} {@var{script} =} child_script (@var{code})
## Write @var{code} to a new temporary @file{.m} file after the
## @code{addpath} that gives a child @command{octave-cli} the package the
## calling test runs (its @file{src} and @file{inst}, as found on the path),
## and return the file's name: for the tests that interrupt or limit a
## child process (saving under a full disk, Ctrl-C during a save or a
## training run).  The caller runs and deletes it.
## @end deftypefn

function script = child_script (code)
  script = [tempname() ".m"];
  fid = fopen (script, "w");
  fprintf (fid, "addpath ('%s', '%s');\n%s\n", fileparts (which ("attn_self")),
           package_dir (), code);
  fclose (fid);
endfunction

%!test
%! s = child_script ("x = 1;");
%! text = fileread (s);
%! delete (s);
%! assert (regexp (text, '^addpath \(.*\);\nx = 1;\n$', "once"), 1);
%! assert (! isempty (strfind (text, package_dir ())));
