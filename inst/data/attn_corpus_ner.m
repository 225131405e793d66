## -*- texinfo -*-
## @deftypefn  {} {@var{C} =} attn_corpus_ner ()
## @deftypefnx {} {@var{C} =} attn_corpus_ner (@var{opts})
## Generated NER and topic corpus for attention encoders. A
## token-classification corpus of seed 003's kind: every word is labelled
## PERSON, ORGANIZATION, PLACE or OTHER, and every sentence has a topic
## (EDUCATION, TRAVEL or OTHER) for a sentence classifier.
##
## Sentences come from templates such as @qcode{"@{P@} goes to school in @{L@}"}
## (seed 003's @qcode{"raghav goes to school in delhi"}) with person, place,
## organisation and food slots.  Some names are ambiguous and only the
## context decides their class: @qcode{"jordan"}, @qcode{"georgia"},
## @qcode{"florence"}, @qcode{"victoria"} are people or places,
## @qcode{"amazon"} an organisation or a place, @qcode{"apple"} and
## @qcode{"orange"} organisations or food (OTHER).
##
## The split is by combination of a template slot and the word filling it:
## each (slot, word) pair belongs to one of train, validation and test; a
## validation (test) sentence holds at least one pair of its split, a training
## sentence none.  So test sentences put known words in slots they never
## filled in training.
##
## @var{opts} fields (defaults): @code{seed} (1), @code{n_train} (2000),
## @code{n_valid} (200), @code{n_test} (200), @code{heldout} (0.15, the
## fraction of pairs held out for validation and for test, each).  The
## caller's random state is restored.
##
## @var{C}: @code{train}, @code{valid}, @code{test}, each with
## @code{source} (sentences), @code{target} (one label per word, as a string
## of class names), @code{topic} (the sentence's topic name), all N×1 cells;
## @code{classes}, @code{topics}, @code{templates} (with their topics),
## @code{lexicon} (the word lists of each slot type) and @code{opts}.
##
## @example
## @group
## C = attn_corpus_ner (struct ("n_train", 10, "n_valid", 2, "n_test", 2));
## strjoin (C.classes, " ")
##   @result{} ans = PERSON ORGANIZATION PLACE OTHER
## @end group
## @end example
## @seealso{attn_corpus_translation, attn_corpus_lm, attn_family}
## @end deftypefn

