## -*- texinfo -*-
## @deftypefn {} {@var{mats} =} explore_matrices (@var{tr})
## Every named matrix of the forward trace @var{tr} (one sentence), in the
## trace's order, as a struct array with fields
## @table @code
## @item name
## the dotted path (@qcode{"encoder.1.self.A"}, @qcode{"probs"})
## @item note
## its notation (@qcode{"A = softmax(scores) by row: the weights α"})
## @item rows, cols
## row and column labels (tokens where the rows or columns are tokens)
## @item groups
## the number of heads whose columns stand side by side (1 otherwise)
## @item values
## n×w×p: one page per head for @code{scores} and @code{A}
## @item mask
## logical like @var{values}, true where a score is not allowed
## (@code{-Inf}) and its weight therefore 0; empty elsewhere
## @end table
## @end deftypefn

function mats = explore_matrices (tr)
  labels.src = cellstr_or_empty (tr, "source_labels");
  labels.tgt = cellstr_or_empty (tr, "target_labels");
  labels.vocab = cellstr_or_empty (tr, "vocab_labels");
  labels.has_tgt = isfield (tr, "target_rows");
  mats = struct ("name", {}, "note", {}, "rows", {}, "cols", {},
                 "groups", {}, "values", {}, "mask", {});
  mats = walk (mats, tr, "", "top", "", labels);
endfunction

