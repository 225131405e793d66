## print_usage (): the usage error of the public function that called it, in
## place of Octave's (whose identifier is Octave:invalid-fun-call): an
## attention:nargin error, as the MEX functions raise for a wrong argument
## count, with the calling forms of the function's help text.  (Octave
## itself still refuses more arguments than a signature names before the
## function runs: that error keeps Octave's identifier.)
function print_usage ()
  st = dbstack (1);
  name = regexprep (st(1).name, '>.*', '');
  forms = regexp (get_help_text (name), '@deftypefnx?\s*\{[^}]*\}\s*([^\n]*)', "tokens");
  forms = regexprep (cellfun (@(f) f{1}, forms, "UniformOutput", false),
                     {'@dots\{\}', '@\w+\{([^{}]*)\}', '@\w+\{([^{}]*)\}', '[{}]', '\s+'},
                     {'...', '$1', '$1', '', ' '});
  error ("attention:nargin", "Invalid call to %s.  Correct usage is:\n  %s", name,
         strjoin (strtrim (forms), "\n  "));
endfunction
