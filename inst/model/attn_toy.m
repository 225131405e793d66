## -*- texinfo -*-
## @deftypefn  {} {@var{m} =} attn_toy ("river")
## @deftypefnx {} {@var{m} =} attn_toy ("blackcat")
## The small attention models of the seeds, as structs.
##
## @table @asis
## @item @qcode{"river"}
## The translation toy of the river bank: width 3, separate source and target
## embedding and position tables, one encoder self-attention block, one
## masked decoder self-attention block, one cross-attention block (one head,
## dk = dv = 3), a vocabulary head with bias, no FFN or LayerNorm.  Source
## vocabulary @code{<eos> the river financial bank}, target vocabulary of five
## tokens @code{<bos> la rive banque <eos>}.  The package fits it itself, the
## same way every time (initialised from seed 0, then 20 full-batch Adam
## steps with learning rate 0.03: under a second), to "the river bank"
## @result{} "la rive" and "the financial bank" @result{} "la banque".  It is
## fitted, not saturated: the mean loss is about 0.06, and the decoder row
## at @code{la} puts most of its cross-attention weight on @code{river}.
##
## @item @qcode{"blackcat"}
## A hand-built model in which every number is chosen.  Width 10: four role
## coordinates (det, adj, noun, end) and six meaning coordinates (le, chat,
## noir, chien, blanc, <eos>).  A source word's row is its role and its
## French meaning; the cross-attention keys are twice the role
## (@code{W_K = [2I; 0]}) and the values the meaning (@code{W_V = [0; I]}),
## so dk = 4 and dv = 6.  The decoder's query is the role it needs next,
## chosen by the last written word: after @code{<bos>} [2 1 0 0], after
## @code{le} [0 1 2 0] ("a noun, and a bit of the adjective"), after a noun
## [0 2 1 0], after an adjective [0 0 1 2].  Against the keys of "the black
## cat <eos>" the query after @code{le} scores [0 2 4 0], scaled by sqrt(4)
## to [0 1 2 0], weights [0.08 0.22 0.61 0.08]: mostly @code{cat}, so the
## message is mostly @code{chat}.  The output projection writes the message
## into the meaning coordinates and the head reads them (times 5).  The
## self-attention blocks read but add nothing (@code{W_O = 0}); positions
## are zero.
## @end table
##
## @example
## @group
## m = attn_toy ("blackcat");
## [text, info] = attn_greedy (m, "the white dog");
## text
##   @result{} text = le chien blanc
## @end group
## @end example
## @seealso{attn_model, attn_greedy, attn_forward}
## @end deftypefn

function m = attn_toy (name)
  if (nargin != 1)
    print_usage ();
  endif
  if (! ischar (name))
    error ("attention:type", "attn_toy: NAME must be \"river\" or \"blackcat\", got %s",
           class (name));
  endif
  switch (name)
    case "river"
      m = river ();
    case "blackcat"
      m = blackcat ();
    otherwise
      error ("attention:option", "attn_toy: NAME must be \"river\" or \"blackcat\", got \"%s\"",
             name);
  endswitch
endfunction

function m = river ()
  c = struct ("d", 3, "heads", 1, "d_ff", 0, "norm", "none", "max_len", 8,
              "encoder_layers", 1, "decoder_layers", 1, "seed", 0);
  c.src_vocab = attn_vocab ("the river financial bank", {"<eos>"});
  c.tgt_vocab = attn_vocab ("<bos> la rive banque <eos>", {});
  m = attn_model (c);
  corpus = {"the river bank", "la rive"; "the financial bank", "la banque"};
  m = attn_train (m, corpus, "epochs", 20, "batch_size", 2, "lr", 0.03,
                  "shuffle", false, "verbose", false);
endfunction

