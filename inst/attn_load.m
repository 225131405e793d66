## -*- texinfo -*-
## @deftypefn {} {@var{m} =} attn_load (@var{file})
## Load a model saved by @code{attn_save}.
##
## The file is read with Octave's @code{load}, which reads data and never
## runs code from the file.  It must hold exactly what @code{attn_save}
## writes: the format tag @qcode{"attention-model 1"} and a model struct made
## of plain data (numbers, logicals, strings, cells, structs: no function
## handles or objects) whose arrays fit together (vocabularies and tables,
## block widths and heads, head and vocabulary).  Otherwise, or when the file
## is missing, unreadable or damaged, the error is @code{attention:file} and
## says what is wrong.
##
## @example
## @group
## f = [tempname() ".txt"];
## attn_save (attn_toy ("river"), f, "text");
## m = attn_load (f);
## attn_greedy (m, "the river bank")
##   @result{} ans = la rive
## delete (f);
## @end group
## @end example
## @seealso{attn_save}
## @end deftypefn

function m = attn_load (file)
  if (nargin != 1)
    print_usage ();
  endif
  if (! ischar (file) || isempty (file))
    error ("attention:type", "attn_load: FILE must be a file name, got %s", disp_arg (file));
  endif
  if (! exist (file, "file"))
    error ("attention:file", "attn_load: no such file \"%s\"", file);
  endif
  try
    s = load (file);
  catch err
    error ("attention:file", "attn_load: cannot read \"%s\" as an Octave data file: %s",
           file, err.message);
  end_try_catch
  if (! isfield (s, "attention_format") || ! isequal (s.attention_format, "attention-model 1")
      || ! isfield (s, "attention_model"))
    error ("attention:file",
           "attn_load: \"%s\" is not a model file of attn_save (no \"attention-model 1\" tag and model)",
           file);
  endif
  m = s.attention_model;
  bad = foreign_part (m, "m");
  if (! isempty (bad))
    error ("attention:file", "attn_load: \"%s\" holds %s, not plain model data", file, bad);
  endif
  try
    check_model (m, "attn_load");
    if (strcmp (m.config.family, "encoder-decoder"))
      check_shapes (m);
    endif
  catch err
    error ("attention:file", "attn_load: \"%s\" holds a damaged model: %s", file, err.message);
  end_try_catch
endfunction

## The first part of x that is not plain data (a function handle, an object,
## ...), named by its place, or "" when there is none.
function bad = foreign_part (x, where)
  bad = "";
  if (isstruct (x))
    names = fieldnames (x);
    for k = 1:numel (x)
      for i = 1:numel (names)
        bad = foreign_part (x(k).(names{i}), sprintf ("%s(%d).%s", where, k, names{i}));
        if (! isempty (bad))
          return;
        endif
      endfor
    endfor
  elseif (iscell (x))
    for k = 1:numel (x)
      bad = foreign_part (x{k}, sprintf ("%s{%d}", where, k));
      if (! isempty (bad))
        return;
      endif
    endfor
  elseif (! (isnumeric (x) || islogical (x) || ischar (x)))
    bad = sprintf ("a %s at %s", class (x), where);
  endif
endfunction

## Error unless the arrays of an encoder-decoder model fit together.
function check_shapes (m)
  check_vocab (m.src_vocab, "attn_load");
  check_vocab (m.tgt_vocab, "attn_load");
  d = columns (m.tgt_embed);
  want (m.src_embed, [numel(m.src_vocab.words), NaN], "src_embed");
  want (m.src_pos, [NaN, columns(m.src_embed)], "src_pos");
  want (m.tgt_embed, [numel(m.tgt_vocab.words), d], "tgt_embed");
  want (m.tgt_pos, [NaN, d], "tgt_pos");
  want (m.W_vocab, [d, numel(m.tgt_vocab.words)], "W_vocab");
  want (m.b_vocab, [1, numel(m.tgt_vocab.words)], "b_vocab");
  ds = columns (m.src_embed);
  for l = 1:numel (m.encoder)
    block (m.encoder(l).self, ds, ds, sprintf ("encoder(%d).self", l));
  endfor
  for l = 1:numel (m.decoder)
    block (m.decoder(l).self, d, d, sprintf ("decoder(%d).self", l));
    block (m.decoder(l).cross, d, ds, sprintf ("decoder(%d).cross", l));
  endfor
