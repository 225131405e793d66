## -*- texinfo -*-
## @deftypefn  {} {@var{m} =} attn_ablate (@var{m}, @var{part})
## @deftypefnx {} {@var{m} =} attn_ablate (@var{m}, @var{part}, @var{heads})
## Switch off attention heads, a block or an FFN of a model.  Returns a
## copy of the model @var{m} in which a part adds nothing to the residual
## stream, to measure what that part does.
##
## @var{part} names an attention block or an FFN as the trace does:
## @qcode{"encoder(l).self"}, @qcode{"decoder(l).self"},
## @qcode{"decoder(l).cross"}, @qcode{"encoder(l).ffn"} or
## @qcode{"decoder(l).ffn"} (l the layer, counted from 1).
##
## @itemize
## @item
## A block with @var{heads} (a list of head numbers, 1 to h): each listed
## head's rows of @code{W_O} are set to 0.  Head j's rows are
## (j-1)·dv+1 @dots{} j·dv, the rows that multiply its columns of
## @code{message} in @code{delta = message*W_O (+ b_O)}; so the block's update is
## what it would be with head j's message columns zeroed, and the other
## heads are untouched.
## @item
## A block without @var{heads}: all of @code{W_O}, and the output bias
## @code{b_O} when the block has one; the block's update @code{delta} is 0
## and its output is its input.  (Listing every head keeps @code{b_O}.)
## @item
## An FFN: @code{W_2} and @code{b_2} set to 0, so its update is 0.
## @end itemize
##
## Nothing else changes: the LayerNorms still run (with post-norm the
## sublayer's output is @code{LN(x)} instead of @code{LN(x + delta)}), and
## the part's weights and traces can still be read; the part simply adds
## nothing.  The copy is an ordinary model: measure the effect with
## @code{attn_loss}, @code{attn_score}, @code{attn_greedy} or
## @code{attn_forward} on it and on @var{m}.  Ablations compose:
## @code{attn_ablate (attn_ablate (m, "decoder(2).self", 2), "decoder(1).ffn")}.
##
## Weights show where a head reads; switching it off shows whether the
## model needs what it reads.  A head that looks responsible for a job may
## share it with others: then the model does nearly as well without it,
## and only switching off several heads shows the job.
##
## @example
## @group
## m = attn_toy ("blackcat");
## attn_greedy (m, "the black cat")
##   @result{} ans = le chat noir
## attn_greedy (attn_ablate (m, "decoder(1).cross"), "the black cat", "max_len", 3)
##   @result{} ans = le le le
## @end group
## @end example
## @seealso{attn_score, attn_loss, attn_forward, attn_show}
## @end deftypefn

function m = attn_ablate (m, part, heads = [])
  if (nargin < 2 || nargin > 3)
    print_usage ();
  endif
  check_model (m, "attn_ablate");
  [stack, l, what] = model_part (m, part, "attn_ablate");
  S = m.(stack)(l).(what);
  if (strcmp (what, "ffn"))
    if (nargin > 2)
      error ("attention:heads", "attn_ablate: %s is an FFN: it has no heads to choose", part);
    endif
    S.W_2(:) = 0;
    S.b_2(:) = 0;
  else
    if (nargin < 3)
      heads = 1:S.heads;
      if (isfield (S, "b_O"))
        S.b_O(:) = 0;
      endif
    endif
    S.W_O(head_rows (S, heads, part, "attn_ablate"), :) = 0;   # W_O: h*dv x d
  endif
  m.(stack)(l).(what) = S;
endfunction

%!shared m, src, tgt
%! src = {"the black cat", "the white dog"};
%! tgt = {"le chat noir", "le chien blanc"};
%! m = attn_model (struct ("src_vocab", {src}, "tgt_vocab", {tgt}, "d", 6, "heads", 3,
%!                         "dk", 2, "dv", 4, "d_ff", 0, "encoder_layers", 1,
%!                         "decoder_layers", 1, "norm", "none", "seed", 7));

%!test
%! ## a cross-attention head off: the forward pass with that head's message
%! ## columns zeroed (from the trace), its update and the logits after it
%! tr = attn_forward (m, src{1}, ["<bos> " tgt{1}]);
%! X = tr.decoder(1).cross;
%! message = X.message;
%! message(:, 5:8) = 0;                               # head 2, dv = 4
%! logits = (X.D + message * m.decoder(1).cross.W_O) * m.W_vocab + m.b_vocab;
%! a = attn_ablate (m, "decoder(1).cross", 2);
%! ta = attn_forward (a, src{1}, ["<bos> " tgt{1}]);
%! assert (ta.decoder(1).cross.message, X.message, 1e-12);   # the heads still read
%! assert (ta.logits, logits, 1e-12);
%! assert (max (abs (ta.logits(:) - tr.logits(:))) > 1e-3);
%! ## nothing else changed
%! a.decoder(1).cross.W_O = m.decoder(1).cross.W_O;
%! assert (isequal (a, m));

