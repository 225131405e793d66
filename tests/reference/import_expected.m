## -*- texinfo -*-
## @deftypefn {} {@var{v} =} import_expected (@var{fixture}, @var{kind})
## The rows of @file{tests/fixtures/import/expected.txt} for one fixture and
## kind (@qcode{"input"}, @qcode{"logits"}, @qcode{"greedy"}, @dots{}): a
## cell of value rows, as the plain-Python references of
## @file{make_fixtures.py} wrote them.
## @end deftypefn

function v = import_expected (fixture, kind)
  file = fullfile (fileparts (which ("run_tests")), "fixtures", "import", "expected.txt");
  lines = strsplit (fileread (file), "\n");
  lines = lines(! strncmp (lines, "#", 1) & ! cellfun ("isempty", lines));
  f = regexp (lines, "\t", "split");
  f = vertcat (f{:});
  pick = strcmp (f(:,1), fixture) & strcmp (f(:,2), kind);
  v = cellfun (@(s) str2double (strsplit (s, " ")), f(pick,4), "UniformOutput", false)';
endfunction

%!test
%! v = import_expected ("gpt2", "input");
%! assert (iscell (v) && ! isempty (v) && all (cellfun (@isnumeric, v)));
%! assert (import_expected ("no such fixture", "input"), cell (1, 0));
