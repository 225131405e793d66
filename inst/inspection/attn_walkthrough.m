## -*- texinfo -*-
## @deftypefn  {} {} attn_walkthrough (@var{m}, @var{source}, @var{prefix})
## @deftypefnx {} {} attn_walkthrough (@dots{}, @var{name}, @var{value})
## @deftypefnx {} {[@var{token}, @var{tr}] =} attn_walkthrough (@dots{})
## Print one attention translation step, stage by stage.
##
## For model @var{m}, the sentence @var{source} and the target prefix
## @var{prefix} (strings, cells of words or ids, as for
## @code{attn_forward}), print in the order the model computes them:
##
## @enumerate
## @item the source rows (token embedding + position, e^src);
## @item for each encoder layer: the self-attention @code{Q}, @code{K},
## @code{V}, @code{scores}, weights @code{A}, @code{message}, update
## @code{delta} and the rows after it (then the FFN update and the layer's
## output when the model has them);
## @item the encoded source, which every cross-attention reads;
## @item the target rows of the prefix (e^tgt);
## @item for each decoder layer: the masked self-attention,
## @item then the cross-attention (query from the decoder, keys and values
## from the encoded source), with the same matrices;
## @item the logits of the vocabulary head, the probabilities, and the token
## greedy decoding chooses.
## @end enumerate
##
## Options (name, value): @code{"last"} (default true): decoder matrices
## that have one row per target position show only the last row, the one
## that predicts the next token (keys and values show every row);
## @code{"top"} (default 5): the logits and probabilities show each row's
## this many largest values with their words, not the whole vocabulary;
## @code{"columns"} (default 8): a wider matrix shows its first 8 columns
## and says how many more there are (@code{attn_show (tr, path)} prints a
## matrix whole); @code{"decimals"} (default 3); @code{"width"} (default
## 80).  A model of two encoder and two decoder layers, 4 heads, d = 32
## and 215 target words prints about 480 lines.
##
## @var{token} is the chosen next word; @var{tr} the trace of
## @code{attn_forward}.
##
## @example
## @group
## m = attn_toy ("blackcat");
## tok = attn_walkthrough (m, "the black cat", "<bos> le");
## @print{} ...
## tok
## @result{} tok = chat
## @end group
## @end example
##
## @seealso{attn_forward, attn_show, attn_demo_river_bank, attn_demo_black_cat}
## @end deftypefn

function [token, tr] = attn_walkthrough (m, source, prefix, varargin)
  if (nargin < 3)
    print_usage ();
  endif
  opts = parse_options ("attn_walkthrough",
                        {"last", true, "flag"; "decimals", 3, "integer [0, 16]";
                         "width", 80, "integer [1, Inf)"; "top", 5, "integer [1, Inf)";
                         "columns", 8, "integer [1, Inf]"}, varargin);
  tr = attn_forward (m, source, prefix);
  if (! all (isfield (tr, {"source_labels", "target_labels"})))
    error ("attention:model", "attn_walkthrough: M must be an encoder-decoder model (attn_model, attn_toy), got the %s family",
           m.config.family);
  endif
  fmt = {"decimals", opts.decimals, "width", opts.width, "columns", opts.columns};
  show = @(path, last, varargin) printf ("%s\n", attn_show (tr, path, fmt{:}, "last", last && opts.last,
                                                             varargin{:}));
  printf ("Source: %s\nTarget prefix: %s\nWhich token comes after \"%s\"?\n",
          strjoin (tr.source_labels(:)', " "), strjoin (tr.target_labels(:)', " "),
          tr.target_labels{end});

  heading ("1. Source rows: token embedding + position (e^src)");
  show ("source_rows", false);
  for l = 1:numel (tr.encoder)
    name = sprintf ("encoder(%d)", l);
    heading (sprintf ("2. Encoder layer %d: self-attention, every source row reads every source row", l));
    block (show, name, "self", false);
    layer_rest (show, tr.encoder(l), name, false);
  endfor
  heading ("3. The encoded source: keys and values of every cross-attention");
  show ("encoded", false);

  heading ("4. Target rows: token embedding + position (e^tgt)");
  show ("target_rows", false);
  for l = 1:numel (tr.decoder)
    name = sprintf ("decoder(%d)", l);
    heading (sprintf ("5. Decoder layer %d: masked self-attention, row i reads rows j <= i", l));
    block (show, name, "self", true);
    heading (sprintf ("6. Decoder layer %d: cross-attention, the query from the decoder, keys and values from the encoded source", l));
    block (show, name, "cross", true);
    layer_rest (show, tr.decoder(l), name, true);
  endfor

  heading ("7. Vocabulary head: logits = rows*W_vocab + b_vocab, then softmax");
  show ("logits", true, "top", opts.top);
  show ("probs", true, "top", opts.top);
  [p, best] = max (tr.probs(end,:,1));
  token = tr.vocab_labels{best};
  printf ("Greedy choice after \"%s\": %s (probability %.*f)\n", tr.target_labels{end},
          token, opts.decimals, p);