endfunction

function block (B, d, d_src, name)
  if (! all (isfield (B, {"W_Q", "W_K", "W_V", "W_O", "heads"})))
    error ("attention:file", "%s lacks a field of W_Q, W_K, W_V, W_O, heads", name);
  endif
  h = B.heads;
  if (! isnumeric (h) || ! isscalar (h) || h < 1 || h != fix (h)
      || mod (columns (B.W_Q), h) || mod (columns (B.W_V), h))
    error ("attention:file", "%s.heads must be a positive integer dividing the widths", name);
  endif
  want (B.W_Q, [d, NaN], [name ".W_Q"]);
  want (B.W_K, [d_src, columns(B.W_Q)], [name ".W_K"]);
  want (B.W_V, [d_src, NaN], [name ".W_V"]);
  want (B.W_O, [columns(B.W_V), d], [name ".W_O"]);
endfunction

## x must be a real double matrix of size sz (NaN = any).
function want (x, sz, name)
  if (! isa (x, "double") || ! isreal (x) || ndims (x) != 2
      || any (size (x) != sz & ! isnan (sz)))
    error ("attention:file", "%s must be a real %s double matrix, got a %s %s", name,
           strjoin (arrayfun (@(s) num2str (s), sz, "UniformOutput", false), "×"),
           strjoin (arrayfun (@num2str, size (x), "UniformOutput", false), "×"), class (x));
  endif
endfunction

%!shared m, f
%! m = attn_toy ("river");
%! f = tempname ();

%!test
%! ## exact round trip, both formats, models with FFN and LayerNorm too
%! c = struct ("src_vocab", {{"a b c"}}, "tgt_vocab", {{"x y"}}, "d", 4, "heads", 2,
%!             "d_ff", 3, "norm", "pre", "encoder_layers", 2, "decoder_layers", 1);
%! for model = {m, attn_toy("blackcat"), attn_model(c)}
%!   for format = {"binary", "text"}
%!     attn_save (model{1}, f, format{1});
%!     assert (isequal (attn_load (f), model{1}));
%!   endfor
%! endfor
%! delete (f);

%!test
%! ## a file that is not a model, a damaged one, a missing one
%! x = 3;  save ("-binary", f, "x");
%! fail ("attn_load (f)", "not a model file");
%! attn_save (m, f);
%! fid = fopen (f);  bytes = fread (fid, Inf, "uint8=>uint8");  fclose (fid);
%! fid = fopen (f, "w");  fwrite (fid, bytes(1:floor (end/2)));  fclose (fid);
%! try
%!   attn_load (f);
%!   error ("no error");
%! catch err
%!   assert (err.identifier, "attention:file");
%! end_try_catch
%! delete (f);
%! fail ("attn_load (f)", "no such file");

%!test
%! ## inconsistent arrays, a function handle: attention:file, nothing runs
%! attention_format = "attention-model 1";
%! attention_model = m;  attention_model.W_vocab(:,end) = [];
%! save ("-binary", f, "attention_format", "attention_model");
%! fail ("attn_load (f)", "W_vocab must be a real 3×5 double");
%! attention_model = m;  attention_model.config.hook = @() error ("ran");
%! save ("-binary", f, "attention_format", "attention_model");
%! try
%!   attn_load (f);
%!   error ("no error");
%! catch err
%!   assert (err.identifier, "attention:file");
%!   assert (! isempty (strfind (err.message, "function_handle at m(1).config(1).hook")));
%! end_try_catch
%! delete (f);

%!error id=attention:type attn_load (3)
