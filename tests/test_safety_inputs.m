## Bad input reaching the model layer through every public function: text
## that is not UTF-8 (attention:encoding naming the function the user
## called), NaN or Inf weights (attention:nonfinite naming the array),
## models too large for the machine (attention:toolarge before anything is
## allocated), a wrong argument count (attention:nargin).

%!shared m, g, bad
%! m = attn_toy ("river");
%! g = attn_family (struct ("family", "decoder-only", "vocab", "the river bank", "d", 4,
%!                         "heads", 2, "layers", 1));
%! bad = "the \xC3 bank";

%!function expect (f, id, pattern)
%!  try
%!    f ();
%!  catch err
%!    assert (err.identifier, id);
%!    assert (! isempty (regexp (err.message, pattern, "once")), "%s (expected /%s/)", err.message, pattern);
%!    return;
%!  end_try_catch
%!  error ("no error: expected %s", id);
%!endfunction

## every entry of text names its caller and the byte
%!test
%! at = "is not UTF-8 text: byte 5 \\(0xC3\\) after \"the \"";
%! calls = {"attn_encode", @() attn_encode(m.src_vocab, bad);
%!          "attn_vocab", @() attn_vocab({"ok", bad});
%!          "attn_model", @() attn_model(struct ("src_vocab", bad, "tgt_vocab", "la"));
%!          "attn_family", @() attn_family(struct ("family", "decoder-only", "vocab", bad));
%!          "attn_batch", @() attn_batch(m, {"the bank", bad}, {"la", "la"});
%!          "attn_loss", @() attn_loss(m, bad, "la rive");
%!          "attn_loss", @() attn_loss(m, "the bank", bad);
%!          "attn_forward", @() attn_forward(m, bad);
%!          "attn_train", @() attn_train(m, {bad, "la"}, "epochs", 1, "verbose", false);
%!          "attn_greedy", @() attn_greedy(m, bad);
%!          "attn_beam", @() attn_beam(m, bad, 2);
%!          "attn_sample", @() attn_sample(m, bad);
%!          "attn_continue", @() attn_continue(g, bad);
%!          "attn_score", @() attn_score(m, {bad, "la"})};
%! for i = 1:rows (calls)
%!   expect (calls{i,2}, "attention:encoding", ["^" calls{i,1} ": .*" at]);
%! endfor

## NaN or Inf anywhere in a model: the array is named, by every function
%!test
%! n = m;
%! n.decoder.cross.W_V(2,3) = NaN;
%! w = "M.decoder.1.cross.W_V must be finite, got NaN at \\(2,3\\)";
%! calls = {"attn_forward", @() attn_forward(n, "the bank");
%!          "attn_loss", @() attn_loss(n, "the bank", "la");
%!          "attn_batch", @() attn_batch(n, "the bank", "la");
%!          "attn_train", @() attn_train(n, {"the bank", "la"}, "epochs", 1, "verbose", false);
%!          "attn_greedy", @() attn_greedy(n, "the bank");
%!          "attn_beam", @() attn_beam(n, "the bank", 2);
%!          "attn_sample", @() attn_sample(n, "the bank");
%!          "attn_score", @() attn_score(n, {"the bank", "la"});
%!          "attn_save", @() attn_save(n, [tempname() ".safetensors"])};
%! for i = 1:rows (calls)
%!   expect (calls{i,2}, "attention:nonfinite", ["^" calls{i,1} ": " w]);
%! endfor
%! h = g;
%! h.tgt_embed(1) = -Inf;
%! expect (@() attn_continue (h, "the"), "attention:nonfinite", "^attn_continue: M.tgt_embed must be finite, got -Inf");

## sizes: refused before allocation, quickly; the config checks name the field
%!test
%! c = struct ("src_vocab", "a b", "tgt_vocab", "x y", "d", 4, "heads", 2);
%! t = tic ();
%! expect (@() attn_model (setfield (c, "d", 65536)), "attention:toolarge",
%!         "^attn_model: the model would hold 2.4\\d*e\\+11 numbers .* more than the .* of memory available");
%! expect (@() attn_model (setfield (setfield (c, "d", 4096), "max_len", 1048576)), "attention:toolarge", "^attn_model: ");
%! expect (@() attn_family (struct ("family", "decoder-only", "vocab", "a", "d", 65536, "heads", 1)),
%!         "attention:toolarge", "^attn_family: ");
%! expect (@() attn_model (setfield (c, "d", 1e10)), "attention:config", "CONFIG.d must be an integer");
%! expect (@() attn_model (setfield (c, "encoder_layers", 1e6)), "attention:config",
%!         "CONFIG.encoder_layers must be an integer in \\[0, 1024\\]");
%! for v = {"8", 8+1i, 1.5, NaN}
%!   expect (@() attn_model (setfield (c, "d", v{1})), "attention:config", "^attn_model: CONFIG.d must be an integer");
%! endfor
%! for v = {NaN, Inf, -1}
%!   expect (@() attn_model (setfield (c, "seed", v{1})), "attention:config", "^attn_model: CONFIG.seed must be an integer");
%! endfor
%! assert (toc (t) < 30);           # a loose bound: each is refused before allocating

## a wrong argument count is attention:nargin with the calling forms
%!test
%! expect (@() attn_loss (m), "attention:nargin", "^Invalid call to attn_loss.  Correct usage is:\n  \\[loss, G, info\\] = attn_loss \\(m, source, target\\)");
%! expect (@() attn_model (), "attention:nargin", "m = attn_model \\(config\\)");
%! expect (@() attn_encode (m.src_vocab), "attention:nargin", "attn_encode \\(v, sentence\\)");

## a user's batch with ids out of range is refused, not an index error
%!test
%! b = attn_batch (m, "the bank", "la");
%! b.src(1) = 99;
%! expect (@() attn_forward (m, b), "attention:vocab", "^attn_forward: BATCH.src ids must be integers in 1..5, got 99");
%! b = attn_batch (m, "the bank", "la");
%! b.labels(1) = 0;
%! expect (@() attn_loss (m, b), "attention:vocab", "^attn_loss: BATCH.labels ids must be integers");
