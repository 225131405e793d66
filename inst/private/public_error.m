## public_error (id, msg): raise the error ID with MSG as the public
## function that was called raises its own: the frames of the package's
## private helpers (with their subfunctions and anonymous functions) are
## left out of its stack, so that "called from" starts at that function.
function public_error (id, msg)
  st = dbstack ("-completenames");
  private = ! cellfun ("isempty", strfind ({st.file}, [filesep() "private" filesep()]));
  st = st(min ([find(! private, 1), numel(st) + 1]):end);
  rethrow (struct ("message", msg, "identifier", id, "stack", st));
endfunction
