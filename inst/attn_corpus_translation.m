## -*- texinfo -*-
## @deftypefn  {} {@var{C} =} attn_corpus_translation ()
## @deftypefnx {} {@var{C} =} attn_corpus_translation (@var{opts})
## A small English to French parallel corpus with rules learned through
## cross-attention.
##
## Noun phrases and short sentences are generated from a fixed lexicon
## (about 250 distinct words over both languages).  The French side obeys
## three rules a translation model has to learn by reading the right
## source position:
##
## @itemize
## @item the adjective follows the noun (@qcode{"the black cat"} becomes
## @qcode{"le chat noir"}), two adjectives are joined by @qcode{"et"};
## @item the article and every adjective agree in gender and number with the
## noun (@qcode{"le"}/@qcode{"la"}/@qcode{"les"}, @qcode{"un"}/@qcode{"une"}/@qcode{"des"},
## @qcode{"noir"}/@qcode{"noire"}/@qcode{"noirs"}/@qcode{"noires"}), so the
## article, written before the noun, depends on a later source word;
## @item the verb agrees in number with its subject.
## @end itemize
##
## The split is by word combination: every (noun, adjective) pair of the
## lexicon belongs to exactly one of train, validation and test.  A training
## sentence only uses training pairs; a validation (test) sentence contains at
## least one validation (test) pair and never a pair of the other held-out
## set.  So every test sentence holds an adjective-noun combination never seen
## in training, although each word on its own was.
##
## @var{opts} is a struct with any of the fields (defaults in brackets):
## @table @code
## @item seed
## random seed [1]; the corpus is a deterministic function of @var{opts}, and
## the caller's random state is restored afterwards.
## @item n_train, n_valid, n_test
## number of distinct sentence pairs per split [6000, 500, 500].
## @item heldout
## fraction of (noun, adjective) pairs held out for validation and for test,
## each [0.1].
## @item max_len
## longest English sentence in words [14]; shorter sentences only is the way to
## make a quick corpus.
## @end table
##
## @var{C} has fields @code{train}, @code{valid} and @code{test}, each a struct
## with @code{source} and @code{target} (N×1 cell arrays of space-separated
## strings) and @code{pairs} (N×1 cell, each a K×2 matrix of the
## (noun, adjective) lexicon indices the sentence uses); @code{lexicon} (the
## word lists with genders and all adjective forms); @code{split_pairs} (a
## nouns×adjectives matrix: 1 train, 2 validation, 3 test); and @code{opts}.
##
## @example
## @group
## C = attn_corpus_translation (struct ("n_train", 20, "n_valid", 5, "n_test", 5));
## C.train.source@{1@};    # an English sentence
## C.train.target@{1@};    # its French translation
## numel (C.test.source)
##   @result{} ans = 5
## @end group
## @end example
## @seealso{attn_corpus_lm, attn_corpus_ner}
## @end deftypefn

function C = attn_corpus_translation (opts)
  if (nargin < 1)
    opts = struct ();
  elseif (! isstruct (opts) || ! isscalar (opts))
    error ("attention:type",
           "attn_corpus_translation: OPTS must be a scalar struct, got a %s", class (opts));
  endif
  opts = parse_options ("attn_corpus_translation", {"seed", 1, "integer [0, 4294967295]";
                                                  "n_train", 6000, "integer [0, Inf)";
                                                  "n_valid", 500, "integer [0, Inf)";
                                                  "n_test", 500, "integer [0, Inf)";
                                                  "heldout", 0.1, "real (0, 0.5)";
                                                  "max_len", 14, "integer [3, Inf)"}, {opts});
  L = translation_lexicon ();
  nn = numel (L.nouns.en);
  na = numel (L.adj.en);

  old_state = rand ("state");
  unwind_protect
    rand ("state", opts.seed);
    ## every (noun, adjective) pair gets a split label: 1 train, 2 valid, 3 test
    split_pairs = corpus_split_labels ([nn, na], opts.heldout);
    counts = [opts.n_train, opts.n_valid, opts.n_test];
    names = {"train", "valid", "test"};
    seen = cell (0, 1);         # sentences already used in any split
    for s = 1:3
      gen = @() nthargout (1:3, @make_sentence, L, split_pairs, s, opts.max_len);
      [ex, seen] = corpus_distinct (gen, counts(s), seen, "attn_corpus_translation");
      C.(names{s}) = struct ("source", {ex(:,1)}, "target", {ex(:,2)}, "pairs", {ex(:,3)});
    endfor
  unwind_protect_cleanup
    rand ("state", old_state);
  end_unwind_protect
  C.lexicon = L;
  C.split_pairs = split_pairs;
  C.opts = opts;
endfunction

