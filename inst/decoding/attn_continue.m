## -*- texinfo -*-
## @deftypefn  {} {[@var{text}, @var{info}] =} attn_continue (@var{m}, @var{prompt})
## @deftypefnx {} {[@var{text}, @var{info}] =} attn_continue (@var{m}, @var{prompt}, @var{name}, @var{value}, @dots{})
## Continue a prompt with a decoder-only attention model. Continue a prompt:
## generate the target tokens that follow it.
##
## Seed 003's generation loop: the prompt and the tokens generated so far
## are one sequence @code{<bos> prompt @dots{}}; the last row's final
## embedding goes through the vocabulary head, softmax gives the next-token
## probabilities, a selection step picks a token, which is appended and fed
## back.  Under causal attention earlier rows never change, so with the cache
## (default) each step computes only the new row, reading the stored keys and
## values of the earlier ones.
##
## A decoder-only model (@code{attn_family}) reads the prompt alone.  An
## encoder-decoder or pooled-context model needs the @code{source} option:
## the prompt is then the start of its translation.  Prompt and source
## words missing from their vocabularies are read as @code{<unk>} with a
## warning @code{attention:unknown-word}.
##
## Options:
## @table @code
## @item max_len
## most tokens to generate (20; a non-negative integer or Inf); generation
## also stops at @code{<eos>} and at the end of the position table
## @item method
## the selection step: @qcode{"greedy"} (the most probable token, as
## @code{attn_greedy}), @qcode{"sample"} (a draw, as @code{attn_sample}) or
## @qcode{"beam"} (a beam search, as @code{attn_beam})
## @item temperature, top_k, top_p, seed
## the sampling options of @code{attn_sample} (1, 0, 1, 0); the caller's
## random state is kept
## @item width, alpha
## the beam width (1) and length normalisation (1) of @code{attn_beam}
## @item source
## the source sentence (encoder-decoder and pooled-context models only)
## @item cache
## true (default): one new row per step; false: rerun the whole sequence
## each step (same probabilities, for checking)
## @end table
##
## @var{text} is the continuation without @code{<eos>}; @var{info} has
## @code{prompt_tokens}, @code{tokens} (generated, with @code{<eos>} if
## reached), @code{ids}, @code{probs} (one row per generated token: the
## distribution it was chosen from), @code{rows_computed} (decoder rows run
## through the stack) and @code{stopped} (@qcode{"eos"} or @qcode{"length"});
## with a source also @code{source_labels} and @code{A} (as
## @code{attn_greedy}); with @code{method} @qcode{"beam"} also @code{logp}
## and @code{score}.
##
## The decoding functions keep a reference to the last model they decoded
## (no copy): a further call on the same, unchanged arrays does not read
## them again for NaN and Inf (on a GPT-2-sized model, 124M numbers a
## call).  That model's memory is released when another model is decoded,
## or by @code{clear functions}.
##
## @example
## @group
## c = struct ("family", "decoder-only", "vocab", "raghav goes to school in delhi",
##             "d", 8, "heads", 2, "layers", 1);
## m = attn_family (c);
## [text, info] = attn_continue (m, "raghav goes", "max_len", 3);
## strjoin (info.prompt_tokens, " ")
##   @result{} ans = <bos> raghav goes
## m = attn_toy ("blackcat");
## attn_continue (m, "le", "source", "the black cat")
##   @result{} ans = chat noir
## @end group
## @end example
## @seealso{attn_family, attn_greedy, attn_sample, attn_beam, attn_train}
## @end deftypefn

