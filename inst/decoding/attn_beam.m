## -*- texinfo -*-
## @deftypefn  {} {[@var{text}, @var{info}] =} attn_beam (@var{m}, @var{source}, @var{k})
## @deftypefnx {} {[@var{texts}, @var{infos}] =} attn_beam (@var{m}, @var{sources}, @var{k})
## @deftypefnx {} {[@dots{}] =} attn_beam (@dots{}, @var{name}, @var{value}, @dots{})
## Translate with an attention model by beam search. Translate by beam
## search of width @var{k}.
##
## The encoder runs once.  Each step extends every live hypothesis by every
## token (one cached decoder step for all hypotheses at once, as in
## @code{attn_greedy}) and keeps the @var{k} with the highest total log-probability; a
## hypothesis that writes @code{<eos>} is finished.  Search stops when
## @var{k} hypotheses are finished, none is live, or the length limit (as
## in @code{attn_greedy}) is reached (live ones then count as finished).  The
## answer is the finished hypothesis with the best length-normalised score
## @code{logp / len^alpha} (len counts the written tokens, @code{<eos>}
## included); @code{alpha} = 0 compares raw log-probabilities.  Width 1 is
## greedy decoding.  Every generating model decodes (a decoder-only model
## reads @var{source} as its prompt, as in @code{attn_greedy}).  A cell
## array @var{sources} of sentences is searched as one batch, each sentence
## with its own @var{k} hypotheses, as @code{attn_greedy} decodes a batch:
## @var{texts} and the struct array @var{infos} have the shape of
## @var{sources}.
##
## @var{k} is a positive integer, at most the size V of the target
## vocabulary (a step then weighs at most V×V continuations); a bad
## @var{k} is an @code{attention:option} error about option @code{width}.  Options: @code{alpha} (1; finite real), @code{max_len},
## @code{cache} (as @code{attn_greedy}).
## @var{info}: as @code{attn_greedy} for the answer (@code{tokens},
## @code{ids}, @code{probs}, @code{A}, @code{encoder_passes} = 1,
## @code{decoder_steps}: every step of every hypothesis), plus @code{logp},
## @code{score} and @code{beams} (every finished hypothesis: @code{text},
## @code{ids}, @code{logp}, @code{score}, best first).
##
## @example
## @group
## m = attn_toy ("blackcat");
## [text, info] = attn_beam (m, "the black cat", 3);
## text
##   @result{} text = le chat noir
## @end group
## @end example
## @seealso{attn_greedy, attn_sample}
## @end deftypefn

function [text, info] = attn_beam (m, source, k, varargin)
  if (nargin < 3)
    print_usage ();
  endif
  o = parse_options ("attn_beam", {"width", 1, "integer [1, Inf)";
                                   "alpha", 1, "real (-Inf, Inf)";
                                   "max_len", Inf, "integer [0, Inf]";
                                   "cache", true, "flag"}, [{"width", k}, varargin]);
  o.method = "beam";
  o.want = nargout > 1;
  check_model (m, "attn_beam", "keep", true);
  if (o.want)
    [text, info, done] = decode_run (m, source, {}, o, "attn_beam");
    info = rmfield (info, {"prompt_tokens", "rows_computed", "stopped"});
    ## done: one cell per sentence, its hypotheses best first
    logp = cellfun (@(d) d(1).logp, done, "UniformOutput", false);
    score = cellfun (@(d) d(1).score, done, "UniformOutput", false);
    [info.logp] = logp{:};
    [info.score] = score{:};
    [info.beams] = done{:};
  else
    text = decode_run (m, source, {}, o, "attn_beam");
  endif
endfunction

%!shared m
%! m = attn_toy ("river");

%!test
%! ## width 1 is greedy decoding
%! [g, gi] = attn_greedy (m, "the river bank");
%! [b, bi] = attn_beam (m, "the river bank", 1);
%! assert (b, g);
%! assert (bi.probs, gi.probs, 1e-15);
%! assert (bi.A, gi.A, 1e-15);

%!test
%! ## a beam as wide as the vocabulary keeps every first token and the
%! ## best V of their continuations, so over sequences of up to 2 tokens it
%! ## finds the best one an exhaustive search finds, each scored by a
%! ## teacher-forced forward pass
%! V = 5;  L = 2;  eos = m.tgt_vocab.eos;
%! for alpha = [0 1]
%!   best = -Inf;
%!   for n = 1:L
%!     for code = 0:V^n - 1
%!       ids = mod (floor (code ./ V .^ (0:n-1)), V) + 1;
%!       if (any (ids(1:end-1) == eos) || (n < L && ids(end) != eos))
%!         continue;
%!       endif
%!       tr = attn_forward (m, "the financial bank", [m.tgt_vocab.bos, ids(1:end-1)]);
%!       lp = sum (log (tr.probs(sub2ind (size (tr.probs), 1:n, ids))));
%!       if (lp / n ^ alpha > best)
%!         best = lp / n ^ alpha;  best_ids = ids;
%!       endif
%!     endfor
%!   endfor
%!   [~, info] = attn_beam (m, "the financial bank", V, "alpha", alpha, "max_len", L);
%!   assert (info.ids, best_ids);
%!   assert (info.score, best, 1e-12);
%!   assert (info.encoder_passes, 1);
%! endfor

%!test
%! [text, info] = attn_beam (attn_toy ("blackcat"), "the white dog", 3);
%! assert (text, "le chien blanc");
%! assert (numel (info.beams) >= 1);
%! assert ([info.beams.score], sort ([info.beams.score], "descend"));
%! ## each hypothesis's text: its words, <eos> too, one space apart; the
%! ## best is the answer
%! m = attn_toy ("blackcat");
%! [texts, I] = attn_beam (m, {"the white dog", "the cat"; "the black cat", "the dog"}, 3);
%! for s = 1:4
%!   B = I(s).beams;
%!   assert ({B.text}, arrayfun (@(b) strjoin (m.tgt_vocab.words(b.ids), " "), B,
%!                               "UniformOutput", false));
%!   assert ([B(1).logp, B(1).score], [I(s).logp, I(s).score]);
%!   assert (B(1).ids, I(s).ids);
%! endfor

%!error id=attention:option attn_beam (attn_toy ("blackcat"), "the cat", 0)
%!error id=attention:option attn_beam (attn_toy ("blackcat"), "the cat", 2, "beta", 1)