function c = cellstr_or_empty (tr, f)
  c = {};
  if (isfield (tr, f))
    c = cellstr (tr.(f)(:)');
  endif
endfunction

## STACK is "top", "encoder" or "decoder"; BLOCK the sublayer struct the
## fields belong to ("", "self", "cross", "ffn", "norm_self", ...).
function mats = walk (mats, s, path, stack, block, labels)
  for f = fieldnames (s)'
    name = f{1};
    v = s.(name);
    here = join_path (path, name);
    if (isstruct (v))
      if (any (strcmp (name, {"encoder", "decoder"})))
        for l = 1:numel (v)
          mats = walk (mats, v(l), sprintf ("%s.%d", here, l), name, "", labels);
        endfor
      else
        mats = walk (mats, v, here, stack, name, labels);
      endif
    elseif ((isnumeric (v) || islogical (v)) && ! isempty (v)
            && ! strcmp (name, "heads"))
      mats(end+1) = entry (s, name, here, stack, block, labels);
    endif
  endfor
endfunction

function p = join_path (path, name)
  if (isempty (path))
    p = name;
  else
    p = [path "." name];
  endif
endfunction

function e = entry (s, name, path, stack, block, labels)
  v = double (s.(name));
  if (ndims (v) > 3 || (ndims (v) == 3 && ! any (strcmp (name, {"scores", "A"}))))
    error ("attention:size",
           "attn_explore: the trace must hold one sentence; %s is %s",
           path, mat2str (size (v)));
  endif
  e.name = path;
  e.note = notation (name, stack, block, labels);
  kernel = any (strcmp (block, {"self", "cross"}));
  if (strcmp (stack, "top") && any (strcmp (name, {"c", "u", "prefix", "readout", "hidden_pre", "hidden"})))
    e.rows = {name};                  # one vector per sentence
  elseif (strcmp (stack, "top") && ! labels.has_tgt && rows (v) == 1
          && any (strcmp (name, {"logits", "probs"})))
    e.rows = {"sentence"};
  else
    e.rows = row_labels (rows (v), row_side (name, stack, block, labels), name, labels);
  endif
  e.groups = 1;
  if (any (strcmp (name, {"scores", "A"})))
    e.cols = row_labels (columns (v), key_side (stack, block), "", labels);
  elseif (any (strcmp (name, {"logits", "probs"})) && numel (labels.vocab) == columns (v))
    e.cols = labels.vocab;
  elseif (strcmp (name, "key_allow"))
    e.cols = {"allowed"};
  else
    e.cols = numbers (columns (v));
    if (kernel && any (strcmp (name, {"Q", "K", "V", "message"})))
      e.groups = s.heads;
    endif
  endif
  e.values = v;
  e.mask = [];
  if (kernel && any (strcmp (name, {"scores", "A"})))
    e.mask = isinf (s.scores);
  endif
endfunction

## Which token sequence the rows of a field are.
function side = row_side (name, stack, block, labels)
  if (strcmp (block, "cross") && any (strcmp (name, {"K", "V", "E", "key_allow"})))
    side = "src";
  elseif (strcmp (block, "self") && strcmp (name, "key_allow"))
    side = key_side (stack, block);
  elseif (strcmp (stack, "encoder"))
    side = "src";
  elseif (strcmp (stack, "decoder"))
    side = "tgt";
  elseif (any (strcmp (name, {"source_ids", "src_allow", "source_rows", ...
                              "encoded", "pool_weights"})))
    side = "src";
  elseif (labels.has_tgt || any (strcmp (name, {"target_ids", "tgt_allow"})))
    side = "tgt";
  else
    side = "src";
  endif
endfunction

function side = key_side (stack, block)
  if (strcmp (stack, "decoder") && strcmp (block, "self"))
    side = "tgt";
  else
    side = "src";
  endif
endfunction

## Token labels when the count fits, with the pooled prefix row "[c]" in
## front when there is one row more; otherwise the field's name for a
## single row, or row numbers.
function c = row_labels (n, side, name, labels)
  c = labels.(side);
  if (numel (c) == n)
    return;
  elseif (numel (c) + 1 == n)
    c = [{"[c]"}, c];
  elseif (n == 1 && ! isempty (name))
    c = {name};
  else
    c = numbers (n);
  endif
endfunction

function c = numbers (n)
  c = strsplit (sprintf ("%d ", 1:n)(1:end-1), " ");
endfunction

## The seeds' notation for a field of the trace.
function txt = notation (name, stack, block, labels)
  if (any (strcmp (block, {"self", "cross"})))
    if (strcmp (block, "cross"))
      q = "D";  kv = "E";
    else
      q = "X";  kv = "X";
    endif
    switch (name)
      case "X"
        txt = "X: the block's input rows (queries, keys and values)";
      case "D"
        txt = "D: the decoder rows (queries)";
      case "E"
        txt = "E: the encoded source rows (keys and values)";
      case "key_allow"
        txt = "key mask: 1 = may be read";
      case "Q"
        txt = sprintf ("Q = %s W_Q (heads side by side)", q);
      case "K"
        txt = sprintf ("K = %s W_K (heads side by side)", kv);
      case "V"
        txt = sprintf ("V = %s W_V (heads side by side)", kv);
      case "scores"
        txt = "scores = Q_j K_j' / sqrt(dk), -Inf where not allowed";
      case "A"
        txt = "A = softmax (scores) by row: the weights alpha";
      case "message"
        txt = "message = A_j V_j, heads side by side: m_i";
      case "delta"
        txt = "delta = message W_O: the update Delta e_i";
      case "out"
        txt = sprintf ("out = %s + delta", q);
      otherwise
        txt = "";
    endswitch
    return;
  elseif (strcmp (block, "ffn"))
    notes = {"X", "the FFN's input rows"; "pre", "X W_1 + b_1";
             "hidden", "relu (X W_1 + b_1)"; "delta", "hidden W_2 + b_2"};
  elseif (strncmp (block, "norm", 4))
    notes = {"X", "LayerNorm input rows"; "mu", "row means mu";
             "sigma", "row standard deviations sigma";
             "xhat", "xhat = (X - mu) / sigma"; "out", "gain .* xhat + bias"};
  elseif (! strcmp (stack, "top"))
    notes = {"input", "the layer's input rows";
             "after_self", "e^self: the rows after the self-attention sublayer";
             "after_cross", "e^cross: the rows after the cross-attention sublayer";
             "after_ffn", "the rows after the FFN sublayer";
             "out", "the layer's output rows"};
  else
    if (labels.has_tgt)
      head = "logits = rows W_vocab + b_vocab";
    else
      head = "logits = rows W_class + b_class";
    endif
    notes = {"source_ids", "source token ids"; "src_allow", "source mask: 1 = real token";
             "target_ids", "decoder input ids (<bos> y1 ...)";
             "tgt_allow", "target mask: 1 = real token";
             "source_rows", "e^src = src_embed (ids) + src_pos";
             "target_rows", "e^tgt: the decoder's input rows";
             "encoded", "the encoder's final rows";
             "c", "c = mean of the encoded rows: the pooled vector";
             "pool_weights", "the weight of each source row in c";
             "target_tokens", "tgt_embed (ids): target token rows";
             "u", "u = c W_u, added to every target row";
             "concat", "[e_t, c]: each target row beside c";
             "fused", "[e_t, c] W_F";
             "prefix", "c W_P: the continuous prefix row";
             "readout", "the sentence's readout row";
             "hidden_pre", "readout W_hidden + b_hidden";
             "hidden", "relu (readout W_hidden + b_hidden)";
             "decoder_out", "the rows the vocabulary head reads";
             "logits", head; "probs", "softmax (logits) by row"};
  endif
  k = find (strcmp (name, notes(:, 1)), 1);
  txt = "";
  if (! isempty (k))
    txt = notes{k, 2};
  endif
endfunction

%!test
%! ## the river toy: every kernel field of the three blocks, labelled by token
%! m = attn_toy ("river");
%! tr = attn_forward (m, "the river bank", "<bos> la");
%! mats = explore_matrices (tr);
%! names = {mats.name};
%! for b = {"encoder.1.self", "decoder.1.self", "decoder.1.cross"}
%!   for f = {"Q", "K", "V", "scores", "A", "message", "delta", "out"}
%!     assert (any (strcmp ([b{1} "." f{1}], names)), [b{1} "." f{1}]);
%!   endfor
%! endfor
%! A = mats(strcmp (names, "decoder.1.cross.A"));
%! assert (A.values, tr.decoder.cross.A);
%! assert (A.rows, {"<bos>", "la"});
%! assert (A.cols, {"the", "river", "bank", "<eos>"});
%! assert (A.note, "A = softmax (scores) by row: the weights alpha");
%! ## the causal mask marks the future keys of the decoder's self-attention
%! S = mats(strcmp (names, "decoder.1.self.scores"));
%! assert (S.mask, logical ([0 1; 0 0]));
%! assert (! any (A.mask(:)));
%! K = mats(strcmp (names, "decoder.1.cross.K"));
%! assert (K.rows, A.cols);
%! P = mats(strcmp (names, "probs"));
%! assert (P.cols, m.tgt_vocab.words);

%!test
%! ## heads side by side, one page per head
%! c = struct ("src_vocab", {{"a b c"}}, "tgt_vocab", {{"x y"}}, "d", 4, "heads", 2);
%! tr = attn_forward (attn_model (c), "a b c", "x");
%! mats = explore_matrices (tr);
%! Q = mats(strcmp ({mats.name}, "encoder.1.self.Q"));
%! assert (Q.groups, 2);
%! A = mats(strcmp ({mats.name}, "encoder.1.self.A"));
%! assert (size (A.values), [4 4 2]);

%!test
%! ## the pooled prefix row gets its own label; a single readout row its name
%! c = struct ("family", "pooled-prefix", "d", 4, "heads", 1, "layers", 1,
%!             "src_vocab", {{"the river bank"}}, "tgt_vocab", {{"la rive"}});
%! mats = explore_matrices (attn_forward (attn_family (c), "the river bank", "la"));
%! out = mats(strcmp ({mats.name}, "decoder.1.out"));
%! assert (out.rows, {"[c]", "<bos>", "la"});
%! pooled = mats(strcmp ({mats.name}, "c"));
%! assert (pooled.rows, {"c"});
%! c = struct ("family", "encoder-sentence", "vocab", "a b", "classes", {{"X", "Y"}},
%!             "d", 4, "heads", 1, "layers", 1);
%! mats = explore_matrices (attn_forward (attn_family (c), "a"));
%! assert (mats(strcmp ({mats.name}, "probs")).rows, {"sentence"});
%! assert (mats(strcmp ({mats.name}, "readout")).rows, {"readout"});

%!error <one sentence> explore_matrices (attn_forward (attn_toy ("river"), attn_batch (attn_toy ("river"), {"the river bank", "the financial bank"}, {"la rive", "la banque"})))
