## [x, L] = layer_stack (x, P, allow, causal, c, E, src_allow, mode): the
## one stack of layers.  Every layer p of P (1×nl struct array) runs its
## self-attention (attn_masked when causal, attn_self otherwise, keys
## allowed by allow: n×Bt or []), its cross-attention to E (m×d×Bt, keys
## src_allow) when p has a cross block, and its FFN when p has one, each
## a residual sublayer with the LayerNorm placed by c.norm (sublayer); c
## is the model's config, the architecture's options.
## x n×d×Bt.  L(l): input, self, norm_self, after_self, cross, norm_cross,
## after_cross, ffn, norm_ffn, after_ffn, out (only the sublayers p has;
## norm fields unless norm is "none").  mode "lean" (default "full", the
## kernels' trace modes): L(l) holds only what layer_stack_backward reads
## (the sublayers' lean traces and the LayerNorm traces); "step" (a
## decoding pass): the blocks' step traces (K, V: the next step's cache)
## and no LayerNorm traces.
## cache (default []: none), the K/V cache of a decoding step: a struct
## array of the layers with fields self and cross, each a struct with K and
## V (the lean or step L of the step before will do): the keys and values
## of the rows before x's (self-attention) and of the source already read
## (cross-attention; E then holds the source rows not read yet, usually
## none).  L(l).self.K, .V, L(l).cross.K, .V are then the cache with x's
## rows added, for the next step.
## patch (default []: none), an intervention (attn_patch): a struct with
## layer, block ("self" or "cross"), cols (message columns: heads), rows
## and message (the values those entries take); that block's update is
## then made from the patched message, delta = message*W_O (+ b_O).
function [x, L] = layer_stack (x, P, allow, causal, c, E = [], src_allow = [], mode = "full",
                               cache = [], patch = [])
  kind = "self";
  if (causal)
    kind = "masked";
  endif
  full = strcmp (mode, "full");
  L = struct ([]);
  for l = 1:numel (P)
    p = P(l);
    S = struct ();
    if (full)
      S.input = x;
    endif
    C = struct ("self", [], "cross", []);
    if (! isempty (cache))
      C = cache(l);
    endif
    [x, S] = sublayer (x, S, p, "self", c,
                       @(z) attention (kind, z, [], p.self, allow, mode, C.self,
                                       patch_of (patch, l, "self")), mode);
    if (isfield (p, "cross"))
      [x, S] = sublayer (x, S, p, "cross", c,
                         @(z) attention ("cross", z, E, p.cross, src_allow, mode, C.cross,
                                         patch_of (patch, l, "cross")),
                         mode);
    endif
    if (isfield (p, "ffn"))
      [x, S] = sublayer (x, S, p, "ffn", c, @(z) ffn_forward (z, p.ffn, c, mode), mode);
    endif
    if (full)
      S.out = x;
    endif
    L = [L, S];
  endfor
endfunction

## [y, T] = attention (kind, z, E, B, allow, mode, past, patch): the
## attention block of a sublayer (kind "self", "masked" or "cross", keys
## from E, past the K/V cache or []), in the kernels' trace mode; with a
## patch, the message entries it names are replaced and the update remade.
function [y, T] = attention (kind, z, E, B, allow, mode, past, patch)
  switch (kind)
    case "self"
      [y, T] = attn_self (z, B, allow, mode, past);
    case "masked"
      [y, T] = attn_masked (z, B, allow, mode, past);
    otherwise
      [y, T] = attn_cross (z, E, B, allow, mode, past);
  endswitch
  if (! isempty (patch))
    T.message(patch.rows, patch.cols, :) = patch.message(patch.rows, patch.cols, :);
    if (isfield (B, "b_O"))
      T.delta = attn_rows (T.message, B.W_O, B.b_O);
    else
      T.delta = attn_rows (T.message, B.W_O);
    endif
    y = z + T.delta;
    if (isfield (T, "out"))
      T.out = y;
    endif
  endif
endfunction

## the patch of block `block` of layer l, or [] when it has none
function q = patch_of (patch, l, block)
  q = [];
  if (! isempty (patch) && patch.layer == l && strcmp (patch.block, block))
    q = patch;
  endif
endfunction
