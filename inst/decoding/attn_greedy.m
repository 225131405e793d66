## -*- texinfo -*-
## @deftypefn  {} {[@var{text}, @var{info}] =} attn_greedy (@var{m}, @var{source})
## @deftypefnx {} {[@var{texts}, @var{infos}] =} attn_greedy (@var{m}, @var{sources})
## @deftypefnx {} {[@dots{}] =} attn_greedy (@dots{}, @var{name}, @var{value}, @dots{})
## Translate with an attention model by greedy decoding. Translate by greedy
## decoding: at each step append the most probable token.
##
## The encoder runs once; each decoder layer's cross-attention keys and
## values are computed once from the encoded source, and each step sends one
## new row through the decoder, its masked self-attention reading the cached
## keys and values of the prefix.  Decoding stops at @code{<eos>} or at the
## length limit: @code{max_len} tokens, and at most what the position table
## holds (its rows, less the source row of a pooled-prefix model).
##
## Every generating model decodes: encoder-decoder (@code{attn_model},
## @code{attn_toy}), the pooled-context designs and decoder-only models
## (@code{attn_family}).  A decoder-only model has no source: @var{source}
## is its prompt, and the result is @code{attn_continue}'s greedy
## continuation.  A source word missing from the vocabulary is read as
## @code{<unk>} with a warning @code{attention:unknown-word} (silence it with
## @code{warning ("off", "attention:unknown-word")}).
##
## A cell array @var{sources} of sentences (each a string, a cell of words
## or ids) is decoded as one batch: the encoder runs once on the padded
## sources, and each step sends the new row of every sentence still
## decoding through the decoder at once (the cached keys and values of
## each sentence side by side); each sentence stops at its own
## @code{<eos>} or length limit.  @var{texts} and @var{infos} (a struct
## array) have the shape of @var{sources}, and each entry is what decoding
## that sentence alone gives (the probabilities to rounding).
##
## Options: @code{max_len} (a non-negative integer or Inf, the default);
## @code{cache} (true; false reruns the whole model on the prefix at every
## step, the reference the cache is tested against).
##
## @var{text} is the translation without @code{<eos>}.  @var{info}:
## @code{tokens} (cell, with @code{<eos>} when reached), @code{ids},
## @code{probs} (steps×V, the distribution each step chose from), @code{A}
## (steps×m×h×L: the cross-attention weights of each step's row, per head and
## decoder layer: the alignment grid, target × source; h = 0 for the models
## without cross-attention), @code{source_labels} (empty for decoder-only),
## @code{encoder_passes}, @code{decoder_steps}, @code{stopped}
## (@qcode{"eos"} or @qcode{"length"}).  @code{probs} and @code{A} are kept
## only when @var{info} is asked for.  @var{info} is an
## @code{attn_decoding}: its fields read as a struct's, and typed without a
## semicolon it prints a few lines, not every step's probabilities.
##
## The decoding functions keep a reference to the last model they decoded
## (no copy): a further call on the same, unchanged arrays does not read
## them again for NaN and Inf (on a GPT-2-sized model, 124M numbers a
## call).  That model's memory is released when another model is decoded,
## or by @code{clear functions}.
##
## @example
## @group
## m = attn_toy ("blackcat");
## [text, info] = attn_greedy (m, "the black cat");
## text
##   @result{} text = le chat noir
## mat2str ([info.encoder_passes, info.decoder_steps])
##   @result{} ans = [1 4]
## @end group
## @end example
## @seealso{attn_beam, attn_sample, attn_forward}
## @end deftypefn

function [text, info] = attn_greedy (m, source, varargin)
  if (nargin < 2)
    print_usage ();
  endif
  o = parse_options ("attn_greedy", {"max_len", Inf, "integer [0, Inf]";
                                     "cache", true, "flag"}, varargin);
  o.method = "greedy";
  o.want = nargout > 1;
  check_model (m, "attn_greedy", "keep", true);
  if (o.want)
    [text, info] = decode_run (m, source, {}, o, "attn_greedy");
    info = attn_decoding.of (rmfield (info, {"prompt_tokens", "rows_computed"}));
  else
    text = decode_run (m, source, {}, o, "attn_greedy");
  endif
endfunction

%!test
%! ## cached and uncached decoding give the same probabilities, for a
%! ## 2-layer, 2-head model with FFN and each LayerNorm placement
%! c.src_vocab = {"the river bank", "the financial bank"};
%! c.tgt_vocab = {"la rive", "la banque"};
%! c.d = 6;  c.heads = 2;  c.d_ff = 5;  c.max_len = 7;
%! for norm = {"none", "post", "pre"}
%!   c.norm = norm{1};
%!   m = attn_model (c);
%!   [t1, a] = attn_greedy (m, "the financial bank", "max_len", 5);
%!   [t2, b] = attn_greedy (m, "the financial bank", "max_len", 5, "cache", false);
%!   assert (t1, t2);
%!   assert (a.probs, b.probs, 1e-12);
%!   assert (a.A, b.A, 1e-12);
%!   assert (a.encoder_passes, 1);
%!   assert (b.encoder_passes, b.decoder_steps);
%!   assert (size (a.A), [a.decoder_steps, 4, 2, 2]);
%!   assert (a.decoder_steps <= 5);
%! endfor

%!test
%! ## the length limit
%! [text, info] = attn_greedy (attn_toy ("blackcat"), "the black cat", "max_len", 2);
%! assert (text, "le chat");
%! assert (info.stopped, "length");
%! assert (info.decoder_steps, 2);

%!error id=attention:option attn_greedy (attn_toy ("blackcat"), "the cat", "width", 3)
%!error id=attention:model attn_greedy (struct ("a", 1), "the cat")

%!test
%! ## the model is checked again when it changed between two calls, though
%! ## check_model keeps the last one (only its unchanged arrays are not read)
%! m = attn_toy ("river");
%! attn_greedy (m, "the river bank");
%! m.decoder.cross.W_V(2) = NaN;
%! fail ('attn_greedy (m, "the river bank")',
%!       "attn_greedy: M.decoder.1.cross.W_V must be finite, got NaN at \\(2,1\\)");
%! m.decoder.cross.W_V(2) = 0;
%! assert (attn_greedy (m, "the river bank"), attn_greedy (m, "the river bank"));
