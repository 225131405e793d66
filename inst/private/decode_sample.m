## spec = decode_sample (): the sampler's options, rows of a parse_options
## spec: temperature, top_k, top_p, seed.
## [id, q] = decode_sample (p, o): one token drawn with rand () from the
## next-token distribution p (1×V) reshaped by the options o:
##   temperature T:  q ∝ p.^(1/T), computed as (p/max p).^(1/T) so that a
##                   tiny T leaves the most probable token, not zeros
##   top_k k > 0:    only the k most probable tokens keep their mass
##   top_p P < 1:    only the fewest most probable tokens whose mass
##                   reaches P keep it (nucleus sampling)
## q (1×V, sums to 1) is the distribution drawn from.
function [id, q] = decode_sample (p, o)
  if (nargin == 0)
    id = {"temperature", 1, "real (0, Inf)";
          "top_k", 0, "integer [0, Inf)";
          "top_p", 1, "real (0, 1]";
          "seed", 0, "integer [0, Inf)"};
    return;
  endif
  q = (p / max (p)) .^ (1 / o.temperature);
  if (o.top_k > 0 && o.top_k < numel (q) || o.top_p < 1)
    [~, order] = sort (q, "descend");
  endif
  if (o.top_k > 0 && o.top_k < numel (q))
    q(order(o.top_k+1:end)) = 0;
  endif
  if (o.top_p < 1)
    mass = cumsum (q(order)) / sum (q);
    q(order([false, mass(1:end-1) >= o.top_p])) = 0;   # kept: mass before < P
  endif
  q /= sum (q);
  c = cumsum (q);
  id = find (c > rand () * c(end), 1);
endfunction

%!test
%! ## temperature and the cuts, against hand-computed distributions
%! p = [0.1 0.5 0.05 0.35];
%! o = struct ("temperature", 1, "top_k", 0, "top_p", 1);
%! [~, q] = decode_sample (p, o);
%! assert (q, p, 1e-15);
%! o.temperature = 0.5;
%! [~, q] = decode_sample (p, o);
%! assert (q, p .^ 2 / sum (p .^ 2), 1e-15);
%! o.temperature = 1;  o.top_p = 0.8;                 # 0.5 + 0.35 reaches 0.8
%! [~, q] = decode_sample (p, o);
%! assert (q, [0 0.5 0 0.35] / 0.85, 1e-15);
%! o.top_p = 0.5;                                     # 0.5 alone reaches 0.5
%! [~, q] = decode_sample (p, o);
%! assert (q, [0 1 0 0]);
%! o.top_p = 0.9;  o.top_k = 2;                       # top-k cuts first
%! [~, q] = decode_sample (p, o);
%! assert (q, [0 0.5 0 0.35] / 0.85, 1e-15);
%! o = struct ("temperature", 1e-5, "top_k", 0, "top_p", 1);
%! [id, q] = decode_sample (p, o);
%! assert ([id, q], [2, 0 1 0 0]);

%!test
%! ## draws follow q, never a token without mass
%! rand ("state", 1);
%! o = struct ("temperature", 1, "top_k", 0, "top_p", 0.8);
%! p = [0.1 0.5 0.05 0.35];
%! ids = arrayfun (@(i) decode_sample (p, o), 1:4000);
%! assert (all (ismember (ids, [2 4])));
%! assert (mean (ids == 2), 0.5 / 0.85, 0.03);
