## -*- texinfo -*-
## @deftypefn  {} {} attn_demo_black_cat ()
## @deftypefnx {} {} attn_demo_black_cat (@var{png})
## @deftypefnx {} {@var{r} =} attn_demo_black_cat (@dots{})
## Seed 004's black cat: encoder, decoder, cross-attention.  The seed's
## three demos and its alignment grid, run by the package.
##
## The model is @code{attn_toy ("blackcat")}: keys are roles (det, adj, noun,
## end), values one-hot French words.
##
## @enumerate
## @item Encode once, then one decoder step: after @code{le} the query
## @code{[0 1 2 0]} scores @code{[0 2 4 0]} against the keys, scaled by
## sqrt(dk) = 2 to @code{[0 1 2 0]}, weights @code{[0.08 0.22 0.61 0.08]},
## a message that puts 0.61 on @code{chat}, and greedy decoding writes
## @code{chat}.
## @item Translate the whole sentence: @code{le chat noir} with 1 encoder
## pass and 4 decoder steps.
## @item Another source, same decoder: @code{the white dog} gives
## @code{le chien blanc}; the decoder's queries are the same, the values
## differ.
## @item The alignment grid (word written × source weights): @code{chat} reads
## @code{cat}, @code{noir} reads @code{black}; the alignment crosses.
## With @var{png}, the grid is also saved there as a heatmap.
## @end enumerate
##
## @var{r} holds the numbers: @code{raw_scores}, @code{scores}, @code{A},
## @code{message} (demo 1), @code{next}, @code{text}, @code{encoder_passes},
## @code{decoder_steps}, @code{text2}, @code{query_difference} (largest
## difference between the two sources' decoder queries), @code{grid}
## (steps×source), @code{grid_rows}, @code{grid_cols}.
##
## @example
## @group
## r = attn_demo_black_cat ();
## @print{} Seed 004: ...
## r.text
## @result{} ans = le chat noir
## @end group
## @end example
##
## Run it with @code{demo attn_demo_black_cat} or by its name.
## @seealso{attn_toy, attn_greedy, attn_demo_river_bank, attn_demo_applications}
## @end deftypefn

function varargout = attn_demo_black_cat (png = "")
  m = attn_toy ("blackcat");
  french = m.tgt_vocab.words(m.tgt_vocab.bos+1:end);   # le chat noir chien blanc <eos>
  show = @(varargin) printf ("%s\n", attn_show (varargin{:}));
  printf ("Seed 004: the black cat, a hand-built encoder-decoder\n\n");

  printf ("== Demo 1: encode once, then one decoder step\n");
  tr = attn_forward (m, "the black cat", "<bos> le");
  c = tr.decoder(1).cross;
  dk = columns (c.K);
  printf ("The encoder ran once; cross-attention turns its rows into keys (roles)\n");
  printf ("and values (meanings), the memory every decoder step reads.\n");
  show (tr, "decoder(1).cross.K", "cols", "det adj noun end", "decimals", 0);
  show (tr, "decoder(1).cross.V", "cols", french, "decimals", 0);
  printf ("After \"le\" the decoder asks for a noun, and a bit of the adjective\n");
  printf ("(its row is named by the word it writes, \"chat\"):\n");
  show (tr, "decoder(1).cross.Q", "last", true, "cols", "det adj noun end", "decimals", 0);
  r.raw_scores = c.scores(end,:) * sqrt (dk);
  r.scores = c.scores(end,:);
  r.A = c.A(end,:);
  r.message = c.message(end,:);
  show (r.raw_scores, "chat", tr.source_labels, "q·k (scores before scaling)", "decimals", 0,
        "axes", {"word written", "source"});
  show (tr, "decoder(1).cross.scores", "last", true, "decimals", 0,
        "title", sprintf ("scaled by sqrt(dk) = %g: cross.scores", sqrt (dk)));
  show (tr, "decoder(1).cross.A", "last", true, "decimals", 2);
  show (tr, "decoder(1).cross.message", "last", true, "cols", french, "decimals", 2);
  [~, best] = max (tr.probs(end,:));
  r.next = tr.vocab_labels{best};
  printf ("The message is mostly \"chat\"; greedy decoding writes: %s\n\n", r.next);

  printf ("== Demo 2: translate the whole sentence\n");
  [r.text, info] = attn_greedy (m, "the black cat");
  r.encoder_passes = info.encoder_passes;
  r.decoder_steps = info.decoder_steps;
  printf ("the black cat -> %s\n", r.text);
  printf ("encoder passes: %d   decoder steps: %d (le, chat, noir, <eos>)\n\n",
          r.encoder_passes, r.decoder_steps);

  printf ("== Demo 3: another source, the same decoder\n");
  r.text2 = attn_greedy (m, "the white dog");
  printf ("the white dog -> %s\n", r.text2);
  t1 = attn_forward (m, "the black cat", ["<bos> " r.text]);
  t2 = attn_forward (m, "the white dog", ["<bos> " r.text2]);
  r.query_difference = max (abs (t1.decoder(1).cross.Q(:) - t2.decoder(1).cross.Q(:)));
  printf ("The decoder's queries are the same for both sources (largest difference %g);\n",
          r.query_difference);
  printf ("the values differ, so it writes different words:\n");
  show (t2, "decoder(1).cross.V", "cols", french, "decimals", 0);

  printf ("== The alignment grid: where the decoder looked when it wrote each word\n");
  r.grid = info.A(:,:,1,1);
  r.grid_rows = info.tokens;
  r.grid_cols = info.source_labels(:)';
  show (r.grid, r.grid_rows, r.grid_cols, "cross.A", "decimals", 2, "axes", {"word written", "source"});
  printf ("\"chat\" reads cat (column 3), \"noir\" reads black (column 2): the alignment crosses.\n");
  if (! isempty (png))
    attn_heatmap (r.grid, r.grid_rows, r.grid_cols, "alignment: the black cat -> le chat noir",
                  "axes", {"word written", "source"}, "file", png);
    printf ("heatmap saved to %s\n", png);
  endif
  if (nargout > 0)                   # called by name: no 450-line ans
    varargout{1} = r;
  endif