## One sentence; pairs is K×2 [noun, adjective] for the adjectives used.
function [en, fr, pairs] = make_sentence (L, split_pairs, s, max_len)
  ## templates: 1 NP; 2 NP V NP; 3 NP Vi P NP; 4 NP V NP P NP
  do
    clear np;
    template = sum (rand () > cumsum ([0.2 0.35 0.25 0.2])) + 1;
    nps = [1 2 2 3](template);
    for i = nps:-1:1
      np(i) = random_np (L, split_pairs, 1);
    endfor
    if (s > 1)
      ## one noun phrase carries a held-out pair of this split
      j = pick (nps);
      np(j) = random_np (L, split_pairs, s);
    endif
    ## det + noun + adjectives (+ "and" between two), plus verb and preposition
    nadj = cellfun (@numel, {np.adj});
    en_len = sum (2 + nadj + (nadj == 2)) + [0 1 2 3](template);
  until (en_len <= max_len)
  [en_np, fr_np] = arrayfun (@(p) render_np (L, p), np, "UniformOutput", false);
  sub = np(1);
  switch (template)
    case 1
      en_w = en_np{1};
      fr_w = fr_np{1};
    case {2, 4}
      v = pick (numel (L.verbs.en_s));
      en_w = [en_np{1}, verb_form(L.verbs, "en", v, sub.number), en_np{2}];
      fr_w = [fr_np{1}, verb_form(L.verbs, "fr", v, sub.number), fr_np{2}];
      if (template == 4)
        p = pick (numel (L.preps.en));
        en_w = [en_w, L.preps.en(p), en_np{3}];
        fr_w = [fr_w, L.preps.fr(p), fr_np{3}];
      endif
    case 3
      v = pick (numel (L.intrans.en_s));
      p = pick (numel (L.preps.en));
      en_w = [en_np{1}, verb_form(L.intrans, "en", v, sub.number), L.preps.en(p), en_np{2}];
      fr_w = [fr_np{1}, verb_form(L.intrans, "fr", v, sub.number), L.preps.fr(p), fr_np{2}];
  endswitch
  en = sprintf ("%s ", en_w{:})(1:end-1);
  fr = sprintf ("%s ", fr_w{:})(1:end-1);
  pairs = [repelem([np.noun], nadj)', [np.adj]'];
endfunction

## A noun phrase.  split 1: adjectives from training pairs (possibly none);
## split 2 or 3: at least one adjective from that split's held-out pairs.
function p = random_np (L, split_pairs, split)
  if (split == 1)
    p.noun = pick (numel (L.nouns.en));
    ok = find (split_pairs(p.noun, :) == 1);
    nadj = sum (rand () > [0.3 0.85]);
    p.adj = ok(randperm (numel (ok), nadj));
  else
    [noun, adj] = find (split_pairs == split);
    k = pick (numel (noun));
    p.noun = noun(k);
    ok = find (split_pairs(p.noun, :) == 1);
    p.adj = adj(k);
    if (rand () < 0.15)
      p.adj = [p.adj, ok(pick (numel (ok)))](randperm (2));
    endif
  endif
  p.number = 1 + (rand () < 0.35);       # 1 singular, 2 plural
  p.definite = rand () < 0.6;
endfunction

## English "[det] [adj [and adj]] noun", French "det noun [adj [et adj]]"
function [en, fr] = render_np (L, p)
  g = L.nouns.gender(p.noun);           # 1 masculine, 2 feminine
  form = g + 2 * (p.number - 1);        # ms fs mp fp
  if (p.definite)
    en_det = "the";
    fr_det = {"le", "la", "les", "les"}{form};
  else
    en_det = {"a", "some"}{p.number};
    fr_det = {"un", "une", "des", "des"}{form};
  endif
  if (p.number == 1)
    en_noun = L.nouns.en{p.noun};
    fr_noun = L.nouns.fr{p.noun};
  else
    en_noun = L.nouns.en_pl{p.noun};
    fr_noun = L.nouns.fr_pl{p.noun};
  endif
  en_adj = L.adj.en(p.adj);
  fr_adj = L.adj.fr(p.adj, form)';
  if (numel (p.adj) == 2)
    en_adj = [en_adj(1), {"and"}, en_adj(2)];
    fr_adj = [fr_adj(1), {"et"}, fr_adj(2)];
  endif
  en = [{en_det}, en_adj(:)', {en_noun}];
  fr = [{fr_det}, {fr_noun}, fr_adj(:)'];
endfunction

function w = verb_form (V, lang, v, number)
  w = V.([lang, {"_s", "_p"}{number}])(v);
endfunction

%!shared C
%! C = attn_corpus_translation (struct ("n_train", 300, "n_valid", 40, "n_test", 40));

%!test
%! assert (fieldnames (C)', {"train", "valid", "test", "lexicon", "split_pairs", "opts"});
%! assert (size (C.train.source), [300 1]);
%! assert (size (C.test.target), [40 1]);
%! assert (numel (unique (C.train.source)), 300);

## determinism, and the caller's random state is left alone
%!test
%! rand ("state", 7); r0 = rand ();
%! rand ("state", 7);
%! C2 = attn_corpus_translation (struct ("n_train", 300, "n_valid", 40, "n_test", 40));
%! assert (rand (), r0);
%! assert (isequal (C2, C));
%! C3 = attn_corpus_translation (struct ("seed", 2, "n_train", 300, "n_valid", 40, "n_test", 40));
%! assert (! isequal (C3.train.source, C.train.source));

%!test
%! C4 = attn_corpus_translation (struct ("n_train", 50, "n_valid", 5, "n_test", 5, "max_len", 4));
%! n = cellfun (@(s) numel (strsplit (s, " ")), C4.train.source);
%! assert (max (n) <= 4);

%!error <OPTS must be a scalar struct> attn_corpus_translation (3)
%!error <unknown option "bogus"> attn_corpus_translation (struct ("bogus", 1))
%!error id=attention:option attn_corpus_translation (struct ("bogus", 1))
%!error <option "n_train" must be an integer in \[0, Inf\), got -1> attn_corpus_translation (struct ("n_train", -1))
%!error <option "n_train" must be an integer> attn_corpus_translation (struct ("n_train", 1.5))
%!error <option "max_len" must be an integer in \[3, Inf\), got 2> attn_corpus_translation (struct ("max_len", 2))

## a uniform random integer in 1..n (randi is slow in a loop)
function k = pick (n)
  k = ceil (rand () * n);
endfunction
