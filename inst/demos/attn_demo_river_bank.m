## -*- texinfo -*-
## @deftypefn  {} {} attn_demo_river_bank ()
## @deftypefnx {} {@var{r} =} attn_demo_river_bank ()
## Seed 000's river bank, step by step (cross-attention).  All seven
## steps, with the package's fitted toy.
##
## The model is @code{attn_toy ("river")}: width 3, one encoder
## self-attention block, one masked decoder block, one cross-attention block,
## a vocabulary head with bias, fitted to "the river bank" @result{}
## "la rive" and "the financial bank" @result{} "la banque".  The steps:
##
## @enumerate
## @item the task: source @code{the river bank <eos>}, prefix
## @code{<bos> la}, which French token comes next;
## @item the encoder reads the whole source: source rows (4×3), Q, K, V,
## weights (4×4), and the row of @code{bank}: e^src + Δe^enc = e^enc;
## @item the decoder reads the answer so far: target rows, masked weights,
## at @code{la}: e^tgt + Δe^self = e^self;
## @item the decoder asks the source: q = e^self W_Q^cross, the source keys
## and values, four scores and four weights;
## @item source information changes the prediction: message, update,
## e^cross, the five logits (the @code{rive} logit worked out) and the
## probabilities;
## @item training with teacher forcing: decoder input @code{<bos> la rive},
## labels @code{la rive <eos>}, the 3×3 masked and 3×4 cross-attention
## matrices, 3×5 logits, per-row and mean loss, one SGD step (learning rate
## 0.1) and the loss after it, and what the step did to the other pair;
## @item greedy generation with the updated model, and how the
## source-reading weights change from step to step.
## @end enumerate
##
## @var{r} holds what the steps compute: @code{model} and @code{updated}
## (the models before and after the step), @code{trace} (step 1-5 forward),
## @code{teacher} (the teacher-forced trace), @code{loss_before},
## @code{loss_after}, @code{row_loss_before}, @code{row_loss_after},
## @code{banque_before}, @code{banque_after} (probability of @code{banque}
## after "the financial bank", @code{<bos> la}), @code{text}, @code{text2}
## (the financial pair) and @code{reading} (the cross weights of each
## generation step).
##
## @example
## @group
## r = attn_demo_river_bank ();
## @print{} == Step 1. Translate one phrase
## @print{} ...
## [r.text, "  /  ", r.text2]
## @result{} ans = la rive  /  la banque
## @end group
## @end example
##
## Run it with @code{demo attn_demo_river_bank} or by its name (fitting the toy
## takes a few seconds).
## @seealso{attn_toy, attn_walkthrough, attn_demo_black_cat}
## @end deftypefn

