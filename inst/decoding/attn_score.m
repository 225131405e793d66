## -*- texinfo -*-
## @deftypefn  {} {@var{S} =} attn_score (@var{m}, @var{data})
## @deftypefnx {} {@var{S} =} attn_score (@var{m}, @var{data}, @var{name}, @var{value}, @dots{})
## Exact match and token accuracy of an attention model. Held-out scores of
## a trained model: exact match and token accuracy.
##
## @var{data} is a struct with cells @code{source} and @code{target} (a
## split of @code{attn_corpus_translation}, @code{attn_corpus_lm} or
## @code{attn_corpus_ner}), or an N×2 cell of pairs.  What the scores mean
## depends on the model's family:
##
## @table @asis
## @item encoder-decoder (cross-attention or pooled-context)
## @code{exact}: the greedy translation (@code{attn_greedy}) equals the
## target; @code{token_accuracy}: with teacher forcing, the most probable
## token equals the label, over every target token and @code{<eos>}.
## @item decoder-only
## @code{exact}: the greedy continuation of the source (the prompt) equals
## the target; @code{token_accuracy}: next-token accuracy over every position
## of the joined sequence.
## @item encoder-token
## @code{exact}: every label of the sentence right; @code{token_accuracy}:
## per word.
## @item encoder-sentence
## both are the fraction of sentences whose most probable class is right.
## @end table
##
## Options: @code{"batch_size"} (64, a positive integer) for the
## teacher-forced pass; @code{"max_len"} (Inf, or a non-negative integer)
## the length limit of the greedy translations.  The greedy translations
## (continuations) of the whole set are decoded as one batch, as
## @code{attn_greedy} decodes a cell of sentences.
## Source words missing from the vocabulary are read as @code{<unk>}, with
## one warning @code{attention:unknown-word} that lists them.
## @var{S} has @code{exact}, @code{token_accuracy}, @code{correct} (N×1
## logical: exact per example), @code{predictions} (N×1 cell of strings),
## @code{source_length} (N×1, words) and @code{n}.
##
## @example
## @group
## c = struct ("family", "encoder-sentence", "vocab", @{@{"good film", "bad film"@}@},
##             "classes", @{@{"NEG", "POS"@}@}, "d", 4, "heads", 2, "layers", 1);
## S = attn_score (attn_family (c), @{"good film", "POS"; "bad film", "NEG"@});
## S.n
##   @result{} 2
## @end group
## @end example
## @seealso{attn_greedy, attn_continue, attn_train}
## @end deftypefn

