## need = family_fields (m): the fields a model of m.config.family
## (attn_family) must have.
function need = family_fields (m)
  switch (family_kind (m))
    case "decoder-only"
      need = {"config", "tgt_vocab", "tgt_embed", "tgt_pos", "decoder", "W_vocab", "b_vocab"};
    case "encoder"
      need = {"config", "src_vocab", "tgt_vocab", "src_embed", "src_pos", "encoder", ...
              "W_class", "b_class"};
    otherwise
      need = {"config", "src_vocab", "tgt_vocab", "src_embed", "src_pos", "tgt_embed", ...
              "tgt_pos", "encoder", "decoder", "W_vocab", "b_vocab"};
      fused = {"W_u", "W_F", "W_P"};
      need(end+1) = fused(strcmp (m.config.family, {"pooled-add", "pooled-concat", "pooled-prefix"}));
  endswitch
endfunction