function varargout = attn_demo_river_bank ()
  m = attn_toy ("river");
  r.model = m;
  show = @(varargin) printf ("%s\n", attn_show (varargin{:}));
  src = "the river bank";

  step (1, "Translate one phrase");
  tr = attn_forward (m, src, "<bos> la");
  r.trace = tr;
  printf ("English source: %s   French prefix: %s\n", strjoin (tr.source_labels(:)', " "),
          strjoin (tr.target_labels(:)', " "));
  printf ("Which French token comes after \"la\": rive or banque? Every row is 1×%d.\n\n",
          columns (tr.source_rows));

  step (2, "The encoder reads the whole source");
  show (tr, "source_rows", "title", "source_rows = src_embed(ids) + src_pos  e^src");
  show (tr, "encoder(1).self.Q");
  show (tr, "encoder(1).self.K");
  show (tr, "encoder(1).self.V");
  show (tr, "encoder(1).self.A", "title", "encoder A = softmax(Q K'/sqrt(3))");
  e = tr.encoder(1);
  show ([tr.source_rows(3,:); e.self.delta(3,:); e.after_self(3,:)],
        {"e_3^src", "+ Δe_3^enc", "= e_3^enc"}, [], "the row of bank, position 3");

  step (3, "The decoder reads the answer so far");
  show (tr, "target_rows", "title", "target_rows = tgt_embed(ids) + tgt_pos  e^tgt");
  show (tr, "decoder(1).self.A", "title", "masked self A (row i reads j <= i)");
  d = tr.decoder(1);
  show ([tr.target_rows(2,:); d.self.delta(2,:); d.after_self(2,:)],
        {"e_2^tgt", "+ Δe_2^self", "= e_2^self"}, [], "at la, position 2");

  step (4, "The decoder asks the source");
  c = d.cross;
  show (tr, "decoder(1).cross.Q", "last", true, "title", "q_2^cross = e_2^self W_Q^cross");
  show (tr, "decoder(1).cross.K", "title", "K = encoded source W_K^cross");
  show (tr, "decoder(1).cross.V", "title", "V = encoded source W_V^cross");
  show (tr, "decoder(1).cross.scores", "last", true, "title", "s_2j = q_2 · k_j / sqrt(3)");
  show (tr, "decoder(1).cross.A", "last", true, "title", "α_2j = softmax over the four source positions");
  [~, j] = max (c.A(2,:));
  printf ("The largest weight of the row fed la (labelled rive, the word it writes) goes to \"%s\".\n\n",
          tr.source_labels{j});

  step (5, "Source information changes the prediction");
  show (c.message(2,:), "m_2", [], "message m_2 = Σ_j α_2j v_j");
  show ([d.after_self(2,:); c.delta(2,:); d.after_cross(2,:)],
        {"e_2^self", "+ Δe_2^cross", "= e_2^cross"}, [], "Δe_2^cross = m_2 W_O^cross");
  rive = find (strcmp (tr.vocab_labels, "rive"));
  b = m.b_vocab(rive);
  printf ("logit of rive = e_2^cross · W_vocab(:, rive) + b_vocab(rive) = %.3f %s %.3f = %.3f\n\n",
          d.after_cross(2,:) * m.W_vocab(:,rive), merge (b < 0, "-", "+"), abs (b), tr.logits(2,rive));
  show (tr, "logits", "last", true, "title", "ℓ_2 = e_2^cross W_vocab + b_vocab");
  show (tr, "probs", "last", true, "title", "next-token probabilities");

  step (6, "Train on the observed translation (teacher forcing)");
  [r.loss_before, G, info] = attn_loss (m, src, "la rive");
  t = info.trace;
  r.teacher = t;
  r.row_loss_before = info.row_loss';
  printf ("decoder input: %s   labels: la rive <eos>\n\n", strjoin (t.target_labels(:)', " "));
  show (t, "decoder(1).self.A", "title", "masked self A: 3×3, no row reads a later one");
  show (t, "decoder(1).cross.scores", "title", "cross scores Q K'/sqrt(3): 3×4 (Q 3×3, K 4×3)");
  show (t, "decoder(1).cross.A", "title", "cross A: each row sums to one over the four source columns");
  show (t, "logits", "title", "logits: 3×5");
  lr = 0.1;
  r.updated = attn_sgd (m, G, lr);
  [r.loss_after, ~, after] = attn_loss (r.updated, src, "la rive");
  r.row_loss_after = after.row_loss';
  printf ("loss per label -log p      la          rive        <eos>       mean\n");
  printf ("  before one SGD step  %s\n", sprintf ("%12.6g", [r.row_loss_before, r.loss_before]));
  printf ("  after (lr %.1f)       %s\n", lr, sprintf ("%12.6g", [r.row_loss_after, r.loss_after]));
  printf ("The step %s the mean loss by %.3g; the <eos> loss %s.\n",
          merge (r.loss_after < r.loss_before, "lowers", "raises"), abs (r.loss_after - r.loss_before),
          merge (r.row_loss_after(3) > r.row_loss_before(3), "rises", "falls"));
  r.banque_before = next_prob (m, "the financial bank", "banque");
  r.banque_after = next_prob (r.updated, "the financial bank", "banque");
  printf ("The other pair: p(banque | the financial bank, <bos> la) %s from %.3f to %.3f.\n\n",
          merge (r.banque_after < r.banque_before, "falls", "rises"), r.banque_before, r.banque_after);

  step (7, "Generate one token at a time (greedy, with the updated model)");
  [r.text, g] = attn_greedy (r.updated, src);
  r.text2 = attn_greedy (r.updated, "the financial bank");
  printf ("the river bank -> %s      the financial bank -> %s\n", r.text, r.text2);
  printf ("encoder passes: %d, decoder steps: %d; the source, its encoding and its K, V stay fixed\n\n",
          g.encoder_passes, g.decoder_steps);
  r.reading = g.A(:,:,1,1);
  prev = [{"<bos>"}, g.tokens(1:end-1)];
  rows = cellfun (@(a, b) [a, " -> ", b], prev, g.tokens, "UniformOutput", false);
  show (g.probs, rows, tr.vocab_labels, "the distribution of each step");
  show (r.reading, rows, g.source_labels, "how the source-reading weights change (one query per step)",
        "axes", {"fed -> word written", "source"});
  if (nargout > 0)                   # called by name: no 450-line ans
    varargout{1} = r;
  endif
endfunction

function step (k, what)
  printf ("== Step %d. %s\n", k, what);
endfunction

## p(word) as the next token after "<bos> la" for SOURCE.
function p = next_prob (m, source, word)
  t = attn_forward (m, source, "<bos> la");
  p = t.probs(end, strcmp (t.vocab_labels, word));
endfunction

%!demo
%! attn_demo_river_bank ();

%!test
%! ## called by name, as the help says: the steps, and no ans of the result
%! out0 = evalc ("attn_demo_river_bank");
%! assert (isempty (strfind (out0, "ans =")));
%! assert (numel (strfind (out0, "\n")) < 200);

%!shared r, out, ref
%! [out, r] = evalc ("attn_demo_river_bank ()");
%! ## the step of the seed in plain Octave, from the weights (tests/reference)
%! m = r.model;
%! ids = attn_encode (m.src_vocab, {"the", "river", "bank", "<eos>"});
%! tgt = attn_encode (m.tgt_vocab, {"<bos>", "la", "rive"});
%! x = m.src_embed(ids,:) + m.src_pos(1:4,:);
%! [ref.E, ref.enc] = attn_ref_block ("self", x, [], m.encoder(1).self);
%! y = m.tgt_embed(tgt,:) + m.tgt_pos(1:3,:);
%! [ref.S, ref.self] = attn_ref_block ("masked", y, [], m.decoder(1).self);
%! [ref.C, ref.cross] = attn_ref_block ("cross", ref.S, ref.E, m.decoder(1).cross);
%! ref.logits = ref.C * m.W_vocab + m.b_vocab;
%! ref.probs = exp (ref.logits - max (ref.logits, [], 2));
%! ref.probs ./= sum (ref.probs, 2);
%! ref.labels = attn_encode (m.tgt_vocab, {"la", "rive", "<eos>"});

%!test
%! ## steps 2-5: the printed rows against the plain-Octave forward
%! r3 = @(x) round (1000 * x) / 1000;
%! assert (shown_row (out, "encoder A = softmax(Q K'/sqrt(3))", "bank"), r3 (ref.enc.A(3,:)));
%! assert (shown_row (out, "the row of bank, position 3", "= e_3^enc"), r3 (ref.E(3,:)));
%! assert (shown_row (out, "at la, position 2", "= e_2^self"), r3 (ref.S(2,:)));
%! ## the decoder row fed la is named by the word it writes, rive
%! assert (shown_row (out, "s_2j = q_2 · k_j / sqrt(3)", "rive"), r3 (ref.cross.scores(2,:)));
%! assert (shown_row (out, "α_2j = softmax over the four source positions", "rive"), r3 (ref.cross.A(2,:)));
%! assert (shown_row (out, "Δe_2^cross = m_2 W_O^cross", "= e_2^cross"), r3 (ref.C(2,:)));
%! assert (shown_row (out, "next-token probabilities", "rive"), r3 (ref.probs(2,:)));
%! assert (r.trace.probs, ref.probs(1:2,:), 1e-12);

%!test
%! ## the seed's claims: la reads river most; rive is the prediction
%! [~, j] = max (ref.cross.A(2,:));
%! assert (j, 2);
%! assert (! isempty (strfind (out, "of the row fed la (labelled rive, the word it writes) goes to \"river\".")));
%! [~, k] = max (ref.probs(2,:));
%! assert (r.model.tgt_vocab.words{k}, "rive");
%! rive = find (strcmp (r.model.tgt_vocab.words, "rive"));
%! assert (! isempty (strfind (out, sprintf ("= %.3f\n", ref.logits(2,rive)))));

%!test
%! ## step 6: 3×3 causal and 3×4 cross matrices; losses from the reference
%! assert (size (r.teacher.decoder(1).cross.A), [3 4]);
%! assert (triu (r.teacher.decoder(1).self.A, 1), zeros (3), 0);
%! assert (sum (r.teacher.decoder(1).cross.A, 2), ones (3, 1), 1e-12);
%! assert (r.teacher.decoder(1).cross.A, ref.cross.A, 1e-12);
%! p = ref.probs(sub2ind (size (ref.probs), 1:3, ref.labels));
%! assert (r.row_loss_before, -log (p), 1e-10);
%! assert (r.loss_before, mean (-log (p)), 1e-10);
%! assert (r.loss_after < r.loss_before);
%! ## what the demo says about the step agrees with the numbers
%! assert (! isempty (strfind (out, sprintf ("The step lowers the mean loss by %.3g", r.loss_before - r.loss_after))));
%! updown = {"falls", "rises"};
%! assert (! isempty (strfind (out, ["the <eos> loss ", updown{1 + (r.row_loss_after(3) > r.row_loss_before(3))}])));
%! assert (! isempty (strfind (out, sprintf ("%s from %.3f to %.3f", updown{1 + (r.banque_after > r.banque_before)},
%!                                           r.banque_before, r.banque_after))));
%! line = regexp (out, 'before one SGD step +([^\n]+)', "tokens", "once");
%! assert (str2double (strsplit (strtrim (line{1}))), [-log(p), mean(-log (p))], -1e-5);

%!test
%! ## step 7: both fitted pairs, one encoder pass, a weight row per step
%! assert (r.text, "la rive");
%! assert (r.text2, "la banque");
%! assert (! isempty (strfind (out, "encoder passes: 1, decoder steps: 3")));
%! assert (size (r.reading), [3 4]);
%! assert (sum (r.reading, 2), ones (3, 1), 1e-12);
%! ## step 2 of generation is the la row of the updated model
%! t = attn_forward (r.updated, "the river bank", "<bos> la");
%! assert (r.reading(2,:), t.decoder(1).cross.A(2,:), 1e-12);
