## type = model_file_foreign_type (text): the first value type declared in
## the Octave text-format file text that is not plain data, or "" if none.
## Octave's load finds a "type" keyword after any '#' or '%' anywhere in the
## file (then blanks, '#' or '%', a word that starts with "type", blanks or
## ':'), and rebuilds a function handle by evaluating stored text; so every
## such place counts, strings included, and only the exact names of plain
## data types (numbers, logicals, characters, cells, structs) pass.
function type = model_file_foreign_type (text)
  ints = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"};
  ints = [strcat(ints, " scalar"), strcat(ints, " matrix")];
  plain = [{"scalar", "matrix", "complex scalar", "complex matrix", "bool", ...
            "bool matrix", "string", "sq_string", "cell", "scalar struct", "struct", ...
            "range", "double_range", "diagonal matrix", "complex diagonal matrix", ...
            "permutation matrix", "float scalar", "float matrix", "float complex scalar", ...
            "float complex matrix", "float diagonal matrix", ...
            "float complex diagonal matrix"}, ...
           ints];
  text(text > 127) = "\x01";    # regexp takes UTF-8 only; \x01 is in no name
  types = regexp (text, '[%#][ \t%#]*type[A-Za-z]*[ \t:]*([^\n\r]*)', "tokens");
  types = [types{:}];
  bad = find (! ismember (types, plain), 1);
  type = "";
  if (! isempty (bad))
    type = types{bad};
  endif
endfunction
