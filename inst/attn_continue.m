## -*- texinfo -*-
## @deftypefn  {} {[@var{text}, @var{info}] =} attn_continue (@var{m}, @var{prompt})
## @deftypefnx {} {[@var{text}, @var{info}] =} attn_continue (@var{m}, @var{prompt}, @var{name}, @var{value}, @dots{})
## Continue a prompt with a decoder-only model (@code{attn_family}).
##
## Seed 003's generation loop: the prompt and the tokens generated so far
## are one sequence @code{<bos> prompt @dots{}}; the last row's final
## embedding goes through the vocabulary head, softmax gives the next-token
## probabilities, a selection step picks a token, which is appended and fed
## back.  Under causal attention earlier rows never change, so with the cache
## (default) each step computes only the new row, reading the stored keys and
## values of the earlier ones.
##
## Options:
## @table @code
## @item max_len
## most tokens to generate (20); generation also stops at @code{<eos>} and
## at the end of the position table
## @item method
## @qcode{"greedy"} (the most probable token) or @qcode{"sample"}
## @item temperature
## sampling temperature T > 0 (1): probabilities proportional to p^(1/T)
## @item top_k
## sample among the k most probable tokens only (0 = all)
## @item seed
## random seed of the sampling (0); the caller's random state is kept
## @item cache
## true (default): one new row per step; false: rerun the whole sequence
## each step (same probabilities, for checking)
## @end table
##
## @var{text} is the continuation without @code{<eos>}; @var{info} has
## @code{prompt_tokens}, @code{tokens} (generated, with @code{<eos>} if
## reached), @code{ids}, @code{probs} (one row per generated token: the
## distribution it was chosen from), @code{rows_computed} (decoder rows run
## through the stack) and @code{stopped} (@qcode{"eos"} or @qcode{"length"}).
##
## @example
## @group
## c = struct ("family", "decoder-only", "vocab", "raghav goes to school in delhi",
##             "d", 8, "heads", 2, "layers", 1);
## m = attn_family (c);
## [text, info] = attn_continue (m, "raghav goes", "max_len", 3);
## strjoin (info.prompt_tokens, " ")
##   @result{} ans = <bos> raghav goes
## @end group
## @end example
## @seealso{attn_family, attn_greedy, attn_train}
## @end deftypefn

function [text, info] = attn_continue (m, prompt, varargin)
  if (nargin < 2)
    print_usage ();
  endif
  check_model (m, "attn_continue");
  if (! strcmp (family_kind (m), "decoder-only"))
    error ("attention:model",
           "attn_continue: M must be a decoder-only model (attn_family), got family \"%s\"",
           m.config.family);
  endif
  o = get_options ("attn_continue",
                   struct ("max_len", 20, "method", "greedy", "temperature", 1,
                           "top_k", 0, "seed", 0, "cache", true), varargin);
  if (! any (strcmp (o.method, {"greedy", "sample"})))
    error ("attention:option", "attn_continue: method must be \"greedy\" or \"sample\", got \"%s\"",
           o.method);
  endif
  if (! (o.temperature > 0))
    error ("attention:option", "attn_continue: temperature must be positive, got %g",
           o.temperature);
  endif
  v = m.tgt_vocab;
  ids = [v.bos, to_ids(v, prompt, "target", "attn_continue")];
  L = rows (m.tgt_pos);
  if (numel (ids) > L)
    error ("attention:size", "attn_continue: PROMPT must fit the position table (%d tokens with <bos>), got %d",
           L, numel (ids));
  endif
  info.prompt_tokens = v.words(ids);
  info.rows_computed = 0;
  info.probs = zeros (0, numel (v.words));
  n0 = numel (ids);
  old = rand ("state");
  rand ("state", o.seed);
  unwind_protect
    if (o.cache)
      state = family_decode_start (m, []);
      for t = 1:n0 - 1                    # the prompt's rows, read into the cache
        state = family_decode_step (m, state, ids(t));
      endfor
      info.rows_computed = n0 - 1;
    endif
    while (numel (ids) - n0 < o.max_len && numel (ids) <= L
           && (numel (ids) == n0 || ids(end) != v.eos))
      if (o.cache)
        [state, probs] = family_decode_step (m, state, ids(end));
        info.rows_computed += 1;
      else
        n = numel (ids);
        tr = model_forward (m, struct ("tgt_in", ids', "tgt_allow", true (n, 1)));
        probs = tr.probs(end,:);
        info.rows_computed += n;
      endif
      info.probs(end+1,:) = probs;
      ids(end+1) = choose (probs, o);
    endwhile
  unwind_protect_cleanup
    rand ("state", old);
  end_unwind_protect
  [text, info] = generated_text (info, ids(n0+1:end), v);
endfunction

## the selection step: greedy, or a sample from the tempered top-k
function id = choose (probs, o)
  if (strcmp (o.method, "greedy"))
    [~, id] = max (probs);
    return;
  endif
  p = probs .^ (1 / o.temperature);
  if (o.top_k > 0 && o.top_k < numel (p))
    [~, order] = sort (p, "descend");
    p(order(o.top_k+1:end)) = 0;
  endif
  id = find (rand () * sum (p) < cumsum (p), 1);
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

%!error <decoder-only model> attn_continue (attn_family (struct ("family", "encoder-token", "vocab", "a b", "classes", {{"X", "Y"}}, "d", 4, "heads", 2)), "a")
%!error <method must be> attn_continue (m, "raghav", "method", "beam")
%!error <temperature must be positive> attn_continue (m, "raghav", "temperature", 0)
%!error <must fit the position table> attn_continue (m, repmat ("raghav ", 1, 12))