endfunction

function heading (s)
  printf ("== %s\n", s);
endfunction

## The matrices of one attention block, in the order it computes them, and
## the rows after its update; keys and values always show every row.
function block (show, layer, kind, last)
  base = [layer, ".", kind, "."];
  show ([base, "Q"], last);
  show ([base, "K"], false);
  show ([base, "V"], false);
  show ([base, "scores"], last);
  show ([base, "A"], last);
  show ([base, "message"], last);
  show ([base, "delta"], last);
  show ([layer, ".after_", kind], last);
endfunction

## FFN update and layer output, when the model has an FFN or LayerNorm.
function layer_rest (show, L, name, last)
  ffn = ! isempty (field_or_empty (L, "ffn"));
  if (ffn)
    show ([name, ".ffn.delta"], last);
  endif
  if (ffn || any (strncmp (fieldnames (L), "norm_", 5)))
    show ([name, ".out"], last);
  endif
endfunction

%!shared m, out, tok, tr, ref
%! c.src_vocab = attn_vocab ({"the river bank", "the financial bank"});
%! c.tgt_vocab = attn_vocab ({"la rive", "la banque"});
%! c.d = 4;  c.heads = 2;  c.d_ff = 0;  c.norm = "none";
%! c.encoder_layers = 1;  c.decoder_layers = 1;  c.seed = 7;
%! m = attn_model (c);
%! [out, tok, tr] = evalc ("attn_walkthrough (m, \"the river bank\", \"<bos> la\")");
%! ## the same step in plain Octave, from the weights (tests/reference)
%! src = attn_encode (m.src_vocab, {"the", "river", "bank", "<eos>"});
%! tgt = attn_encode (m.tgt_vocab, {"<bos>", "la"});
%! ref.source_rows = m.src_embed(src,:) + m.src_pos(1:4,:);
%! [ref.encoded, ref.enc] = attn_ref_block ("self", ref.source_rows, [], m.encoder(1).self);
%! ref.target_rows = m.tgt_embed(tgt,:) + m.tgt_pos(1:2,:);
%! [ref.after_self, ref.self] = attn_ref_block ("masked", ref.target_rows, [], m.decoder(1).self);
%! [ref.after_cross, ref.cross] = attn_ref_block ("cross", ref.after_self, ref.encoded, m.decoder(1).cross);
%! ref.logits = ref.after_cross * m.W_vocab + m.b_vocab;
%! ref.probs = exp (ref.logits - max (ref.logits, [], 2));
%! ref.probs ./= sum (ref.probs, 2);

%!test
%! ## every stage is printed, in the model's order
%! stages = {"source_rows", "encoder(1).self.Q", "encoder(1).self.scores", ...
%!           "encoder(1).self.A", "encoder(1).after_self", "encoded", "target_rows", ...
%!           "decoder(1).self.A", "decoder(1).after_self", "decoder(1).cross.Q", ...
%!           "decoder(1).cross.K", "decoder(1).cross.V", "decoder(1).cross.scores", ...
%!           "decoder(1).cross.A", "decoder(1).cross.message", "decoder(1).cross.delta", ...
%!           "decoder(1).after_cross", "logits", "probs"};
%! at = cellfun (@(s) min ([strfind(out, ["\n", s, "  ("]), Inf]), stages);
%! assert (all (isfinite (at)));
%! assert (issorted (at));

%!test
%! ## printed numbers against the plain-Octave step; a decoder row is
%! ## named by the word it writes (the last row: the greedy choice tok)
%! r3 = @(x) round (1000 * x) / 1000;
%! assert (shown_row (out, "source_rows", "bank"), r3 (ref.source_rows(3,:)));
%! assert (shown_row (out, "encoder(1).self.A", "river"), r3 (ref.enc.A(2,:,1)));
%! assert (shown_row (out, "encoded", "<eos>"), r3 (ref.encoded(4,:)));
%! assert (shown_row (out, "decoder(1).self.A", tok), r3 (ref.self.A(2,1:2,1)));
%! assert (shown_row (out, "decoder(1).cross.K", "river"), r3 (ref.cross.K(2,:)));
%! assert (shown_row (out, "decoder(1).cross.scores", tok), r3 (ref.cross.scores(2,:,1)));
%! assert (shown_row (out, "decoder(1).cross.A", tok), r3 (ref.cross.A(2,:,1)));
%! assert (shown_row (out, "decoder(1).after_cross", tok), r3 (ref.after_cross(2,:)));
%! ## the five most probable words, largest first
%! [p, at] = sort (ref.probs(2,:), "descend");
%! k = strfind (out, "\nprobs  (");
%! top = regexp (out(k:end), [regexptranslate("escape", tok), ' +(.*?)\n'], "tokens", "once"){1};
%! want = strjoin (strcat (m.tgt_vocab.words(at(1:5)), {" "}, arrayfun (@(x) sprintf ("%.3f", x), p(1:5),
%!                                                                   "UniformOutput", false)), " ");
%! assert (regexprep (top, ' +', ' '), want);
%! ## the second head's cross weights follow the first
%! k = strfind (out, "decoder(1).cross.A  (row 2 of 2×4: word written × source)  head 2");
%! assert (numel (k), 1);
%! assert (shown_row (out(k:end), "decoder(1).cross.A", tok), r3 (ref.cross.A(2,:,2)));