endfunction

%!demo
%! attn_demo_black_cat ();

%!test
%! ## called by name: the demos, and no ans of the result
%! out0 = evalc ("attn_demo_black_cat");
%! assert (isempty (strfind (out0, "ans =")));
%! assert (numel (strfind (out0, "\n")) < 80);

%!shared r, out
%! [out, r] = evalc ("attn_demo_black_cat ()");

%!test
%! ## demo 1: the seed's numbers, and softmax written out independently
%! assert (r.raw_scores, [0 2 4 0], 1e-12);
%! assert (r.scores, [0 1 2 0], 1e-12);
%! assert (round (100 * r.A) / 100, [0.08 0.22 0.61 0.08]);
%! assert (r.A, exp ([0 1 2 0]) / sum (exp ([0 1 2 0])), 1e-12);
%! assert (r.message(2), r.A(3), 1e-12);          # 0.61 on chat
%! assert (r.next, "chat");
%! ## the row fed "le" is named by the word it writes, "chat"
%! assert (! isempty (regexp (out, 'chat +0 +2 +4 +0\n')));
%! assert (! isempty (regexp (out, 'chat +0\.08 +0\.22 +0\.61 +0\.08\n')));
%! assert (! isempty (strfind (out, "greedy decoding writes: chat")));

%!test
%! ## demos 2 and 3
%! assert (r.text, "le chat noir");
%! assert ([r.encoder_passes, r.decoder_steps], [1 4]);
%! assert (r.text2, "le chien blanc");
%! assert (r.query_difference, 0);
%! assert (! isempty (strfind (out, "encoder passes: 1   decoder steps: 4")));
%! assert (! isempty (strfind (out, "the white dog -> le chien blanc")));

%!test
%! ## the alignment grid crosses: chat reads cat, noir reads black
%! assert (r.grid_rows, {"le", "chat", "noir", "<eos>"});
%! assert (r.grid_cols, {"the", "black", "cat", "<eos>"});
%! [~, looked] = max (r.grid, [], 2);
%! assert (looked(2:3)', [3 2]);
%! assert (sum (r.grid, 2), ones (4, 1), 1e-12);
%! assert (! isempty (regexp (out, 'chat +0\.08 +0\.22 +0\.61 +0\.08\n')));
%! assert (! isempty (regexp (out, 'noir +0\.08 +0\.61 +0\.22 +0\.08\n')));

%!test
%! f = [tempname() ".png"];
%! evalc ("attn_demo_black_cat (f)");
%! assert (exist (f, "file"), 2);
%! delete (f);
