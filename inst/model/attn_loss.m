## -*- texinfo -*-
## @deftypefn  {} {[@var{loss}, @var{G}, @var{info}] =} attn_loss (@var{m}, @var{source}, @var{target})
## @deftypefnx {} {[@var{loss}, @var{G}, @var{info}] =} attn_loss (@var{m}, @var{batch})
## @deftypefnx {} {[@dots{}] =} attn_loss (@dots{}, "label_smoothing", @var{eps})
## @deftypefnx {} {[@dots{}] =} attn_loss (@dots{}, "weights", @var{w})
## Teacher-forced loss of an attention model and gradients. Teacher-forced
## cross-entropy of a translation and its gradients.
##
## @var{source} and @var{target} are sentences, or cell arrays of sentences
## (a batch); a @var{batch} from @code{attn_batch} is used as is.  For a target
## y1 @dots{} yn the decoder reads @code{<bos> y1 @dots{} yn} and each row
## predicts the next token, the labels @code{y1 @dots{} yn <eos>}; the causal
## mask keeps every row from reading its answer.
##
## @var{loss} is the mean cross-entropy over all label tokens of the batch
## (padding ignored).  With label smoothing @var{eps} the target
## distribution puts 1-@var{eps} on the label and @var{eps}/V on every token.
## With @var{w} (real, non-negative, the size of the batch's labels) the
## loss is the weighted mean @code{sum (w .* row_loss) / sum (w)} over the
## labels (padding still ignored): weights 0 on a decoder-only model's
## prompt put the loss on the answer alone, while every row still attends
## to the prompt.
##
## @var{G} holds the gradient of @var{loss} for every learned array of
## @var{m}, in the same layout (@code{G.src_embed}, @code{G.encoder(l).self.W_Q},
## @code{G.decoder(l).cross.W_O}, @code{G.W_vocab}, @dots{}).
##
## @var{info}: @code{row_loss} (n×Bt, the loss of each label, 0 on padding),
## @code{tokens} (label count), @code{batch}, @code{trace} (as
## @code{attn_forward}) and @code{grads}, the trace's backward side: at
## each place of the trace that a gradient reaches, the gradient of
## @var{loss} with respect to that matrix, under the same name and with the
## same token labels: @code{grads.logits}, @code{grads.decoder_out},
## @code{grads.decoder(l).cross.A} (dL/dA, n×m×h×Bt),
## @code{grads.decoder(l).cross.scores}, @code{.message}, @code{.Q},
## @code{.K}, @code{.V}, @code{.out}, the FFNs' @code{.hidden},
## @code{.pre}, the layers' @code{out} and @code{input},
## @code{grads.encoded}, @code{grads.target_rows},
## @code{grads.source_rows}.  A student can print or plot them as the
## trace (@code{attn_show (info.grads, "decoder(1).cross.A")}) and see
## which path carries the gradient, as seed 000's step 6 discusses.  Without @var{info} (the training step) the
## forward pass keeps only what the gradients need: the kernels' lean
## traces, no probabilities, no token labels; @var{loss} and @var{G} are
## the same to the last bit.
##
## @example
## @group
## m = attn_toy ("river");
## [loss, G, info] = attn_loss (m, "the river bank", "la rive");
## strjoin (info.trace.target_labels', " ")
##   @result{} ans = <bos> la rive
## mat2str (size (info.trace.decoder(1).cross.A))
##   @result{} ans = [3 4]
## @end group
## @end example
## @seealso{attn_forward, attn_batch, attn_train, attn_sgd, attn_adam}
## @end deftypefn

function [loss, G, info] = attn_loss (m, varargin)
  if (nargin < 2)
    print_usage ();
  endif
  check_model (m, "attn_loss");
  if (isstruct (varargin{1}))
    batch = varargin{1};
    varargin(1) = [];
  elseif (numel (varargin) >= 2)
    batch = model_batch (m, varargin{1}, varargin{2}, "attn_loss");
    varargin(1:2) = [];
  else
    print_usage ();
  endif
  o = parse_options ("attn_loss", {"label_smoothing", 0, "real [0, 1)";
                                    "weights", [], "any"}, varargin);
  smoothing = o.label_smoothing;
  check_batch (m, batch, "attn_loss", true);
  if (! isempty (o.weights)
      && (! (isnumeric (o.weights) || islogical (o.weights)) || ! isreal (o.weights)
          || ! isequal (size (o.weights), size (batch.labels))
          || ! all (o.weights(:) >= 0 & isfinite (o.weights(:)))))
    error ("attention:option",
           "attn_loss: option \"weights\" must be finite non-negative reals of the labels' size %s, got %s",
           mat2str (size (batch.labels)), disp_arg (o.weights));
  endif
  if (nargout > 2)
    [loss, G, tr, row_loss, R] = model_loss (m, batch, o.weights, smoothing, "full");
    tr = add_labels (tr, m, batch.labels);       # teacher forcing: rows write the labels
    for f = {"source_ids", "target_ids", "src_allow", "tgt_allow", "source_labels", ...
             "target_labels", "written_labels", "vocab_labels"}
      if (isfield (tr, f{1}))                  # the same rows and columns
        R.(f{1}) = tr.(f{1});
      endif
    endfor
    info = struct ("row_loss", row_loss, "tokens", nnz (batch.tgt_allow),
                   "batch", batch, "trace", tr, "grads", R);
  elseif (nargout > 1)              # no info: the lean training pass
    [loss, G] = model_loss (m, batch, o.weights, smoothing, "lean");
  else
    loss = model_loss (m, batch, o.weights, smoothing, "step");   # no gradient
  endif