function [text, info] = attn_continue (m, prompt, varargin)
  if (nargin < 2)
    print_usage ();
  endif
  o = parse_options ("attn_continue", [{"max_len", 20, "integer [0, Inf]";
                                        "method", "greedy", "one of greedy, sample, beam";
                                        "source", [], "any"};
                                       decode_sample();
                                       {"width", 1, "integer [1, Inf)";
                                        "alpha", 1, "real (-Inf, Inf)";
                                        "cache", true, "flag"}], varargin);
  check_model (m, "attn_continue", "keep", true);
  start = model_family (m).start;
  given = ! (isnumeric (o.source) && isempty (o.source));
  if (strcmp (start, "prompt") && given)
    error ("attention:option",
           "attn_continue: option \"source\" is not read by a decoder-only model (it has no encoder)");
  elseif (strcmp (start, "source") && ! given)
    error ("attention:option",
           "attn_continue: option \"source\" (the sentence the encoder reads) is required for an encoder-decoder model");
  endif
  if (! ischar (prompt) && ! iscellstr (prompt) && ! isnumeric (prompt))
    error ("attention:type",
           "attn_continue: PROMPT must be a string, a cell array of words or ids, got %s",
           class (prompt));
  endif
  if (isnumeric (prompt) && isempty (prompt))
    prompt = "";                                # an empty prompt, not "none given"
  endif
  o.want = nargout > 1;
  old = rand ("state");
  rand ("state", o.seed);
  unwind_protect
    if (o.want)
      [text, full, done] = decode_run (m, {o.source}, {prompt}, o, "attn_continue");
    else
      text = decode_run (m, {o.source}, {prompt}, o, "attn_continue");
    endif
  unwind_protect_cleanup
    rand ("state", old);
  end_unwind_protect
  text = text{1};
  if (! o.want)
    return;
  endif
  info = struct ("prompt_tokens", {full.prompt_tokens}, "rows_computed", full.rows_computed,
                 "probs", full.probs, "ids", full.ids, "tokens", {full.tokens},
                 "stopped", full.stopped);
  if (strcmp (start, "source"))
    info.source_labels = full.source_labels;
    info.A = full.A;
  endif
  if (strcmp (o.method, "beam"))
    info.logp = done{1}(1).logp;
    info.score = done{1}(1).score;
  endif
endfunction

%!shared m
%! c = struct ("family", "decoder-only", "d", 8, "heads", 2, "layers", 2, "d_ff", 6,
%!             "max_len", 12, "norm", "pre", "seed", 5,
%!             "vocab", {{"raghav goes to school in delhi", "meera lives in paris"}});
%! m = attn_family (c);

## the cache gives the probabilities of rerunning the whole sequence
%!test
%! [t1, i1] = attn_continue (m, "raghav goes", "max_len", 6);
%! [t2, i2] = attn_continue (m, "raghav goes", "max_len", 6, "cache", false);
%! assert (t1, t2);
%! assert (i1.probs, i2.probs, 1e-12);
%! assert (i1.rows_computed, 2 + rows (i1.probs));
%! ## greedy picks the most probable token of each step
%! [~, best] = max (i1.probs, [], 2);
%! assert (i1.ids(:), best);

## the first step's distribution is the trace's last row for the prompt
%!test
%! [~, info] = attn_continue (m, "meera lives in", "max_len", 1);
%! tr = attn_forward (m, "meera lives in");
%! assert (tr.target_labels', {"<bos>", "meera", "lives", "in"});
%! assert (info.probs(1,:), tr.probs(end,:), 1e-12);

## sampling: seeded, reproducible, top-k 1 is greedy, the caller's state kept
%!test
%! rand ("state", 3);  r0 = rand ();  rand ("state", 3);
%! [a, ia] = attn_continue (m, "raghav", "method", "sample", "seed", 4, "max_len", 8);
%! assert (rand (), r0);
%! b = attn_continue (m, "raghav", "method", "sample", "seed", 4, "max_len", 8);
%! assert (a, b);
%! g = attn_continue (m, "raghav", "max_len", 8);
%! k1 = attn_continue (m, "raghav", "method", "sample", "top_k", 1, "max_len", 8);
%! assert (k1, g);
%! ## every sampled token had nonzero probability within the top 3
%! [~, ik] = attn_continue (m, "raghav", "method", "sample", "top_k", 3, "seed", 1,
%!                          "temperature", 2, "max_len", 8);
%! for t = 1:numel (ik.ids)
%!   [~, order] = sort (ik.probs(t,:), "descend");
%!   assert (any (order(1:3) == ik.ids(t)));
%! endfor

%!error <does not generate text> attn_continue (attn_family (struct ("family", "encoder-token", "vocab", "a b", "classes", {{"X", "Y"}}, "d", 4, "heads", 2)), "a")
%!error <option "method" must be one of> attn_continue (m, "raghav", "method", "top")
%!error <option "temperature" must be a real number in \(0, Inf\)> attn_continue (m, "raghav", "temperature", 0)
%!error <must fit the position table> attn_continue (m, repmat ("raghav ", 1, 12))