function S = attn_score (m, data, varargin)
  if (nargin < 2)
    print_usage ();
  endif
  check_model (m, "attn_score", "keep", true);
  o = parse_options ("attn_score", {"batch_size", 64, "integer [1, Inf)";
                                    "max_len", Inf, "integer [0, Inf]"}, varargin);
  if (iscell (data) && columns (data) == 2)
    data = struct ("source", {data(:,1)}, "target", {data(:,2)});
  elseif (! (isstruct (data) && all (isfield (data, {"source", "target"}))
             && iscellstr (data.source) && iscellstr (data.target)
             && numel (data.source) == numel (data.target)))
    error ("attention:type",
           "attn_score: DATA must be a struct with cells source and target of equal length, or an N×2 cell, got %s",
           disp_arg (data));
  endif
  src = data.source(:);
  tgt = data.target(:);
  N = numel (src);
  start = model_family (m).start;

  ## teacher-forced pass in batches: argmax against the labels
  hits = 0;
  count = 0;
  argmax = cell (N, 1);
  for first = 1:o.batch_size:N
    k = first:min (first + o.batch_size - 1, N);
    batch = model_batch (m, src(k), tgt(k), "attn_score");
    check_batch (m, batch, "attn_score", true);
    [~, best] = max (model_forward (m, batch).probs, [], 2);
    best = reshape (best, size (batch.labels));
    ok = (best == batch.labels) & batch.tgt_allow;
    hits += nnz (ok);
    count += nnz (batch.tgt_allow);
    for j = 1:numel (k)
      argmax{k(j)} = best(batch.tgt_allow(:,j), j)';
    endfor
  endfor
  S.token_accuracy = hits / max (count, 1);

  S.predictions = cell (N, 1);
  greedy = struct ("max_len", o.max_len, "cache", true, "method", "greedy", "want", false);
  unknown = "attention:unknown-word";         # one warning for the whole set
  was = warning ("query", unknown);
  warning ("off", unknown);
  unwind_protect
    switch (start)
      case "source"                                  # attn_greedy, all at once
        S.predictions(:) = decode_run (m, src', {}, greedy, "attn_score");
      case "prompt"                                  # attn_continue, all at once
        greedy.max_len = word_count (tgt') + 1;
        S.predictions(:) = decode_run (m, cell (1, N), src', greedy, "attn_score");
      case ""                                        # a classifier: the argmax
        S.predictions = cellfun (@(a) strjoin (m.tgt_vocab.words(a), " "), argmax,
                                 "UniformOutput", false);
    endswitch
  unwind_protect_cleanup
    warning (was.state, unknown);
  end_unwind_protect
  v = m.tgt_vocab;
  if (! strcmp (start, "prompt"))
    v = m.src_vocab;
  endif
  words = text_words (strjoin (src', " "));
  missing = unique (words(! ismember (words, v.words)));
  if (! isempty (missing))
    warning (unknown, "attn_score: source words not in the vocabulary, read as <unk>: %s",
             strjoin (missing, ", "));
  endif
  S.correct = strcmp (S.predictions, strtrim (tgt));
  S.exact = mean (S.correct);
  S.source_length = word_count (src);
  S.n = N;
endfunction

## the number of words (runs of non-space characters) of each text of the
## cellstr t, in its shape: one regexp for them all
function n = word_count (t)
  n = cellfun ("numel", regexp (t, '\S+', "start"));
endfunction

%!shared m, src
%! src = {"raghav goes to delhi", "meera goes to school in delhi", "meera goes to delhi"};
%! c = struct ("family", "pooled-add", "d", 8, "heads", 2, "seed", 2,
%!             "src_vocab", {src}, "tgt_vocab", {{"raghav va a delhi", "meera va a l ecole"}});
%! m = attn_family (c);

## targets set to the model's own greedy output score 1; one changed word 0
%!test
%! out = cellfun (@(s) attn_greedy (m, s, "max_len", 6), src, "UniformOutput", false);
%! S = attn_score (m, struct ("source", {src}, "target", {out}), "max_len", 6);
%! assert (S.exact, 1);
%! assert (S.predictions', out);
%! assert (S.source_length', [4 6 4]);
%! ## words are runs of non-space characters, as the tokenizer reads them
%! S = attn_score (m, {" raghav  goes to delhi ", "meera"; "", "x"});
%! assert (S.source_length', [4 0]);
%! ## token accuracy from the trace, one sentence at a time
%! tgt = {"raghav va a delhi", "meera va", "delhi delhi"};
%! S = attn_score (m, [src(:), tgt(:)], "batch_size", 2);
%! hits = 0;  count = 0;
%! for i = 1:3
%!   w = strsplit (tgt{i}, " ");
%!   tr = attn_forward (m, src{i}, ["<bos> " tgt{i}]);
%!   [~, best] = max (tr.probs, [], 2);
%!   hits += sum (strcmp (m.tgt_vocab.words(best), [w, {"<eos>"}]));
%!   count += numel (w) + 1;
%! endfor
%! assert (S.token_accuracy, hits / count, 1e-15);

## the set is decoded as one batch: each prediction is the sentence decoded
## alone (attn_greedy; attn_continue with the target's length + 1 for a
## decoder-only model)
%!test
%! c = struct ("src_vocab", {src}, "tgt_vocab", {{"raghav va a delhi", "meera va a l ecole"}},
%!             "d", 8, "heads", 2, "d_ff", 6, "seed", 3, "norm", "pre", "max_len", 8);
%! ed = attn_model (c);
%! ed.b_vocab(ed.tgt_vocab.eos) = 1;
%! data = [src(:), {"raghav va"; "meera va a l ecole"; "x"}];
%! S = attn_score (ed, data);
%! assert (S.predictions, cellfun (@(s) attn_greedy (ed, s), src(:), "UniformOutput", false));
%! lm = attn_family (struct ("family", "decoder-only", "d", 8, "heads", 2, "layers", 1,
%!                           "seed", 4, "vocab", {[src, {"va a l ecole"}]}));
%! data = {"raghav goes", "to delhi"; "meera", "goes to school in delhi"; "", "meera"};
%! S = attn_score (lm, data);
%! for i = 1:3
%!   n = numel (strsplit (data{i,2}, " ")) + 1;
%!   assert (S.predictions{i}, attn_continue (lm, data{i,1}, "max_len", n));
%! endfor

## encoder-token: predictions are the argmax classes, exact needs every word
%!test
%! c = struct ("family", "encoder-token", "vocab", {src}, "d", 8, "heads", 2, "layers", 1,
%!             "classes", {{"PERSON", "ORGANIZATION", "PLACE", "OTHER"}});
%! e = attn_family (c);
%! tr = attn_forward (e, src{1});
%! [~, best] = max (tr.probs, [], 2);
%! guess = strjoin (e.tgt_vocab.words(best), " ");
%! S = attn_score (e, {src{1}, guess; src{1}, "PERSON PERSON PERSON PERSON"});
%! assert (S.correct', [true, strcmp(guess, "PERSON PERSON PERSON PERSON")]);
%! assert (S.token_accuracy, (4 + sum (best == 1)) / 8, 1e-15);

%!error <DATA must be a struct> attn_score (m, {"a"})
%!error <attn_score: .*must fit the position table> attn_score (m, {repmat("delhi ", 1, rows (m.src_pos)), "a"})
%!error <unknown option> attn_score (m, {"a", "b"}, "beam", 2)