function C = attn_corpus_ner (opts)
  if (nargin < 1)
    opts = struct ();
  elseif (! isstruct (opts) || ! isscalar (opts))
    error ("attention:type", "attn_corpus_ner: OPTS must be a scalar struct, got a %s",
           class (opts));
  endif
  opts = parse_options ("attn_corpus_ner", {"seed", 1, "integer [0, 4294967295]";
                                          "n_train", 2000, "integer [0, Inf)";
                                          "n_valid", 200, "integer [0, Inf)";
                                          "n_test", 200, "integer [0, Inf)";
                                          "heldout", 0.15, "real (0, 0.5)"}, {opts});
  lex.P = {"raghav", "meera", "anna", "omar", "sofia", "ivan", "kofi", "yuki", "lena", ...
           "pablo", "amara", "nadia", "jordan", "georgia", "florence", "victoria"};
  lex.L = {"delhi", "paris", "lagos", "lima", "oslo", "tokyo", "cairo", "rome", "mumbai", ...
           "nairobi", "jordan", "georgia", "florence", "victoria", "amazon"};
  lex.O = {"unesco", "siemens", "infosys", "oxfam", "toyota", "nokia", "fifa", "nasa", ...
           "apple", "amazon", "orange"};
  lex.F = {"bread", "rice", "mango", "soup", "apple", "orange"};
  class_of = struct ("P", 1, "O", 2, "L", 3, "F", 4);     # index into classes
  templates = {
    "{P} goes to school in {L}",            1
    "{P} studies at a school in {L}",       1
    "{P} teaches maths in {L}",             1
    "{P} and {P} study together in {L}",    1
    "{O} funds a school in {L}",            1
    "{P} flies from {L} to {L}",            2
    "{P} visits {L} with {P}",              2
    "{P} travels to {L} by train",          2
    "{P} drives from {L} to {L} with {P}",  2
    "{P} works for {O} in {L}",             3
    "{O} hires {P}",                        3
    "{P} eats {F} in {L}",                  3
    "{P} buys {F} from {O}",                3
    "{O} opens an office in {L}",           3
    "{P} says {O} sells {F}",               3
  };
  C.classes = {"PERSON", "ORGANIZATION", "PLACE", "OTHER"};
  C.topics = {"EDUCATION", "TRAVEL", "OTHER"};

  ## every slot of every template: its template, word position and type
  T = struct ("words", {}, "slots", {}, "types", {});
  slot = zeros (0, 3);                  # rows: template, word position, type code
  types = "POLF";
  for t = 1:rows (templates)
    w = strsplit (templates{t,1}, " ");
    pos = find (strncmp (w, "{", 1));
    for p = pos
      slot(end+1,:) = [t, p, find(types == w{p}(2))];
    endfor
    T(t).words = w;
  endfor
  ## (slot, word) combinations, each with its split
  nw = cellfun (@(f) numel (lex.(f)), num2cell (types));
  combo = cell2mat (arrayfun (@(s) [repmat(s, nw(slot(s,3)), 1), (1:nw(slot(s,3)))'],
                              (1:rows (slot))', "UniformOutput", false));
  old = rand ("state");
  unwind_protect
    rand ("state", opts.seed);
    split = corpus_split_labels ([rows(combo), 1], opts.heldout);
    counts = [opts.n_train, opts.n_valid, opts.n_test];
    names = {"train", "valid", "test"};
    seen = cell (0, 1);
    for s = 1:3
      gen = @() make_sentence (T, slot, combo, split, s, lex, types, class_of, templates, C);
      [ex, seen] = corpus_distinct (gen, counts(s), seen, "attn_corpus_ner");
      C.(names{s}) = struct ("source", {ex(:,1)}, "target", {ex(:,2)}, "topic", {ex(:,3)});
    endfor
  unwind_protect_cleanup
    rand ("state", old);
  end_unwind_protect
  C.templates = templates;
  C.lexicon = lex;
  C.opts = opts;
endfunction

## one sentence of split s: a template, every slot filled with a word whose
## (slot, word) pair is in the training set, except one held-out pair (s > 1)
function row = make_sentence (T, slot, combo, split, s, lex, types, class_of, templates, C)
  if (s == 1)
    t = ceil (rand () * numel (T));
    forced = [0 0];
  else
    held = find (split == s);
    k = held(ceil (rand () * numel (held)));
    forced = combo(k,:);                # [slot, word]
    t = slot(forced(1), 1);
  endif
  words = T(t).words;
  labels = repmat (C.classes(4), size (words));
  for sl = find (slot(:,1) == t)'
    if (sl == forced(1))
      w = forced(2);
    else
      ok = combo(combo(:,1) == sl & split == 1, 2);
      w = ok(ceil (rand () * numel (ok)));
    endif
    type = types(slot(sl,3));
    words{slot(sl,2)} = lex.(type){w};
    labels{slot(sl,2)} = C.classes{class_of.(type)};
  endfor
  row = {strjoin(words, " "), strjoin(labels, " "), C.topics{templates{t,2}}};
endfunction

%!test
%! C = attn_corpus_ner (struct ("n_train", 200, "n_valid", 30, "n_test", 30));
%! assert (size (C.train.source), [200 1]);
%! assert (size (C.test.topic), [30 1]);
%! ## one label per word, every label a class, every topic a topic
%! for i = 1:30
%!   assert (numel (strsplit (C.test.source{i})), numel (strsplit (C.test.target{i})));
%! endfor
%! assert (all (ismember (strsplit (strjoin (C.train.target', " ")), C.classes)));
%! assert (all (ismember (C.train.topic, C.topics)));
%! C2 = attn_corpus_ner (struct ("n_train", 200, "n_valid", 30, "n_test", 30));
%! assert (isequal (C, C2));

%!error <OPTS must be a scalar struct> attn_corpus_ner ("x")
%!error <unknown option> attn_corpus_ner (struct ("n", 1))
%!error id=attention:option attn_corpus_ner (struct ("n", 1))
%!error <option "seed" must be an integer> attn_corpus_ner (struct ("seed", NaN))
