## The corpus generators, checked by parsing their output independently:
## held-out combinations really are absent from training, French agreement
## follows rules written here (not the generator's tables), labels and
## answers follow from the sentences.

## ---------------------------------------------------------------- translation

%!function [pairs, nps] = english_pairs (s, L)
%!  ## "noun|adjective" for every adjective of every noun phrase of an English
%!  ## sentence: adjectives stand between the determiner and the noun
%!  w = ostrsplit (s, " ");
%!  pairs = {};
%!  nps = 0;
%!  adj = {};
%!  for i = 1:numel (w)
%!    if (any (strcmp (w{i}, {"the", "a", "some"})))
%!      adj = {};
%!    elseif (any (strcmp (w{i}, L.adj.en)))
%!      adj{end+1} = w{i};
%!    else
%!      k = find (strcmp (w{i}, L.nouns.en) | strcmp (w{i}, L.nouns.en_pl));
%!      if (! isempty (k))
%!        nps++;
%!        pairs = [pairs, strcat(L.nouns.en{k}, "|", adj)];
%!        adj = {};
%!      endif
%!    endif
%!  endfor
%!endfunction

%!function P = split_pairs_of (D, L)
%!  P = cellfun (@(s) english_pairs (s, L), D.source, "UniformOutput", false);
%!endfunction

%!shared C, L
%! C = attn_corpus_translation (struct ("n_train", 800, "n_valid", 100, "n_test", 100));
%! L = C.lexicon;