%!test
%! [p, best] = max (ref.probs(2,:));
%! assert (tok, m.tgt_vocab.words{best});
%! assert (! isempty (strfind (out, sprintf ("Greedy choice after \"la\": %s (probability %.3f)", tok, p))));
%! assert (tr.probs, ref.probs, 1e-12);

%!test
%! ## "last", false prints every decoder row
%! o = evalc ("attn_walkthrough (m, \"the river bank\", \"<bos> la\", \"last\", false)");
%! assert (shown_row (o, "decoder(1).cross.A", "la"), round (1000 * ref.cross.A(1,:,1)) / 1000);

%!test
%! ## two layers with FFN and pre-norm LayerNorm: every layer is printed
%! c2.src_vocab = attn_vocab ("the river bank");
%! c2.tgt_vocab = attn_vocab ("la rive");
%! c2.d = 4;  c2.heads = 2;  c2.d_ff = 6;  c2.norm = "pre";
%! c2.encoder_layers = 2;  c2.decoder_layers = 2;
%! m2 = attn_model (c2);
%! [o, tok2, t2] = evalc ("attn_walkthrough (m2, \"the river bank\", \"<bos> la\")");
%! for name = {"encoder(1).ffn.delta", "encoder(2).out", "decoder(1).cross.A", ...
%!             "decoder(2).self.A", "decoder(2).cross.A", "decoder(2).ffn.delta", "decoder(2).out"}
%!   assert (! isempty (strfind (o, ["\n", name{1}, "  ("])), "missing %s", name{1});
%! endfor
%! assert (shown_row (o, "decoder(2).cross.A", tok2),
%!         round (1000 * t2.decoder(2).cross.A(2,:,1)) / 1000);

%!test
%! ## a 2+2-layer model, d = 32, 4 heads, 215 target words: a bounded
%! ## amount (1,300 lines before), no table wider than 8 columns, the five
%! ## most probable words instead of 215-word rows
%! c3.src_vocab = attn_vocab ("the river bank");
%! c3.tgt_vocab = attn_vocab (sprintf ("w%d ", 1:211));
%! c3.d = 32;  c3.heads = 4;  c3.d_ff = 64;  c3.encoder_layers = 2;  c3.decoder_layers = 2;
%! m3 = attn_model (c3);
%! [o, tok3, t3] = evalc ("attn_walkthrough (m3, \"the river bank\", \"<bos> w1\")");
%! lines = strsplit (o, "\n");
%! assert (numel (lines) < 600);
%! assert (isempty (regexp (o, 'columns 9 to')));
%! assert (numel (strfind (o, "... 24 more columns")) > 10);
%! k = strfind (o, "probs  (row 2 of 2×215: word written × vocabulary)  the 5 largest of 215 in each row");
%! assert (numel (k), 1);
%! [p, at] = sort (t3.probs(2,:), "descend");
%! shown = regexp (o(k:end), '(w\d+|<\w+>) (0\.\d{3})', "tokens");
%! assert (cellfun (@(t) t{1}, shown(1:5), "UniformOutput", false), m3.tgt_vocab.words(at(1:5)));
%! assert (str2double (cellfun (@(t) t{2}, shown(1:5), "UniformOutput", false)), round (1000 * p(1:5)) / 1000);

%!test
%! ## the sections are numbered 1, 2, ... in order, each number once per layer
%! nums = cellfun (@(t) str2double (t{1}), regexp (out, '(?:^|\n)== (\d+)\.', "tokens"));
%! assert (nums, 1:7);

%!error id=attention:option attn_walkthrough (m, "the bank", "<bos>", "lst", true)
%!error id=attention:option attn_walkthrough (m, "the bank", "<bos>", "decimals", 1.5)
