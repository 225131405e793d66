## [X, tr] = decoder_input (m, ids, t, tr): the rows the causal stack of a
## model with a decoder reads for the target ids (n×Bt) that follow t rows
## already in the stack: token embedding plus position, the positions
## t+1 … t+n.  A pooled model also fuses its pooled source tr.c (1×d×Bt)
## into them by the family's pool rule (model_family; tr, the forward
## trace, gains the fields it shows):
##   add             e_t + u + p_t,  u = c*W_u       (target_tokens, u)
##   concat          [e_t, c]*W_F + p_t              (target_tokens, concat, fused)
##   prefix          at t = 0 the source row c*W_P + p_1 comes first, then
##                   e_t + p_t                       (target_tokens, prefix)
## With the config's embed_norm the rows are then normalised
## (tr.tgt_embed_norm).  The whole pass (model_forward) calls it with
## t = 0, a decoding step (decode_step) with the new row of every sentence.
function [X, tr] = decoder_input (m, ids, t, tr = struct ())
  n = rows (ids);
  pos = [];                                  # none with rotary positions
  if (isfield (m, "tgt_pos"))
    pos = m.tgt_pos(t+1:t+n,:);
  endif
  pool = model_family (m).pool;
  if (isempty (pool))
    X = embed_forward (m.tgt_embed, pos, ids, m.config);
  else
    [X, tr] = pooled_input (m, ids, t, tr, pool, pos);
  endif
  if (m.config.embed_norm)
    [X, tr.tgt_embed_norm] = layer_norm (X, m.tgt_embed_norm, m.config);
  endif
endfunction

## the rows of a pooled model: its family's rule
function [X, tr] = pooled_input (m, ids, t, tr, pool, pos)
  n = rows (ids);
  tr.target_tokens = embed_forward (m.tgt_embed, zeros (n, m.config.d), ids, m.config);
  switch (pool)
    case "add"                              # e_t + u + p_t
      tr.u = attn_rows (tr.c, m.W_u);
      X = tr.target_tokens + tr.u + pos;
    case "concat"                           # [e_t, c]*W_F + p_t
      tr.concat = [tr.target_tokens, repmat(tr.c, n, 1)];
      tr.fused = attn_rows (tr.concat, m.W_F);
      X = tr.fused + pos;
    case "prefix"                           # c*W_P at position 1
      if (t == 0)
        tr.prefix = attn_rows (tr.c, m.W_P);
        X = [tr.prefix; tr.target_tokens] + m.tgt_pos(1:n+1,:);
      else
        X = tr.target_tokens + pos;
      endif
  endswitch
endfunction

%!test
%! ## each family's rule against its formula, at t = 0 and after t rows
%! c = struct ("d", 4, "heads", 2, "max_len", 6, "seed", 2, "src_vocab", {{"a b"}},
%!             "tgt_vocab", {{"x y"}});
%! ids = [4 5; 5 6];
%! for f = {"encoder-decoder", "pooled-add", "pooled-concat", "pooled-prefix"}
%!   if (strcmp (f{1}, "encoder-decoder"))
%!     m = attn_model (c);
%!   else
%!     m = attn_family (setfield (c, "family", f{1}));
%!   endif
%!   tr.c = randn (1, 4, 2);
%!   for t = [0 2]
%!     X = decoder_input (m, ids, t, tr);
%!     for b = 1:2
%!       e = m.tgt_embed(ids(:,b),:);
%!       p = m.tgt_pos(t+1:t+2,:);
%!       switch (f{1})
%!         case "encoder-decoder"
%!           want = e + p;
%!         case "pooled-add"
%!           want = e + tr.c(:,:,b) * m.W_u + p;
%!         case "pooled-concat"
%!           want = [e, repmat(tr.c(:,:,b), 2, 1)] * m.W_F + p;
%!         otherwise
%!           want = e + p;
%!           if (t == 0)
%!             want = [tr.c(:,:,b) * m.W_P; e] + m.tgt_pos(1:3,:);
%!           endif
%!       endswitch
%!       assert (X(:,:,b), want, 1e-14);
%!     endfor
%!   endfor
%! endfor