endfunction

%!test
%! ## the backward side of the trace: dL/dA of the cross block, against
%! ## finite differences of the loss with the block's weights as given (the
%! ## same message through W_O: L changes with A through message = A*V)
%! m = attn_toy ("river");
%! [loss, ~, info] = attn_loss (m, "the river bank", "la rive");
%! g = info.grads;
%! assert (size (g.decoder.cross.A), size (info.trace.decoder.cross.A));
%! assert (g.target_labels, info.trace.target_labels);
%! ## dL/dlogits: (p - onehot) / count
%! p = info.trace.probs;
%! want = p;
%! labels = info.batch.labels;
%! want(sub2ind (size (p), 1:3, labels')) -= 1;
%! assert (g.logits, want / 3, 1e-14);
%! ## dL/d(decoder_out) = dlogits * W_vocab'
%! assert (g.decoder_out, g.logits * m.W_vocab', 1e-14);

%!test
%! ## seed 000's teacher forcing: decoder input <bos> la rive, labels la rive <eos>
%! m = attn_toy ("river");
%! [loss, G, info] = attn_loss (m, "the river bank", "la rive");
%! assert (info.trace.target_labels', {"<bos>", "la", "rive"});
%! assert (info.batch.labels', attn_encode (m.tgt_vocab, "la rive <eos>"));
%! p = info.trace.probs;
%! assert (loss, -mean (log (p(sub2ind (size (p), 1:3, info.batch.labels')))), 1e-14);
%! assert (fieldnames (G.decoder), {"self"; "cross"});
%! assert (fieldnames (G.decoder.cross), {"W_Q"; "W_K"; "W_V"; "W_O"});

%!test
%! ## label smoothing: the loss against the smoothed target written out on
%! ## the trace's probabilities, its gradient against finite differences
%! m = attn_toy ("river");
%! b = attn_batch (m, {"the river bank", "the financial bank"}, {"la rive", "la"});
%! eps = 0.2;
%! [loss, G, info] = attn_loss (m, b, "label_smoothing", eps);
%! p = info.trace.probs;  V = columns (p);  total = 0;
%! for k = 1:2
%!   for i = find (b.tgt_allow(:,k))'
%!     target = eps / V * ones (1, V);
%!     target(b.labels(i,k)) += 1 - eps;
%!     total -= sum (target .* log (p(i,:,k)));
%!   endfor
%! endfor
%! assert (loss, total / nnz (b.tgt_allow), 1e-14);
%! f = @(W) attn_loss (setfield (m, "W_vocab", W), b, "label_smoothing", eps);
%! assert (G.W_vocab, ref_findiff (f, m.W_vocab), 1e-8);
%! f = @(E) attn_loss (setfield (m, "tgt_embed", E), b, "label_smoothing", eps);
%! assert (G.tgt_embed, ref_findiff (f, m.tgt_embed), 1e-8);

%!error id=attention:model attn_loss (1, "a", "b")
%!error <attn_loss: unknown option "smoothing"> attn_loss (attn_toy ("river"), "the bank", "la", "smoothing", 0.1)
%!error <option "label_smoothing" must be a real number in \[0, 1\), got 1> attn_loss (attn_toy ("river"), "the bank", "la", "label_smoothing", 1)
%!error <attn_loss: unknown word "sea"> attn_loss (attn_toy ("river"), "the sea bank", "la")
%!test
%! m = attn_toy ("river");
%! b = attn_batch (m, "the bank", "la rive");
%! fail ("attn_loss (m, rmfield (b, \"labels\"))", "fields src, src_allow, tgt_in, tgt_allow, labels");
%! b.tgt_allow(end+1) = true;
%! fail ("attn_loss (m, b)", "ids and masks must agree");

%!test
%! ## weights: the weighted mean of the labels' losses (padding ignored), and
%! ## its gradient against central differences through the attention
%! m = attn_family (struct ("family", "decoder-only", "vocab", "a b c ? d e", "d", 6,
%!                          "heads", 2, "d_ff", 8, "seed", 3));
%! b = attn_batch (m, {"a b ?", "c ?"}, {"d", "e"});   # 5 and 4 labels
%! w = [0 0 0 1 1; 0.5 0 1 1 7]';                       # 7 on padding
%! [~, ~, info] = attn_loss (m, b);
%! r = info.row_loss;
%! [loss, G] = attn_loss (m, b, "weights", w);
%! assert (loss, (r(4,1) + r(5,1) + 0.5 * r(1,2) + r(3,2) + r(4,2)) / 4.5, 1e-14);
%! h = 1e-5;
%! m1 = m2 = m;
%! m1.decoder(1).self.W_K(2,3) += h;
%! m2.decoder(1).self.W_K(2,3) -= h;
%! fd = (attn_loss (m1, b, "weights", w) - attn_loss (m2, b, "weights", w)) / (2 * h);
%! assert (G.decoder(1).self.W_K(2,3), fd, 1e-8);
%! assert (abs (fd) > 1e-6);
%! ## weights 1 everywhere: the plain mean
%! [loss1, G1] = attn_loss (m, b, "weights", ones (5, 2));
%! [loss0, G0] = attn_loss (m, b);
%! assert (loss1, loss0, 1e-15);
%! assert (G1.W_vocab, G0.W_vocab, 1e-15);
%!error <option "weights" must be finite non-negative reals of the labels' size \[3 1\], got> attn_loss (attn_toy ("river"), "the river bank", "la rive", "weights", ones (2))
%!error <option "weights" must be finite non-negative> attn_loss (attn_toy ("river"), "the river bank", "la rive", "weights", [1; -1; 1])
