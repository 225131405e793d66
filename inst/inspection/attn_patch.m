## -*- texinfo -*-
## @deftypefn  {} {@var{tr} =} attn_patch (@var{m}, @var{source}, @var{prefix}, @var{part}, @var{heads}, @var{donor})
## @deftypefnx {} {@var{tr} =} attn_patch (@dots{}, "rows", @var{rows})
## An attention forward pass with heads patched or zeroed.  The forward pass
## of @code{attn_forward} in which some heads of one attention block write
## another message.
##
## @var{source} and @var{prefix} are as for @code{attn_forward} (a batch
## from @code{attn_batch} too, with @var{prefix} @code{[]}).  @var{part}
## names the block as the trace does (@qcode{"encoder(l).self"},
## @qcode{"decoder(l).self"}, @qcode{"decoder(l).cross"}); @var{heads}
## lists its heads (1 to h; @code{[]} for all).  Those heads' columns of
## the block's @code{message} are replaced, and the block's update is made
## from the patched message, @code{delta = message*W_O (+ b_O)}; everything
## after the block runs on it.  @var{donor} gives the new columns:
## @itemize
## @item
## a forward trace of another input (from @code{attn_forward}, with the
## same number of rows in that block): activation patching, the heads
## write what they wrote for the other input;
## @item
## @code{0}: the heads write nothing, as @code{attn_ablate} does to the
## weights.
## @end itemize
## With the option @qcode{"rows"} only those rows of the block (query
## positions, counted from 1) are patched: zeroing one row of a head
## removes what that head brought to one position.
##
## @var{tr} is the trace of the patched pass, labelled as
## @code{attn_forward}'s; the patched block's @code{message},
## @code{delta} and @code{out} are the patched ones, while its @code{A}
## still shows where the heads read.  Compare @code{tr.probs} or
## @code{tr.logits} with those of @code{attn_forward (m, source, prefix)}.
##
## @example
## @group
## m = attn_toy ("blackcat");
## tr = attn_patch (m, "the black cat", "<bos> le", "decoder(1).cross", [], 0);
## [~, k] = max (tr.probs(end,:));  m.tgt_vocab.words@{k@}
##   @result{} ans = le
## @end group
## @end example
## @seealso{attn_ablate, attn_forward, attn_show}
## @end deftypefn

function tr = attn_patch (m, source, prefix, part, heads, donor, varargin)
  if (nargin != 6 && nargin != 8)
    print_usage ();
  endif
  check_model (m, "attn_patch");
  o = parse_options ("attn_patch", {"rows", [], "any"}, varargin);
  if (isempty (prefix))
    prefix = "<bos>";
  endif
  batch = forward_batch (m, source, prefix, "attn_patch");
  [stack, l, what] = model_part (m, part, "attn_patch");
  if (strcmp (what, "ffn"))
    error ("attention:field", "attn_patch: %s is an FFN; PART must name an attention block",
           part);
  endif
  B = m.(stack)(l).(what);
  if (isempty (heads))
    heads = 1:B.heads;
  endif
  cols = head_rows (B, heads, part, "attn_patch");
  message = model_forward (m, batch).(stack)(l).(what).message;   # the shape to patch
  n = rows (message);
  rows_ = o.rows;
  if (isempty (rows_))
    rows_ = 1:n;
  elseif (! (isnumeric (rows_) && isreal (rows_) && isvector (rows_)
             && all (rows_ == fix (rows_) & rows_ >= 1 & rows_ <= n)))
    error ("attention:option", "attn_patch: option \"rows\" must be rows from 1 to %d of %s, got %s",
           n, part, disp_arg (rows_));
  endif
  if (isnumeric (donor) && isscalar (donor) && donor == 0)
    value = zeros (size (message));
  elseif (isstruct (donor) && isfield (donor, stack) && numel (donor.(stack)) >= l
          && isfield (donor.(stack)(l), what) && isfield (donor.(stack)(l).(what), "message"))
    value = donor.(stack)(l).(what).message;
    if (! isequal (size (value), size (message)))
      error ("attention:size",
             "attn_patch: DONOR's %s.message is %s, but this pass's is %s: the donor input must give the block as many rows (and the batch as many sentences)",
             part, shape_str (size (value)), shape_str (size (message)));
    endif
  else
    error ("attention:type",
           "attn_patch: DONOR must be a forward trace with %s.message (attn_forward) or 0, got %s",
           part, disp_arg (donor));
  endif
  patch = struct ("stack", stack, "layer", l, "block", what, "cols", cols, "rows", rows_,
                  "message", value);
  tr = add_labels (model_forward (m, batch, "full", patch), m);