function m = blackcat ()
  src = attn_vocab ("the black white cat dog", {"<eos>"});
  tgt = attn_vocab ("<bos> le chat noir chien blanc <eos>", {});
  ## role coordinates 1:4 (det adj noun end), meaning coordinates 5:10
  role = struct ("det", 1, "adj", 2, "noun", 3, "end", 4);
  meaning = @(w) 3 + attn_encode (tgt, w);   # le (id 2) -> 5, ..., <eos> (id 7) -> 10
  words = {"<eos>", "end",  "<eos>";
           "the",   "det",  "le";
           "black", "adj",  "noir";
           "white", "adj",  "blanc";
           "cat",   "noun", "chat";
           "dog",   "noun", "chien"};
  d = 10;
  src_embed = zeros (numel (src.words), d);
  for i = 1:rows (words)
    id = attn_encode (src, words{i,1});
    src_embed(id, role.(words{i,2})) = 1;
    src_embed(id, meaning (words{i,3})) = 1;
  endfor
  ## the query each last-written word asks with (role coordinates)
  asks = {"<bos>", [2 1 0 0]; "le", [0 1 2 0]; "chat", [0 2 1 0]; "chien", [0 2 1 0];
          "noir", [0 0 1 2]; "blanc", [0 0 1 2]; "<eos>", [0 0 0 2]};
  tgt_embed = zeros (numel (tgt.words), d);
  for i = 1:rows (asks)
    tgt_embed(attn_encode (tgt, asks{i,1}), 1:4) = asks{i,2};
  endfor
  I4 = eye (4);
  I6 = eye (6);
  silent = struct ("W_Q", [I4; zeros(6, 4)], "W_K", [I4; zeros(6, 4)],
                   "W_V", [zeros(4, 6); I6], "W_O", zeros (6, d), "heads", 1);
  cross = struct ("W_Q", [I4; zeros(6, 4)], "W_K", [2*I4; zeros(6, 4)],
                  "W_V", [zeros(4, 6); I6], "W_O", [zeros(6, 4), I6], "heads", 1);
  W_vocab = zeros (d, numel (tgt.words));
  W_vocab(5:10, 2:7) = 5 * I6;               # meaning coordinate -> its token
  b_vocab = [-5, zeros(1, 6)];               # <bos> is never written
  ## the layout of the schema, every number then set by hand
  m = model_new (check_config (struct ("d", d, "heads", 1, "dk", 4, "dv", 6, "d_ff", 0,
                                       "norm", "none", "max_len", 8, "encoder_layers", 1,
                                       "decoder_layers", 1, "src_vocab", src,
                                       "tgt_vocab", tgt), "attn_toy"), "attn_toy");
  m.src_embed = src_embed;
  m.src_pos = zeros (8, d);
  m.tgt_embed = tgt_embed;
  m.tgt_pos = zeros (8, d);
  m.encoder.self = silent;
  m.decoder.self = silent;
  m.decoder.cross = cross;
  m.W_vocab = W_vocab;
  m.b_vocab = b_vocab;
endfunction

%!shared river, cat
%! river = attn_toy ("river");
%! cat = attn_toy ("blackcat");

%!test
%! ## seed 000: the fitted toy translates both pairs
%! assert (size (river.src_embed), [5 3]);
%! assert (river.tgt_vocab.words, {"<bos>", "la", "rive", "banque", "<eos>"});
%! assert (isfield (river.encoder, "ffn") || isfield (river.decoder, "norm_self"), false);
%! [text, info] = attn_greedy (river, "the river bank");
%! assert (text, "la rive");
%! assert (info.tokens, {"la", "rive", "<eos>"});
%! assert (attn_greedy (river, "the financial bank"), "la banque");

%!test
%! ## seed 000: one more SGD step lowers the mean loss of the river pair
%! [before, G] = attn_loss (river, "the river bank", "la rive");
%! after = attn_loss (attn_sgd (river, G, 0.1), "the river bank", "la rive");
%! assert (after < before);
%! ## the teacher-forced cross-attention matrix is 3×4, rows summing to 1
%! [~, ~, info] = attn_loss (river, "the river bank", "la rive");
%! A = info.trace.decoder.cross.A;
%! assert (size (A), [3 4]);
%! assert (sum (A, 2), ones (3, 1), 1e-14);

%!test
%! ## seed 000: the la row's largest cross-attention weight goes to river
%! tr = attn_forward (river, "the river bank", "<bos> la");
%! [~, j] = max (tr.decoder.cross.A(2,:));
%! assert (tr.source_labels{j}, "river");

%!test
%! ## fitted reproducibly
%! assert (attn_toy ("river"), river);

%!test
%! ## seed 004: 1 encoder pass, 4 decoder steps, "le chat noir <eos>"
%! [text, info] = attn_greedy (cat, "the black cat");
%! assert (text, "le chat noir");
%! assert (info.tokens, {"le", "chat", "noir", "<eos>"});
%! assert ([info.encoder_passes, info.decoder_steps], [1 4]);
%! ## the step after "le": unscaled scores [0 2 4 0], scaled [0 1 2 0]
%! tr = attn_forward (cat, "the black cat", "<bos> le");
%! T = tr.decoder.cross;
%! assert (T.Q(2,:) * T.K', [0 2 4 0]);
%! assert (T.scores(2,:), [0 1 2 0]);
%! w = exp ([0 1 2 0]) / sum (exp ([0 1 2 0]));
%! assert (T.A(2,:), w, 1e-15);
%! assert (round (100 * T.A(2,:)) / 100, [0.08 0.22 0.61 0.08]);
%! assert (info.A(2,:), w, 1e-15);
%! ## crossing alignment: chat reads cat (column 3), noir reads black (2)
%! [~, col] = max (info.A, [], 2);
%! assert (col', [1 3 2 4]);

%!test
%! ## another source, the same decoder
%! [text, info] = attn_greedy (cat, "the white dog");
%! assert (text, "le chien blanc");
%! assert ([info.encoder_passes, info.decoder_steps], [1 4]);

%!error id=attention:option attn_toy ("rive")
%!error id=attention:type attn_toy (1)
