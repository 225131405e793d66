## -*- texinfo -*-
## @deftypefn  {} {@var{tr} =} attn_forward (@var{m}, @var{source}, @var{prefix})
## @deftypefnx {} {@var{tr} =} attn_forward (@var{m}, @var{source})
## @deftypefnx {} {@var{tr} =} attn_forward (@var{m}, @var{batch})
## Forward pass of an attention model, every matrix kept.  A model of
## any family runs through it.
##
## @var{source} and @var{prefix} are sentences (strings, cells of words or
## id vectors).  The source gets @code{<eos>} appended and the prefix
## @code{<bos>} prepended when they lack them; without @var{prefix} the
## decoder reads @code{<bos>} alone.  A @var{batch} from @code{attn_batch}
## runs several pairs at once (decoder input @code{batch.tgt_in}).  For the
## one-stack families of @code{attn_family} (decoder-only, encoder-token,
## encoder-sentence) @var{source} is the one sequence and @var{prefix} is
## not used.
##
## The trace @var{tr} mirrors the model (doc/ARCHITECTURE.md, "The forward
## trace"): @code{source_rows} (m×d×Bt, token embedding + position),
## @code{encoder(l)} (@code{self}: the kernel trace with @code{Q}, @code{K},
## @code{V}, @code{scores}, @code{A}, @code{message}, @code{delta};
## @code{after_self}, FFN and LayerNorm traces when present),
## @code{encoded}, @code{target_rows}, @code{decoder(l)} (@code{self},
## @code{after_self}, @code{cross}, @code{after_cross}, @dots{}),
## @code{decoder_out}, @code{logits} and @code{probs} (n×V×Bt), and the
## token names @code{source_labels}, @code{target_labels} (shaped like the
## ids), @code{written_labels} (the word each decoder row writes: the next
## word of the prefix, and at a sentence's last row the most probable
## word; @code{attn_show} and @code{attn_heatmap} name decoder rows by it)
## and @code{vocab_labels}.
##
## Like the decoding functions, @code{attn_forward} keeps a reference to
## the last model it ran (no copy): a further call on the same, unchanged
## arrays does not read them again for NaN and Inf (on a GPT-2-sized model,
## 124M numbers a call); an array changed since is read again.  That
## model's memory is released when another model is run, or by
## @code{clear functions}.
##
## @example
## @group
## m = attn_toy ("river");
## tr = attn_forward (m, "the river bank", "<bos> la");
## mat2str (size (tr.decoder(1).cross.A))   # target × source
##   @result{} ans = [2 4]
## [~, next] = max (tr.probs(end,:));
## m.tgt_vocab.words@{next@}
##   @result{} ans = rive
## @end group
## @end example
## @seealso{attn_loss, attn_batch, attn_greedy, attn_model}
## @end deftypefn

function tr = attn_forward (m, source, prefix = zeros (1, 0))
  if (nargin < 2 || nargin > 3)
    print_usage ();
  endif
  check_model (m, "attn_forward", "keep", true);
  batch = forward_batch (m, source, prefix, "attn_forward");
  tr = add_labels (model_forward (m, batch), m);
endfunction

%!test
%! ## the step of seed 000: la's row reads the four source positions
%! m = attn_toy ("river");
%! tr = attn_forward (m, "the river bank", "<bos> la");
%! assert (size (tr.decoder.cross.A), [2 4]);
%! assert (tr.source_ids', attn_encode (m.src_vocab, "the river bank <eos>"));
%! assert (tr.target_ids', attn_encode (m.tgt_vocab, "<bos> la"));
%! assert (tr.decoder.after_cross, tr.decoder.cross.out);
%! assert (tr.logits, tr.decoder_out * m.W_vocab + m.b_vocab, 1e-14);
%! ## the same prefix given as ids or without <bos>
%! assert (attn_forward (m, "the river bank", "la").probs, tr.probs);
%! ## without a prefix the decoder reads <bos> alone, whatever its word
%! tr = attn_forward (m, "the river bank");
%! assert (tr.target_ids, m.tgt_vocab.bos);

%!test
%! ## the last model is kept, yet an array changed since is checked again
%! m = attn_toy ("river");
%! before = attn_forward (m, "the river bank");
%! old = m.encoder.self.W_K(3);
%! m.encoder.self.W_K(3) = Inf;
%! fail ('attn_forward (m, "the river bank")',
%!       "attn_forward: M.encoder.1.self.W_K must be finite, got Inf at \\(3,1\\)");
%! m.encoder.self.W_K(3) = 0.5;
%! tr = attn_forward (m, "the river bank");
%! assert (tr.logits, attn_forward (m, "the river bank").logits);
%! ## the changed array is the one used
%! assert (tr.encoder.self.K(:,1) - before.encoder.self.K(:,1),
%!         tr.encoder.self.X(:,3) * (0.5 - old), 1e-14);

%!error id=attention:vocab attn_forward (attn_toy ("river"), "the sea bank")
%!error id=attention:field attn_forward (attn_toy ("river"), struct ("src", 1))
