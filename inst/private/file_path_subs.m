## s = file_path_subs (path): the subsref/subsasgn index of a dotted array
## path: "decoder.1.cross.W_Q" -> m.decoder(1).cross.W_Q.
function s = file_path_subs (path)
  f = strsplit (path, ".");
  index = ! cellfun ("isempty", regexp (f, '^[1-9][0-9]*$', "once"));
  type = repmat ({"."}, size (f));
  type(index) = {"()"};
  f(index) = num2cell (num2cell (str2double (f(index))));
  s = struct ("type", type, "subs", f);
endfunction

%!test
%! m.decoder(2).cross.W_Q = 5;
%! assert (subsref (m, file_path_subs ("decoder.2.cross.W_Q")), 5);
%! m = subsasgn (m, file_path_subs ("decoder.1.self.heads"), 3);
%! assert (m.decoder(1).self.heads, 3);
