## -*- texinfo -*-
## @deftypefn  {} {@var{C} =} attn_corpus_translation ()
## @deftypefnx {} {@var{C} =} attn_corpus_translation (@var{opts})
## Generated English-French corpus for attention models. A small English to
## French parallel corpus with rules learned through cross-attention.
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

## L = translation_lexicon ()
## The word lists of attn_corpus_translation.  Every French noun starts with a
## consonant (no elision of le/la) and every adjective is one French places
## after the noun.
##   L.nouns:  en, en_pl, fr, fr_pl (1×N cellstr), gender (1×N: 1 m, 2 f)
##   L.adj:    en (1×A cellstr), fr (A×4 cellstr: ms fs mp fp)
##   L.verbs, L.intrans: en_s, en_p, fr_s, fr_p (singular / plural subject)
##   L.preps:  en, fr
function L = translation_lexicon ()
  ## english, english plural, french, french plural, gender
  nouns = {
    "cat",      "cats",      "chat",     "chats",     1
    "dog",      "dogs",      "chien",    "chiens",    1
    "horse",    "horses",    "cheval",   "chevaux",   1
    "book",     "books",     "livre",    "livres",    1
    "boat",     "boats",     "bateau",   "bateaux",   1
    "garden",   "gardens",   "jardin",   "jardins",   1
    "truck",    "trucks",    "camion",   "camions",   1
    "rabbit",   "rabbits",   "lapin",    "lapins",    1
    "pen",      "pens",      "stylo",    "stylos",    1
    "desk",     "desks",     "bureau",   "bureaux",   1
    "duck",     "ducks",     "canard",   "canards",   1
    "wolf",     "wolves",    "loup",     "loups",     1
    "fox",      "foxes",     "renard",   "renards",   1
    "monkey",   "monkeys",   "singe",    "singes",    1
    "tiger",    "tigers",    "tigre",    "tigres",    1
    "train",    "trains",    "train",    "trains",    1
    "coat",     "coats",     "manteau",  "manteaux",  1
    "hat",      "hats",      "chapeau",  "chapeaux",  1
    "bag",      "bags",      "sac",      "sacs",      1
    "wall",     "walls",     "mur",      "murs",      1
    "bridge",   "bridges",   "pont",     "ponts",     1
    "cloud",    "clouds",    "nuage",    "nuages",    1
    "knife",    "knives",    "couteau",  "couteaux",  1
    "glass",    "glasses",   "verre",    "verres",    1
    "basket",   "baskets",   "panier",   "paniers",   1
    "table",    "tables",    "table",    "tables",    2
    "house",    "houses",    "maison",   "maisons",   2
    "car",      "cars",      "voiture",  "voitures",  2
    "flower",   "flowers",   "fleur",    "fleurs",    2
    "chair",    "chairs",    "chaise",   "chaises",   2
    "door",     "doors",     "porte",    "portes",    2
    "lamp",     "lamps",     "lampe",    "lampes",    2
    "apple",    "apples",    "pomme",    "pommes",    2
    "dress",    "dresses",   "robe",     "robes",     2
    "shirt",    "shirts",    "chemise",  "chemises",  2
    "cow",      "cows",      "vache",    "vaches",    2
    "mouse",    "mice",      "souris",   "souris",    2
    "turtle",   "turtles",   "tortue",   "tortues",   2
    "hen",      "hens",      "poule",    "poules",    2
    "giraffe",  "giraffes",  "girafe",   "girafes",   2
    "whale",    "whales",    "baleine",  "baleines",  2
    "road",     "roads",     "route",    "routes",    2
    "mountain", "mountains", "montagne", "montagnes", 2
    "cup",      "cups",      "tasse",    "tasses",    2
    "bottle",   "bottles",   "bouteille", "bouteilles", 2
    "letter",   "letters",   "lettre",   "lettres",   2
    "map",      "maps",      "carte",    "cartes",    2
    "town",     "towns",     "ville",    "villes",    2
    "jacket",   "jackets",   "veste",    "vestes",    2
    "suitcase", "suitcases", "valise",   "valises",   2
    "candle",   "candles",   "bougie",   "bougies",   2
  };
  L.nouns = struct ("en", {nouns(:,1)'}, "en_pl", {nouns(:,2)'},
                    "fr", {nouns(:,3)'}, "fr_pl", {nouns(:,4)'},
                    "gender", cell2mat (nouns(:,5))');

  ## english, french masculine/feminine singular, masculine/feminine plural
  adj = {
    "black",   "noir",    "noire",    "noirs",    "noires"
    "white",   "blanc",   "blanche",  "blancs",   "blanches"
    "red",     "rouge",   "rouge",    "rouges",   "rouges"
    "green",   "vert",    "verte",    "verts",    "vertes"
    "blue",    "bleu",    "bleue",    "bleus",    "bleues"
    "grey",    "gris",    "grise",    "gris",     "grises"
    "yellow",  "jaune",   "jaune",    "jaunes",   "jaunes"
    "brown",   "brun",    "brune",    "bruns",    "brunes"
    "round",   "rond",    "ronde",    "ronds",    "rondes"
    "heavy",   "lourd",   "lourde",   "lourds",   "lourdes"
    "hot",     "chaud",   "chaude",   "chauds",   "chaudes"
    "cold",    "froid",   "froide",   "froids",   "froides"
    "clean",   "propre",  "propre",   "propres",  "propres"
    "dirty",   "sale",    "sale",     "sales",    "sales"
    "fast",    "rapide",  "rapide",   "rapides",  "rapides"
    "slow",    "lent",    "lente",    "lents",    "lentes"
    "happy",   "heureux", "heureuse", "heureux",  "heureuses"
    "sad",     "triste",  "triste",   "tristes",  "tristes"
    "calm",    "calme",   "calme",    "calmes",   "calmes"
    "strong",  "fort",    "forte",    "forts",    "fortes"
    "shy",     "timide",  "timide",   "timides",  "timides"
    "curious", "curieux", "curieuse", "curieux",  "curieuses"
    "soft",    "doux",    "douce",    "doux",     "douces"
    "new",     "neuf",    "neuve",    "neufs",    "neuves"
    "empty",   "vide",    "vide",     "vides",    "vides"
    "full",    "plein",   "pleine",   "pleins",   "pleines"
    "wide",    "large",   "large",    "larges",   "larges"
    "noisy",   "bruyant", "bruyante", "bruyants", "bruyantes"
    "kind",    "gentil",  "gentille", "gentils",  "gentilles"
    "wild",    "sauvage", "sauvage",  "sauvages", "sauvages"
    "modern",  "moderne", "moderne",  "modernes", "modernes"
    "broken",  "cassé",   "cassée",   "cassés",   "cassées"
    "famous",  "célèbre", "célèbre",  "célèbres", "célèbres"
    "tired",   "fatigué", "fatiguée", "fatigués", "fatiguées"
  };
  L.adj = struct ("en", {adj(:,1)'}, "fr", {adj(:,2:5)});

  ## transitive: english singular/plural subject, french singular/plural
  verbs = {
    "sees",     "see",     "voit",     "voient"
    "likes",    "like",    "aime",     "aiment"
    "follows",  "follow",  "suit",     "suivent"
    "finds",    "find",    "trouve",   "trouvent"
    "watches",  "watch",   "regarde",  "regardent"
    "pushes",   "push",    "pousse",   "poussent"
    "pulls",    "pull",    "tire",     "tirent"
    "wants",    "want",    "veut",     "veulent"
    "has",      "have",    "a",        "ont"
    "touches",  "touch",   "touche",   "touchent"
    "chases",   "chase",   "chasse",   "chassent"
    "holds",    "hold",    "tient",    "tiennent"
  };
  L.verbs = struct ("en_s", {verbs(:,1)'}, "en_p", {verbs(:,2)'},
                    "fr_s", {verbs(:,3)'}, "fr_p", {verbs(:,4)'});
  intrans = {
    "sleeps",   "sleep",   "dort",     "dorment"
    "runs",     "run",     "court",    "courent"
    "waits",    "wait",    "attend",   "attendent"
    "stays",    "stay",    "reste",    "restent"
    "plays",    "play",    "joue",     "jouent"
    "walks",    "walk",    "marche",   "marchent"
  };
  L.intrans = struct ("en_s", {intrans(:,1)'}, "en_p", {intrans(:,2)'},
                      "fr_s", {intrans(:,3)'}, "fr_p", {intrans(:,4)'});
  L.preps = struct ("en", {{"on", "under", "in", "with", "without", "for", "towards"}},
                    "fr", {{"sur", "sous", "dans", "avec", "sans", "pour", "vers"}});
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
