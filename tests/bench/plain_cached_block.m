## [Y, T] = plain_cached_block (Xq, Xkv, B, key_allow, past, causal): the
## plain-Octave stand-in of a kernel call with a K/V cache for
## bench_model's "plain" column: the keys and values of Xkv's rows
## (n×d×Bt) after past.K, past.V (t×h·dk×Bt, t×h·dv×Bt), then ref_sdpa per
## head and batch item (causal: query i reads keys j <= t+i; otherwise
## key_allow, (t+m)×Bt or []).  T: K, V, A, message, delta.
function [Y, T] = plain_cached_block (Xq, Xkv, B, key_allow, past, causal)
  h = B.heads;
  [n, ~, Bt] = size (Xq);
  rows_times = @(X, W) permute (reshape (reshape (permute (X, [1 3 2]), [], columns (X)) * W,
                                         rows (X), Bt, []), [1 3 2]);
  T.K = [past.K; rows_times(Xkv, B.W_K)];
  T.V = [past.V; rows_times(Xkv, B.W_V)];
  m = rows (T.K);
  pages = @(Z) reshape (Z, rows (Z), [], h, Bt);
  allow = [];
  if (causal)
    allow = "causal";
  elseif (! isempty (key_allow))
    allow = repmat (reshape (key_allow, 1, m, 1, Bt), [n, 1, h, 1]);
  endif
  [M, T.A] = ref_sdpa (pages (rows_times (Xq, B.W_Q)), pages (T.K), pages (T.V), allow);
  T.message = reshape (M, n, [], Bt);
  T.delta = rows_times (T.message, B.W_O);
  Y = Xq + T.delta;
endfunction
