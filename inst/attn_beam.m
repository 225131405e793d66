## -*- texinfo -*-
## @deftypefn  {} {[@var{text}, @var{info}] =} attn_beam (@var{m}, @var{source}, @var{k})
## @deftypefnx {} {[@var{text}, @var{info}] =} attn_beam (@var{m}, @var{source}, @var{k}, @var{name}, @var{value}, @dots{})
## Translate by beam search of width @var{k}.
##
## The encoder runs once.  Each step extends every live hypothesis by every
## token (one cached decoder step per hypothesis, as in @code{attn_greedy})
## and keeps the @var{k} with the highest total log-probability; a
## hypothesis that writes @code{<eos>} is finished.  Search stops when
## @var{k} hypotheses are finished, none is live, or the length limit is
## reached (live ones then count as finished).  The answer is the finished
## hypothesis with the best length-normalised score
## @code{logp / len^alpha} (len counts the written tokens, @code{<eos>}
## included); @code{alpha} = 0 compares raw log-probabilities.
##
## Options: @code{alpha} (1), @code{max_len} (rows of @code{m.tgt_pos}).
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
  check_model (m, "attn_beam");
  if (! isnumeric (k) || ! isscalar (k) || k < 1 || k != fix (k))
    error ("attention:type", "attn_beam: K must be a positive integer, got %s", disp_arg (k));
  endif
  o = get_options ("attn_beam", struct ("alpha", 1, "max_len", Inf), varargin);
  v = m.tgt_vocab;
  src = to_ids (m.src_vocab, source, "source", "attn_beam")';
  check_lengths (m, struct ("src", src, "tgt_in", v.bos), "attn_beam");
  limit = min (o.max_len, rows (m.tgt_pos));
  V = numel (v.words);
  hyp = struct ("ids", v.bos, "logp", 0, "state", decode_start (m, src),
                "probs", zeros (0, V), "A", []);
  done = hyp([]);
  steps = 0;
  for len = 1:limit
    ## every live hypothesis, one decoder step, every next token
    logp = zeros (numel (hyp), V);
    for i = 1:numel (hyp)
      [hyp(i).state, p, A] = decode_step (m, hyp(i).state, hyp(i).ids(end));
      hyp(i).probs(end+1,:) = p;
      hyp(i).A = cat (1, hyp(i).A, reshape (A, [1, size(A)]));
      logp(i,:) = hyp(i).logp + log (p);
      steps += 1;
    endfor
    [best, at] = sort (logp(:), "descend");
    keep = min (k, numel (best));
    [from, token] = ind2sub (size (logp), at(1:keep)');
    next = hyp(from);
    for j = 1:keep
      next(j).ids(end+1) = token(j);
      next(j).logp = best(j);
    endfor
    ends = arrayfun (@(h) h.ids(end) == v.eos, next);
    done = [done, next(ends)];
    hyp = next(! ends);
    if (isempty (hyp) || numel (done) >= k)
      break;
    endif
  endfor
  done = [done, hyp];                              # reached the length limit
  len = arrayfun (@(h) numel (h.ids) - 1, done);
  score = [done.logp] ./ len .^ o.alpha;
  [score, order] = sort (score, "descend");
  done = done(order);
  words = @(h) v.words(h.ids(2:end));
  best = done(1);
  info.tokens = words (best);
  info.ids = best.ids(2:end);
  info.probs = best.probs;
  info.A = best.A;
  info.source_labels = m.src_vocab.words(src');
  info.encoder_passes = 1;
  info.decoder_steps = steps;
  info.logp = best.logp;
  info.score = score(1);
  info.beams = struct ("text", arrayfun (@(h) strjoin (words (h), " "), done, "UniformOutput", false),
                       "ids", arrayfun (@(h) h.ids(2:end), done, "UniformOutput", false),
                       "logp", num2cell ([done.logp]), "score", num2cell (score));
  text = strjoin (info.tokens(info.ids != v.eos), " ");
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
%! ## a beam wide enough to keep every sequence finds the best one an
%! ## exhaustive search over all sequences of up to 3 tokens finds, each
%! ## scored by a teacher-forced forward pass
%! V = 5;  L = 3;  eos = m.tgt_vocab.eos;
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
%!   [~, info] = attn_beam (m, "the financial bank", V^L, "alpha", alpha, "max_len", L);
%!   assert (info.ids, best_ids);
%!   assert (info.score, best, 1e-12);
%!   assert (info.encoder_passes, 1);
%! endfor

%!test
%! [text, info] = attn_beam (attn_toy ("blackcat"), "the white dog", 3);
%! assert (text, "le chien blanc");
%! assert (numel (info.beams) >= 1);
%! assert ([info.beams.score], sort ([info.beams.score], "descend"));

%!error id=attention:type attn_beam (attn_toy ("blackcat"), "the cat", 0)
%!error id=attention:option attn_beam (attn_toy ("blackcat"), "the cat", 2, "beta", 1)
