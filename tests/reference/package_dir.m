## -*- texinfo -*-
## @deftypefn {} {@var{folder} =} package_dir ()
## The folder of the package being tested, the one whose @file{PKG_ADD}
## puts its topic folders on the path: @file{inst/} of a source tree, or
## the installed package's folder.
## @end deftypefn

function folder = package_dir ()
  folder = fileparts (fileparts (which ("attn_model")));
endfunction

%!test
%! folder = package_dir ();
%! assert (exist (fullfile (folder, "PKG_ADD"), "file"), 2);
%! assert (exist (fullfile (folder, "model", "attn_model.m"), "file"), 2);
