## -*- texinfo -*-
## @deftypefn  {} {[@var{text}, @var{info}] =} attn_sample (@var{m}, @var{source})
## @deftypefnx {} {[@var{text}, @var{info}] =} attn_sample (@var{m}, @var{source}, @var{name}, @var{value}, @dots{})
## Translate with an attention model by sampling tokens. Translate by
## sampling each next token from the model's distribution.
##
## At each step the next-token probabilities p (as in @code{attn_greedy},
## with the same encoder-once cache, on every generating model) are reshaped
## before drawing: temperature T gives q ∝ p.^(1/T) (the softmax of
## logits/T; a tiny T leaves the most probable token); with @code{top_k} > 0
## only the k most probable tokens keep their mass; with @code{top_p} < 1
## only the fewest most probable tokens whose mass reaches @code{top_p}
## (nucleus sampling, after top-k).  The draws come from Octave's
## @code{rand} seeded with @code{seed}, so a seed gives the same translation
## every time; the caller's random state is kept.
##
## Options: @code{temperature} (1; real, > 0, finite), @code{top_k} (0 =
## every token; a non-negative integer), @code{top_p} (1; in (0, 1]),
## @code{seed} (0; a non-negative integer), @code{max_len}, @code{cache} (as
## @code{attn_greedy}).  @var{info} is as @code{attn_greedy}'s;
## @code{info.probs} holds the model's distributions p before temperature,
## top-k and top-p.
##
## @example
## @group
## m = attn_toy ("river");
## attn_sample (m, "the river bank", "top_k", 1)     # = greedy
##   @result{} ans = la rive
## attn_sample (m, "the river bank", "top_p", 0.1)   # the nucleus is one token
##   @result{} ans = la rive
## @end group
## @end example
## @seealso{attn_greedy, attn_beam}
## @end deftypefn

function [text, info] = attn_sample (m, source, varargin)
  if (nargin < 2)
    print_usage ();
  endif
  o = parse_options ("attn_sample", [decode_sample();
                                     {"max_len", Inf, "integer [0, Inf]";
                                      "cache", true, "flag"}], varargin);
  o.method = "sample";
  o.want = nargout > 1;
  check_model (m, "attn_sample", "keep", true);
  old = rand ("state");
  rand ("state", o.seed);
  unwind_protect
    if (o.want)
      [text, info] = decode_run (m, {source}, {}, o, "attn_sample");
      info = rmfield (info, {"prompt_tokens", "rows_computed"});
    else
      text = decode_run (m, {source}, {}, o, "attn_sample");
    endif
  unwind_protect_cleanup
    rand ("state", old);
  end_unwind_protect
  text = text{1};
endfunction

%!shared m
%! m = attn_toy ("river");

%!test
%! ## a seed gives the same translation; the caller's state is untouched
%! rand ("state", 3);  before = rand ("state");
%! [t1, a] = attn_sample (m, "the financial bank", "seed", 5, "temperature", 3);
%! [t2, b] = attn_sample (m, "the financial bank", "seed", 5, "temperature", 3);
%! assert (t1, t2);
%! assert (a.ids, b.ids);
%! assert (rand ("state"), before);

%!test
%! ## top_k = 1 and a near-zero temperature are greedy decoding
%! [g, gi] = attn_greedy (m, "the river bank");
%! [s, si] = attn_sample (m, "the river bank", "top_k", 1, "seed", 2);
%! assert (s, g);
%! assert (si.probs, gi.probs);
%! assert (attn_sample (m, "the financial bank", "temperature", 1e-3), "la banque");

%!test
%! ## high temperature: many seeds spread over several first tokens, and
%! ## with top_k = 2 only the two most probable first tokens ever appear
%! [~, info] = attn_greedy (m, "the river bank");
%! [~, best] = sort (info.probs(1,:), "descend");
%! first = zeros (1, 40);
%! for s = 1:40
%!   [~, i] = attn_sample (m, "the river bank", "seed", s, "temperature", 5, "top_k", 2, "max_len", 1);
%!   first(s) = i.ids(1);
%! endfor
%! assert (all (ismember (first, best(1:2))));
%! assert (numel (unique (first)), 2);

%!error id=attention:option attn_sample (attn_toy ("blackcat"), "the cat", "temperature", 0)
%!error id=attention:option attn_sample (attn_toy ("blackcat"), "the cat", "top_k", 1.5)