endfunction

%!shared m, src, tgt
%! src = {"the black cat", "the white dog"};
%! tgt = {"le chat noir", "le chien blanc"};
%! m = attn_model (struct ("src_vocab", {src}, "tgt_vocab", {tgt}, "d", 6, "heads", 3,
%!                         "dk", 2, "dv", 4, "d_ff", 5, "encoder_layers", 2,
%!                         "decoder_layers", 2, "norm", "post", "seed", 7));

%!test
%! ## zeroing heads equals ablating their rows of W_O (attn_ablate)
%! tr = attn_patch (m, src{1}, tgt{1}, "decoder(2).cross", [1 3], 0);
%! ta = attn_forward (attn_ablate (m, "decoder(2).cross", [1 3]), src{1}, tgt{1});
%! assert (tr.logits, ta.logits, 1e-12);
%! assert (tr.decoder(2).cross.message(:, [1:4, 9:12]), zeros (4, 8));

%!test
%! ## a donor's head: the block's update and everything after it recomputed
%! ## here from the layer's formula (post-norm: LN(x + delta), then the FFN)
%! clean = attn_forward (m, src{2}, tgt{1});
%! tr = attn_patch (m, src{1}, tgt{1}, "encoder(2).self", 2, clean);
%! base = attn_forward (m, src{1}, tgt{1});
%! T = base.encoder(2).self;
%! message = T.message;
%! message(:, 5:8) = clean.encoder(2).self.message(:, 5:8);
%! p = m.encoder(2);
%! LN = @(x, P) (x - mean (x, 2)) ./ sqrt (var (x, 1, 2) + 1e-5) .* P.gain + P.bias;
%! x = LN (T.X + message * p.self.W_O, p.norm_self);
%! x = LN (x + max (x * p.ffn.W_1 + p.ffn.b_1, 0) * p.ffn.W_2 + p.ffn.b_2, p.norm_ffn);
%! assert (tr.encoded, x, 1e-12);
%! assert (tr.encoder(2).self.A, T.A);             # the heads still read as before
%! assert (tr.encoder(1), base.encoder(1));        # nothing before the block changes

%!test
%! ## one row: only that position of the head is patched
%! tr = attn_patch (m, src{1}, tgt{1}, "decoder(1).self", 1, 0, "rows", 2);
%! base = attn_forward (m, src{1}, tgt{1});
%! msg = base.decoder(1).self.message;
%! msg(2, 1:4) = 0;
%! assert (tr.decoder(1).self.message, msg, 1e-15);
%! assert (tr.decoder(1).self.out(1,:), base.decoder(1).self.out(1,:), 1e-15);
%! assert (any (abs (tr.decoder(1).self.out(2,:) - base.decoder(1).self.out(2,:)) > 1e-6));

%!error <has no part "decoder\(3\).self"> attn_patch (m, src{1}, tgt{1}, "decoder(3).self", 1, 0)
%!error <is an FFN> attn_patch (m, src{1}, tgt{1}, "decoder(1).ffn", 1, 0)
%!error <HEADS must be head numbers from 1 to 3> attn_patch (m, src{1}, tgt{1}, "decoder(1).self", 4, 0)
%!error <the donor input must give the block as many rows> attn_patch (m, src{1}, tgt{1}, "decoder(1).self", 1, attn_forward (m, src{1}, "le"))
%!error <DONOR must be a forward trace> attn_patch (m, src{1}, tgt{1}, "decoder(1).self", 1, 3)
%!error <option "rows" must be rows from 1 to 4> attn_patch (m, src{1}, tgt{1}, "decoder(1).self", 1, 0, "rows", 5)
