## -*- texinfo -*-
## @deftypefn  {} {@var{C} =} attn_corpus_lm ()
## @deftypefnx {} {@var{C} =} attn_corpus_lm (@var{opts})
## Generated stories and questions for an attention LM. Structured text for
## a decoder-only language model: short stories of facts followed by a
## question and its one-word answer, prompt and answer in one sequence as
## seed 003 draws it.
##
## Each example states one to @code{max_facts} facts
## (@qcode{"raghav lives in delhi ."}, distinct people and places), then asks
## about one of them, either @qcode{"where does raghav live ?"} (answer
## @qcode{"delhi"}) or @qcode{"who lives in delhi ?"} (answer
## @qcode{"raghav"}).  The answer is in the prompt: a model has to find the
## fact about the asked name or place and copy its partner, which causal
## self-attention can do by looking back.
##
## The split is by (person, place) pair: each pair belongs to one of train,
## validation and test; the fact asked about in a validation (test) example
## is a pair of that split, every other fact a training pair, and training
## examples use training pairs only.  So no test question can be answered by
## remembering a training fact.
##
## @var{opts} fields (defaults): @code{seed} (1), @code{n_train} (3000),
## @code{n_valid} (200), @code{n_test} (200), @code{max_facts} (3),
## @code{heldout} (0.15).  The caller's random state is restored.
##
## @var{C}: @code{train}, @code{valid}, @code{test}, each with
## @code{source} (the prompt: facts and question), @code{target} (the
## answer) and @code{text} (both joined), N×1 cells; @code{names},
## @code{places}, @code{split_pairs} (names×places, 1 train, 2 validation,
## 3 test) and @code{opts}.
##
## @example
## @group
## C = attn_corpus_lm (struct ("n_train", 5, "n_valid", 2, "n_test", 2));
## C.train.text@{1@};     # e.g. "anna lives in oslo . where does anna live ? oslo"
## numel (C.valid.target)
##   @result{} ans = 2
## @end group
## @end example
## @seealso{attn_corpus_translation, attn_corpus_ner, attn_continue}
## @end deftypefn

function C = attn_corpus_lm (opts)
  if (nargin < 1)
    opts = struct ();
  elseif (! isstruct (opts) || ! isscalar (opts))
    error ("attention:type", "attn_corpus_lm: OPTS must be a scalar struct, got a %s",
           class (opts));
  endif
  opts = parse_options ("attn_corpus_lm", {"seed", 1, "integer [0, 4294967295]";
                                         "n_train", 3000, "integer [0, Inf)";
                                         "n_valid", 200, "integer [0, Inf)";
                                         "n_test", 200, "integer [0, Inf)";
                                         "max_facts", 3, "integer [1, Inf)";
                                         "heldout", 0.15, "real (0, 0.5)"}, {opts});
  C.names = {"raghav", "meera", "anna", "omar", "sofia", "ivan", "kofi", "yuki", ...
             "lena", "pablo", "amara", "nadia", "tom", "zara", "hugo", "mina"};
  C.places = {"delhi", "paris", "lagos", "lima", "oslo", "tokyo", "cairo", "rome", ...
              "kyiv", "quito", "accra", "seoul"};
  old = rand ("state");
  unwind_protect
    rand ("state", opts.seed);
    C.split_pairs = corpus_split_labels ([numel(C.names), numel(C.places)], opts.heldout);
    counts = [opts.n_train, opts.n_valid, opts.n_test];
    names = {"train", "valid", "test"};
    seen = cell (0, 1);
    for s = 1:3
      gen = @() make_story (C, s, opts.max_facts);
      [ex, seen] = corpus_distinct (gen, counts(s), seen, "attn_corpus_lm");
      C.(names{s}) = struct ("source", {ex(:,2)}, "target", {ex(:,3)}, "text", {ex(:,1)});
    endfor
  unwind_protect_cleanup
    rand ("state", old);
  end_unwind_protect
  C.opts = opts;
endfunction

## {text, prompt, answer}: facts about k distinct people and places, the one
## asked about (fact q) drawn from split s
function row = make_story (C, s, max_facts)
  k = ceil (rand () * max_facts);
  q = ceil (rand () * k);
  do
    who = randperm (numel (C.names), k);
    where = randperm (numel (C.places), k);
    lab = C.split_pairs(sub2ind (size (C.split_pairs), who, where));
    others = lab((1:k) != q);
  until (lab(q) == s && all (others == 1))
  facts = sprintf ("%s lives in %s . ", [C.names(who); C.places(where)]{:});
  if (rand () < 0.5)
    question = sprintf ("where does %s live ?", C.names{who(q)});
    answer = C.places{where(q)};
  else
    question = sprintf ("who lives in %s ?", C.places{where(q)});
    answer = C.names{who(q)};
  endif
  prompt = [facts, question];
  row = {[prompt " " answer], prompt, answer};
endfunction

%!test
%! C = attn_corpus_lm (struct ("n_train", 100, "n_valid", 20, "n_test", 20));
%! assert (size (C.train.text), [100 1]);
%! assert (C.test.text, strcat (C.test.source, {" "}, C.test.target));
%! assert (isequal (C, attn_corpus_lm (struct ("n_train", 100, "n_valid", 20, "n_test", 20))));
%! C1 = attn_corpus_lm (struct ("n_train", 20, "n_valid", 2, "n_test", 2, "max_facts", 1));
%! assert (all (cellfun (@(s) numel (strfind (s, " . ")), C1.train.source) == 1));

%!error <OPTS must be a scalar struct> attn_corpus_lm (1)
%!error <option "max_facts" must be an integer in \[1, Inf\), got 0> attn_corpus_lm (struct ("max_facts", 0))
%!error id=attention:option attn_corpus_lm (struct ("n_facts", 2))
%!error <option "heldout" must be a real number in \(0, 0.5\)> attn_corpus_lm (struct ("heldout", 0.5))
