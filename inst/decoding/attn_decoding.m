classdef attn_decoding

  ## -*- texinfo -*-
  ## @deftypefn  {} {@var{info} =} attn_decoding (@var{s})
  ## @deftypefnx {} {@var{infos} =} attn_decoding.of (@var{s})
  ## What attention greedy decoding computed, shown briefly.
  ##
  ## @code{attn_greedy} returns its @var{info} as this class: the fields of
  ## the struct @var{s} as properties (@code{attn_decoding.of} makes one
  ## object per element of a struct array, in its shape: one per sentence),
  ## @code{info.tokens}, @code{info.ids}, @code{info.probs} (steps×V),
  ## @code{info.A} (steps×m×h×L), @code{info.source_labels},
  ## @code{info.encoder_passes}, @code{info.decoder_steps},
  ## @code{info.stopped}, read and indexed as a struct's
  ## (@code{info.A(:, :, 1, 1)}, @code{[infos.decoder_steps]},
  ## @code{infos(2).tokens}).  Typed without a semicolon it prints one
  ## line per sentence and the size of each array, not the arrays: a
  ## 215-word vocabulary would otherwise print every step's 215
  ## probabilities.  @code{struct (info)} gives the plain struct.
  ## @seealso{attn_greedy}
  ## @end deftypefn

  properties
    source_labels = {};
    encoder_passes = 0;
    decoder_steps = 0;
    probs = [];
    A = [];
    ids = [];
    tokens = {};
    stopped = "";
  endproperties

  methods
    function d = attn_decoding (s)
      if (nargin == 0)
        return;
      endif
      if (numel (s) != 1)
        error ("attention:size", "attn_decoding: S must be one struct; attn_decoding.of (S) makes an array");
      endif
      d = attn_decoding.with_fields (d, s, attn_decoding.fields_of (s));
    endfunction

    function disp (d)
      if (isempty (d))
        printf ("  %s attn_decoding\n", shape_str (size (d)));
        return;
      endif
      printf ("  greedy decoding of %d sentence%s (attn_decoding; fields as a struct's):\n",
              numel (d), merge (numel (d) == 1, "", "s"));
      for k = 1:numel (d)
        e = d(k);
        printf ("  %d step%s (stopped: %s): %s\n", e.decoder_steps,
                merge (e.decoder_steps == 1, "", "s"), e.stopped, strjoin (e.tokens, " "));
      endfor
      e = d(1);
      printf ("  probs %s, A %s, ids %s, tokens %s, source_labels %s, encoder_passes, decoder_steps, stopped\n",
              shape_str (size (e.probs)), shape_str (size (e.A)), shape_str (size (e.ids)),
              shape_str (size (e.tokens)), shape_str (size (e.source_labels)));
    endfunction

    function s = struct (d)
      s = repmat (cell2struct (cell (numel (properties (d)), 1), properties (d), 1), size (d));
      for k = 1:numel (d)
        for p = properties (d)'
          s(k).(p{1}) = d(k).(p{1});
        endfor
      endfor
    endfunction
  endmethods

  methods (Static)
    ## an array of decodings shaped like the struct array s (a constructor
    ## returns one object)
    function d = of (s)
      if (numel (s) == 1)
        d = attn_decoding (s);
        return;
      endif
      d = attn_decoding ();
      if (isempty (s))
        d = d([]);
        return;
      endif
      f = attn_decoding.fields_of (s);     # once: every element has these fields
      last = num2cell (size (s));
      d(last{:}) = d;                      # s's shape at once, then element by element
      for k = 1:numel (s)
        d(k) = attn_decoding.with_fields (attn_decoding (), s(k), f);
      endfor
    endfunction
  endmethods

  methods (Static, Access = private)
    ## the field names of the struct (array) s, each one a property's
    function f = fields_of (s)
      f = fieldnames (s);
      names = properties ("attn_decoding");
      for i = 1:numel (f)
        if (! any (strcmp (f{i}, names)))
          error ("attention:internal", "attn_decoding: no property for the decoding field %s",
                 f{i});
        endif
      endfor
    endfunction

    ## d with the fields f of the struct s as its properties
    function d = with_fields (d, s, f)
      for i = 1:numel (f)
        d.(f{i}) = s.(f{i});
      endfor
    endfunction
  endmethods
endclassdef

%!test
%! ## typed without a semicolon: a few lines, not the probabilities
%! m = attn_model (struct ("src_vocab", attn_vocab ("a b c"), "tgt_vocab", attn_vocab (sprintf ("w%d ", 1:211)),
%!                         "d", 8, "heads", 2, "max_len", 6));
%! out = evalc ("[text, info] = attn_greedy (m, \"a b c\")");
%! assert (numel (strfind (out, "\n")) < 15, out);
%! assert (isempty (strfind (out, "Columns")));
%! assert (! isempty (strfind (out, sprintf ("probs %d×215", info.decoder_steps))));
%! ## read as a struct's fields
%! s = struct (info);
%! assert (isstruct (s));
%! assert (s.probs, info.probs);
%! assert (sum (info.probs, 2), ones (info.decoder_steps, 1), 1e-12);
%! assert (numel (info.tokens), info.decoder_steps);

%!test
%! ## a batch: one element per sentence, indexed as a struct array
%! m = attn_toy ("blackcat");
%! [t, I] = attn_greedy (m, {"the black cat"; "the white dog"});
%! assert (size (I), [2 1]);
%! assert ([I.decoder_steps], [4 4]);
%! assert (I(2).tokens, {"le", "chien", "blanc", "<eos>"});
%! out = evalc ("I");
%! assert (! isempty (strfind (out, "4 steps (stopped: eos): le chien blanc <eos>")));

%!test
%! ## of: the struct array's shape, each element from the same place
%! s = struct ("decoder_steps", {1, 2; 3, 4; 5, 6}, "stopped", "eos");
%! d = attn_decoding.of (s);
%! assert (size (d), [3 2]);
%! assert (d(3,2).decoder_steps, 6);
%! assert ([d.decoder_steps], [1 3 5 2 4 6]);
%! assert (size (attn_decoding.of (s([]))), [0 0]);

%!error id=attention:internal attn_decoding (struct ("tokens", {{}}, "beams", 3))
%!error id=attention:internal attn_decoding.of (struct ("tokens", {{}, {}}, "beams", 3))
