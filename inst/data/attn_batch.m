## -*- texinfo -*-
## @deftypefn  {} {@var{batch} =} attn_batch (@var{m}, @var{sources}, @var{targets})
## @deftypefnx {} {@var{batch} =} attn_batch (@var{m}, @var{sources})
## Pad sentence pairs into an attention model's id batch. Token ids of
## sentence pairs, padded into columns for teacher forcing.
##
## @var{sources} and @var{targets} are cell arrays of N sentences (strings,
## cells of words or id vectors), or one sentence each (a string or ids).  Sources get
## @code{<eos>} appended; a target y1 @dots{} yn becomes the decoder input
## @code{<bos> y1 @dots{} yn} and the labels @code{y1 @dots{} yn <eos>}.
## Without @var{targets} the decoder input is @code{<bos>} alone.
##
## @var{batch} fields: @code{src} (m×N ids), @code{src_allow} (m×N logical,
## true = real token: the kernels' @var{key_allow}), @code{tgt_in},
## @code{labels} and @code{tgt_allow} (n×N).  Padded places hold a valid id
## (@code{<pad>}, else @code{<eos>}, else 1), under a false mask.
##
## The other families (@code{attn_family}) use the same fields: a
## decoder-only model reads one sequence @code{<bos> source target <eos>}
## (@code{src} is 0×N); the encoder families read the source words without
## @code{<eos>} (after @code{<cls>} for the cls readout), the targets are
## class names (one per word, or one per sentence) and @code{tgt_in} is
## 0×N.  An empty sentence is allowed everywhere: the encoder-decoder's
## source is then @code{<eos>} alone, a mean readout over no tokens is the
## zero vector.
##
## @example
## @group
## m = attn_toy ("river");
## b = attn_batch (m, @{"the river bank", "the bank"@}, @{"la rive", "la"@});
## mat2str (b.src_allow)
##   @result{} ans = [true true;true true;true true;true false]
## attn_decode (m.tgt_vocab, b.labels(:,2))
##   @result{} ans = la <eos> <eos>
## @end group
## @end example
## @seealso{attn_loss, attn_forward, attn_train}
## @end deftypefn

function batch = attn_batch (m, sources, targets = {})
  if (nargin < 2 || nargin > 3)
    print_usage ();
  endif
  check_model (m, "attn_batch");
  batch = model_batch (m, sources, targets, "attn_batch");
endfunction

%!shared m
%! c.src_vocab = {"the river bank", "the financial bank"};
%! c.tgt_vocab = {"la rive", "la banque"};
%! c.d = 4;  c.heads = 1;  c.encoder_layers = 1;  c.decoder_layers = 1;
%! m = attn_model (c);

%!test
%! b = attn_batch (m, {"the river bank", "bank"}, {"la rive", "<bos> la <eos>"});
%! assert (b.src, [5 7; 6 4; 7 1; 4 1]);
%! assert (b.src_allow, logical ([1 1; 1 1; 1 0; 1 0]));
%! assert (b.tgt_in, [3 3; 5 5; 6 1]);
%! assert (b.labels, [5 5; 6 4; 4 1]);
%! assert (b.tgt_allow, logical ([1 1; 1 1; 1 0]));

%!test
%! b = attn_batch (m, "the bank");
%! assert (b.src, [5; 7; 4]);
%! assert (b.tgt_in, 3);
%! assert (b.labels, 4);

%!test
%! ## a corpus encoded at once: strings, id rows and word cells mixed, an
%! ## unknown word and an empty sentence, against attn_encode sentence by
%! ## sentence with the specials added by hand
%! src = {"the bank", [5 6 7], {"river", "bank"}, "the storm bank", "", "  bank  the "};
%! tgt = {"la rive", "<bos> la", [5 6 4], "", "banque", "rive la <eos>"};
%! b = attn_batch (m, src, tgt);
%! vs = m.src_vocab;  vt = m.tgt_vocab;
%! for k = 1:numel (src)
%!   s = [attn_encode(vs, src{k}), vs.eos];
%!   t = attn_encode (vt, tgt{k});
%!   t = t(t != vt.bos & t != vt.eos);
%!   assert (b.src(1:numel (s), k)', s);
%!   assert (nnz (b.src_allow(:,k)), numel (s));
%!   assert (b.tgt_in(1:numel (t) + 1, k)', [vt.bos, t]);
%!   assert (b.labels(1:numel (t) + 1, k)', [t, vt.eos]);
%!   assert (nnz (b.tgt_allow(:,k)), numel (t) + 1);
%! endfor
%!test
%! ## errors name the first bad sentence, as sentence by sentence
%! v = m.src_vocab;  v.unk = 0;  m2 = m;  m2.src_vocab = v;
%! try
%!   attn_batch (m2, {"the bank", "the storm", "a b"}, {"la", "la", "la"});
%!   error ("no error");
%! catch err
%!   assert (err.identifier, "attention:vocab");
%!   assert (err.message, ["attn_batch: unknown word \"storm\" (position 2 of source sentence 2) is ", ...
%!                         "not in the source vocabulary (M.src_vocab) of 8 words (words are case sensitive)"]);
%! end_try_catch
%!error <SENTENCE ids must be integers in 1..8, got 0 at position 1> attn_batch (m, {[5 6], 0}, {"la", "la"})
%!error id=attention:size attn_batch (m, {"the", "bank"}, {"la"})
%!error <attn_batch: SENTENCE ids must be integers in 1..8> attn_batch (m, {[5 99]}, {"la"})
%!error id=attention:type attn_batch (m, struct ())