## every test (validation) sentence holds a noun-adjective pair never seen in
## training, and the two held-out sets share no pair
%!test
%! Ptr = split_pairs_of (C.train, L);
%! Pva = split_pairs_of (C.valid, L);
%! Pte = split_pairs_of (C.test, L);
%! train = unique ([Ptr{:}]);
%! assert (all (cellfun (@(p) any (! ismember (p, train)), Pte)));
%! assert (all (cellfun (@(p) any (! ismember (p, train)), Pva)));
%! ## the declared split of each pair: training sentences use training pairs
%! ## only, test sentences never a validation pair and vice versa
%! [n, a] = ndgrid (1:numel (L.nouns.en), 1:numel (L.adj.en));
%! name = strcat (L.nouns.en(n(:)), "|", L.adj.en(a(:)));
%! label = @(p) C.split_pairs(cellfun (@(q) find (strcmp (q, name)), p));
%! assert (all (label (train) == 1));
%! assert (all (label ([Pte{:}]) != 2));
%! assert (all (label ([Pva{:}]) != 3));
%! ## the reported pairs are the parsed ones
%! for i = 1:numel (C.test.source)
%!   q = C.test.pairs{i};
%!   rep = strcat (L.nouns.en(q(:,1)), "|", L.adj.en(q(:,2)));
%!   assert (sort (rep(:))', sort (Pte{i}));
%! endfor
%! ## no sentence in two splits
%! assert (isempty (intersect (C.train.source, C.test.source)));
%! assert (isempty (intersect (C.train.source, C.valid.source)));

## every word of the test split occurs in training, on both sides
%!test
%! words = @(S) unique (ostrsplit (strjoin (S', " "), " "));
%! assert (all (ismember (words (C.test.source), words (C.train.source))));
%! assert (all (ismember (words (C.test.target), words (C.train.target))));

## French: article + noun + adjectives, agreeing in gender and number, with
## the forms derived here from the masculine singular by French spelling
## rules; genders from a list written for this test
%!test
%! feminine = {"table", "maison", "voiture", "fleur", "chaise", "porte", "lampe", ...
%!             "pomme", "robe", "chemise", "vache", "souris", "tortue", "poule", ...
%!             "girafe", "baleine", "route", "montagne", "tasse", "bouteille", ...
%!             "lettre", "carte", "ville", "veste", "valise", "bougie"};
%! irregular = struct ("blanc", "blanche", "heureux", "heureuse", "curieux", "curieuse",
%!                     "doux", "douce", "neuf", "neuve", "gentil", "gentille");
%! ms = L.adj.fr(:,1)';
%! fs = ms;
%! for i = 1:numel (ms)
%!   if (isfield (irregular, ms{i}))
%!     fs{i} = irregular.(ms{i});
%!   elseif (ms{i}(end) != "e")
%!     fs{i} = [ms{i} "e"];
%!   endif
%! endfor
%! mp = ms;
%! plain = cellfun (@(a) ! any (a(end) == "sx"), ms);
%! mp(plain) = strcat (ms(plain), "s");
%! fp = strcat (fs, "s");
%! forms = [ms; fs; mp; fp];                    # 4 × adjectives
%! n_np = 0;
%! for D = {C.train, C.test}
%!   for i = 1:numel (D{1}.target)
%!     w = ostrsplit (D{1}.target{i}, " ");
%!     arts = find (ismember (w, {"le", "la", "les", "un", "une", "des"}));
%!     subject_plural = any (strcmp (w{1}, {"les", "des"}));
%!     for a = arts
%!       noun = w{a+1};
%!       sg = find (strcmp (noun, L.nouns.fr));
%!       pl = find (strcmp (noun, L.nouns.fr_pl));
%!       assert (! isempty ([sg, pl]), "no noun after the article in '%s'", D{1}.target{i});
%!       plural = any (strcmp (w{a}, {"les", "des"}));
%!       if (plural)
%!         assert (! isempty (pl));
%!         fem = any (strcmp (L.nouns.fr{pl}, feminine));
%!       else
%!         assert (! isempty (sg));
%!         fem = any (strcmp (noun, feminine));
%!         assert (strcmp (w{a}, {"le", "un"; "la", "une"}(1 + fem, :)) * [1; 1] == 1,
%!                 "article %s before %s", w{a}, noun);
%!       endif
%!       ## the adjectives that follow (joined by "et") take the noun's form
%!       k = a + 2;
%!       while (k <= numel (w) && (any (strcmp (w{k}, [forms(:); L.adj.fr(:)]))
%!                                  || strcmp (w{k}, "et")))
%!         if (! strcmp (w{k}, "et"))
%!           row = 1 + fem + 2 * plural;
%!           assert (any (strcmp (w{k}, forms(row,:))), "'%s' after '%s %s' in '%s'",
%!                   w{k}, w{a}, noun, D{1}.target{i});
%!         endif
%!         k++;
%!       endwhile
%!       n_np++;
%!     endfor
%!     ## the verb after the subject agrees with its number
%!     v = find (ismember (w, [L.verbs.fr_s, L.verbs.fr_p, L.intrans.fr_s, L.intrans.fr_p]), 1);
%!     if (! isempty (v))
%!       assert (any (strcmp (w{v}, [L.verbs.fr_p, L.intrans.fr_p])), subject_plural);
%!     endif
%!   endfor
%! endfor
%! assert (n_np > 1000);

## the generator's tables hold the derived forms too, and a few genders
## every French speaker knows
%!test
%! g = @(fr) L.nouns.gender(strcmp (L.nouns.fr, fr));
%! assert ([g("chat"), g("chien"), g("table"), g("maison"), g("souris"), g("cheval")],
%!         [1 1 2 2 2 1]);
%! assert (L.adj.fr(strcmp (L.adj.en, "white"), :), {"blanc", "blanche", "blancs", "blanches"});
%! assert (L.nouns.fr_pl(strcmp (L.nouns.fr, "cheval")), {"chevaux"});
%! assert (numel (unique ([L.nouns.en, L.nouns.en_pl, L.adj.en, L.verbs.en_s, L.verbs.en_p, ...
%!                         L.nouns.fr, L.nouns.fr_pl, L.adj.fr(:)'])) > 250);

## lengths: noun phrases from 2 words to sentences near max_len
%!test
%! n = cellfun (@(s) numel (ostrsplit (s, " ")), C.train.source);
%! assert (min (n), 2);
%! assert (max (n) >= 12 && max (n) <= 14);

## ---------------------------------------------------------------- NER

%!function k = slot_keys (s, templates)
%!  w = ostrsplit (s, " ");
%!  k = {};
%!  for t = 1:rows (templates)
%!    p = ostrsplit (templates{t,1}, " ");
%!    slot = strncmp (p, "{", 1);
%!    if (numel (p) == numel (w) && all (strcmp (p(! slot), w(! slot))))
%!      k = strcat (sprintf ("%d:", t), arrayfun (@num2str, find (slot), "UniformOutput", false),
%!                  ":", w(slot));
%!      return;
%!    endif
%!  endfor
%!  error ("no template matches '%s'", s);
%!endfunction

%!test
%! N = attn_corpus_ner (struct ("n_train", 600, "n_valid", 60, "n_test", 60));
%! lex = N.lexicon;
%! classes = struct ("PERSON", {lex.P}, "ORGANIZATION", {lex.O}, "PLACE", {lex.L});
%! ## (template, position, word) keys of the slots, by matching templates
%! keys = @(D) cellfun (@(s) slot_keys (s, N.templates), D.source, "UniformOutput", false);
%! Ktr = keys (N.train);
%! Kte = keys (N.test);
%! train = unique ([Ktr{:}]);
%! assert (all (cellfun (@(k) any (! ismember (k, train)), Kte)));
%! for D = {N.train, N.test}
%!   for i = 1:numel (D{1}.source)
%!     w = ostrsplit (D{1}.source{i}, " ");
%!     y = ostrsplit (D{1}.target{i}, " ");
%!     assert (numel (w), numel (y));
%!     for j = 1:numel (w)
%!       if (! strcmp (y{j}, "OTHER"))
%!         assert (any (strcmp (w{j}, classes.(y{j}))), "%s labelled %s", w{j}, y{j});
%!       endif
%!     endfor
%!   endfor
%! endfor
%! ## context decides: jordan is a PERSON before "goes", a PLACE after "in"
%! s = N.train.source;  t = N.train.target;
%! for i = 1:numel (s)
%!   w = ostrsplit (s{i}, " ");  y = ostrsplit (t{i}, " ");
%!   for j = find (ismember (w, {"jordan", "georgia", "florence", "victoria", "amazon"}))
%!     if (j > 1 && any (strcmp (w{j-1}, {"in", "to", "from", "visits"})))
%!       assert (y{j}, "PLACE");
%!     endif
%!   endfor
%! endfor

## ---------------------------------------------------------------- LM

%!test
%! M = attn_corpus_lm (struct ("n_train", 500, "n_valid", 50, "n_test", 50));
%! facts = @(s) regexp (s, '(\w+) lives in (\w+) \.', "tokens");
%! train_facts = {};
%! for i = 1:numel (M.train.source)
%!   f = facts (M.train.source{i});
%!   train_facts = [train_facts, cellfun(@(x) strjoin (x, "|"), f, "UniformOutput", false)];
%! endfor
%! for i = 1:numel (M.test.source)
%!   s = M.test.source{i};
%!   f = facts (s);
%!   f = vertcat (f{:});
%!   q = regexp (s, 'where does (\w+) live \?', "tokens");
%!   if (! isempty (q))
%!     row = strcmp (f(:,1), q{1}{1});
%!     assert (M.test.target{i}, f{row,2});
%!   else
%!     q = regexp (s, 'who lives in (\w+) \?', "tokens");
%!     row = strcmp (f(:,2), q{1}{1});
%!     assert (M.test.target{i}, f{row,1});
%!   endif
%!   assert (nnz (row), 1);
%!   ## the fact asked about was never stated in training
%!   assert (! any (strcmp ([f{row,1} "|" f{row,2}], train_facts)));
%! endfor