%!test
%! ## an encoder head off: the whole forward pass recomputed from the
%! ## readable block definition, attn_ref_block, after the encoder's update
%! ## with head 1's and head 3's message columns zeroed
%! tr = attn_forward (m, src{2}, ["<bos> " tgt{2}]);
%! message = tr.encoder(1).self.message;
%! message(:, [1:4, 9:12]) = 0;
%! E = tr.source_rows + message * m.encoder(1).self.W_O;
%! D = attn_ref_block ("masked", tr.target_rows, [], m.decoder(1).self);
%! D = attn_ref_block ("cross", D, E, m.decoder(1).cross);
%! ta = attn_forward (attn_ablate (m, "encoder(1).self", [3 1]), src{2}, ["<bos> " tgt{2}]);
%! assert (ta.logits, D * m.W_vocab + m.b_vocab, 1e-12);
%! ## the loss changes with it
%! assert (attn_loss (attn_ablate (m, "encoder(1).self", [1 3]), src, tgt)
%!         != attn_loss (m, src, tgt));

%!test
%! ## a whole block off: its output is its input; heads 1:h is the same
%! a = attn_ablate (m, "decoder(1).self");
%! assert (isequal (a, attn_ablate (m, "decoder(1).self", 1:3)));
%! assert (a.decoder(1).self.W_O, zeros (12, 6));
%! tr = attn_forward (a, src{1}, "<bos> le");
%! assert (tr.decoder(1).self.out, tr.decoder(1).self.X);
%! ## an FFN off: with post-norm the sublayer's output is LN of its input
%! c = struct ("family", "decoder-only", "vocab", {src}, "d", 6, "heads", 2, "d_ff", 5,
%!             "layers", 1, "norm", "post", "seed", 2);
%! lm = attn_family (c);
%! a = attn_ablate (lm, "decoder(1).ffn");
%! assert ([a.decoder(1).ffn.W_2(:); a.decoder(1).ffn.b_2(:)], zeros (36, 1));
%! tr = attn_forward (a, src{1});
%! x = tr.decoder(1).after_self;
%! g = a.decoder(1).norm_ffn;
%! ln = (x - mean (x, 2)) ./ sqrt (var (x, 1, 2) + 1e-5) .* g.gain + g.bias;
%! assert (tr.decoder_out, ln, 1e-12);

%!test
%! ## a token classifier's encoder head: the class logits after it
%! c = struct ("family", "encoder-token", "vocab", {src}, "classes", {{"DET", "ADJ", "N"}},
%!             "d", 4, "heads", 2, "d_ff", 0, "layers", 1, "norm", "none", "seed", 5);
%! e = attn_family (c);
%! tr = attn_forward (e, src{1});
%! message = tr.encoder(1).self.message;
%! message(:, 3:4) = 0;
%! logits = (tr.source_rows + message * e.encoder(1).self.W_O) * e.W_class + e.b_class;
%! assert (attn_forward (attn_ablate (e, "encoder(1).self", 2), src{1}).logits, logits, 1e-12);

%!test
%! ## grouped-query attention with biases: query head 3 of 4 (two K/V heads)
%! ## off is its message columns zeroed, b_O kept; the whole block off
%! ## zeroes b_O too
%! c = struct ("src_vocab", {src}, "tgt_vocab", {tgt}, "d", 8, "heads", 4, "kv_heads", 2,
%!             "attn_bias", true, "d_ff", 0, "encoder_layers", 1, "decoder_layers", 1,
%!             "norm", "none", "seed", 3);
%! g = attn_model (c);
%! g.decoder(1).cross.b_O = 0.1 * (1:8);
%! tr = attn_forward (g, src{1}, ["<bos> " tgt{1}]);
%! X = tr.decoder(1).cross;
%! dv = rows (g.decoder(1).cross.W_O) / 4;
%! message = X.message;
%! message(:, 2*dv+1:3*dv) = 0;
%! delta = message * g.decoder(1).cross.W_O + g.decoder(1).cross.b_O;
%! ta = attn_forward (attn_ablate (g, "decoder(1).cross", 3), src{1}, ["<bos> " tgt{1}]);
%! assert (ta.logits, (X.D + delta) * g.W_vocab + g.b_vocab, 1e-12);
%! ta = attn_forward (attn_ablate (g, "decoder(1).cross"), src{1}, ["<bos> " tgt{1}]);
%! assert (ta.decoder(1).cross.out, X.D, 1e-15);

%!error <Invalid call> attn_ablate (m)
%!error id=attention:model attn_ablate (1, "decoder(1).self")
%!error id=attention:type attn_ablate (m, 1)
%!error <no part "decoder\(2\).self"; its parts: encoder\(1\).self, decoder\(1\).self, decoder\(1\).cross> attn_ablate (m, "decoder(2).self")
%!error <no part "decoder\(1\).ffn"> attn_ablate (m, "decoder(1).ffn")
%!error id=attention:field attn_ablate (m, "decoder.1.self")
%!error <HEADS must be head numbers from 1 to 3> attn_ablate (m, "decoder(1).self", 4)
%!error id=attention:heads attn_ablate (m, "decoder(1).self", 1.5)
%!error id=attention:heads attn_ablate (m, "decoder(1).self", {1})
