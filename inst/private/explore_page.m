## -*- texinfo -*-
## @deftypefn {} {@var{html} =} explore_page (@var{tr}, @var{dec}, @var{title}, @var{digits})
## The explorer's self-contained HTML page of the forward trace @var{tr} (one
## sentence): every named matrix of it and the decoding steps @var{dec} (a
## struct, or empty for none) as a JavaScript literal printed here, every
## number with @var{digits} significant digits and every string escaped
## (no word can end a string or the script); then the style and script of this folder
## (@file{explore_page.css}, @file{explore_page.js}) inline.  A content
## security policy forbids the page any request.
## @end deftypefn

function html = explore_page (tr, dec, title, digits)
  mats = trace_matrices (tr);
  here = fileparts (mfilename ("fullpath"));
  data = sprintf ("const DATA = {\ntitle: %s,\nmatrices: [\n%s],\ndecoding: %s\n};\n",
                  js_string (title), matrices_literal (mats, digits),
                  decoding_literal (dec, digits));
  tabs = ["<button id=\"tab-heads\">Heads</button> <button id=\"tab-model\">Model</button> ", ...
          "<button id=\"tab-matrices\">Matrices</button>"];
  decoding = "";
  if (! isempty (dec))
    tabs = [tabs " <button id=\"tab-decoding\">Decoding</button>"];
    decoding = ["<section id=\"decoding\" hidden>\n<p id=\"dec-summary\"></p>\n", ...
                "<p id=\"dec-about\"></p>\n<div class=\"legend\"></div>\n", ...
                "<p><label><span id=\"dec-kind\"></span> of <select id=\"sel-dec-layer\"></select>", ...
                "</label></p>\n<div id=\"dec-steps\"></div>\n</section>\n"];
  endif
  if (isfield (tr, "target_rows"))
    output = "The model's output (the vocabulary head after the last layer): the three most probable words of each row";
  else
    output = "The model's output (the classifier after the last layer): the three most probable classes of each row";
  endif
  html = ["<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n", ...
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; ", ...
          "script-src 'unsafe-inline'; style-src 'unsafe-inline'\">\n", ...
          "<meta name=\"viewport\" content=\"width=device-width\">\n", ...
          "<title>" html_text(title) "</title>\n<style>\n", ...
          fileread(fullfile (here, "explore_page.css")), "</style>\n</head>\n<body>\n", ...
          "<header>\n<h1>" html_text(title) "</h1>\n<nav>" tabs "</nav>\n", ...
          "<ul id=\"inventory\"></ul>\n</header>\n", ...
          "<section id=\"heads\">\n<p class=\"controls\">", ...
          "<label>block <select id=\"sel-block\"></select></label>", ...
          "<label>layer <select id=\"sel-layer\"></select></label>", ...
          "<label>head <select id=\"sel-head\"></select></label></p>\n", ...
          "<div class=\"scroll\"><svg id=\"svg-heads\" width=\"660\" height=\"100\"></svg></div>\n", ...
          "<p id=\"head-key\"></p>\n<div id=\"reads\"></div>\n", ...
          "<h2>" output "</h2>\n", ...
          "<div class=\"scroll\"><table id=\"output\" class=\"mat\"></table></div>\n", ...
          "<div id=\"pooled\"></div>\n</section>\n", ...
          "<section id=\"model\" hidden>\n<p>Every head of every layer at once: ", ...
          "each small square is a head's weights A (a row per query, a column ", ...
          "per key). Click one to open it in Heads.</p>\n<div class=\"legend\"></div>\n", ...
          "<div id=\"model-grid\"></div>\n</section>\n", ...
          "<section id=\"matrices\" hidden>\n<p>Every named matrix of the forward trace, ", ...
          "in the trace's order: open one to see its table (rows &times; columns, ", ...
          "a table per head for scores and A; hatched cells are masked).</p>\n", ...
          "<div class=\"legend\"></div>\n", ...
          "<div id=\"readout\">Point at a value.</div>\n<div id=\"mat-list\"></div>\n</section>\n", ...
          decoding, ...
          "<script>\n" data "</script>\n<script>\n", ...
          fileread(fullfile (here, "explore_page.js")), "</script>\n</body>\n</html>\n"];
endfunction

function s = html_text (s)
  s = strrep (strrep (strrep (strrep (s, "&", "&amp;"), "<", "&lt;"), ">", "&gt;"),
              "\"", "&quot;");
endfunction

function s = matrices_literal (mats, digits)
  parts = cell (1, numel (mats));
  for k = 1:numel (mats)
    m = mats(k);
    pages = cell (1, size (m.values, 3));
    for p = 1:numel (pages)
      pages{p} = js_numbers (m.values(:, :, p), digits);
    endfor
    mask = "null";
    if (! isempty (m.mask))
      mask = cell (1, size (m.mask, 3));
      for p = 1:numel (mask)
        mask{p} = js_string (cellstr (char ("0" + m.mask(:, :, p))));
      endfor
      mask = ["[" strjoin(mask, ",") "]"];
    endif
    parts{k} = sprintf ("{name: %s, note: %s, rows: %s, cols: %s, groups: %d,\n pages: [%s],\n mask: %s}",
                        js_string (m.name), js_string (m.note),
                        js_string (m.rows), js_string (m.cols),
                        m.groups, strjoin (pages, ",\n"), mask);
  endfor
  s = strjoin (parts, ",\n");
endfunction

## DEC: summary, tokens (1×steps cellstr), top (steps×k cellstr), topp
## (steps×k), kind (the attention shown beside each step: "cross-attention",
## "self-attention", or "" for none), keys (the labels of the tokens it
## reads), rows (1×steps cell: step t's new row in every head and layer,
## h×w×L with w the keys it reads, the first w of keys) and about (what the
## step reads, in words).
function s = decoding_literal (dec, digits)
  if (isempty (dec))
    s = "null";
    return;
  endif
  steps = numel (dec.tokens);
  top = cell (1, steps);
  for t = 1:steps
    top{t} = js_string (dec.top(t, :));
  endfor
  rows = cell (1, numel (dec.rows));
  layers = 0;
  if (! isempty (rows))
    layers = size (dec.rows{1}, 3);
  endif
  for t = 1:numel (rows)
    pages = cell (1, layers);
    for l = 1:layers
      pages{l} = js_numbers (dec.rows{t}(:, :, l), digits);
    endfor
    rows{t} = ["[" strjoin(pages, ",") "]"];
  endfor
  s = sprintf (["{summary: %s, kind: %s, layers: %d, keys: %s, tokens: %s,\n", ...
                " top: [%s],\n topp: %s,\n rows: [%s],\n about: %s}"],
               js_string (dec.summary), js_string (dec.kind), layers,
               js_string (numbered (dec.keys)), js_string (dec.tokens),
               strjoin (top, ","), js_numbers (dec.topp, digits),
               strjoin (rows, ",\n"), js_string (dec.about));
endfunction

## c = numbered (c): the token labels c (a cellstr) with a token that
## occurs more than once followed by its occurrence as subscript digits
## ("the₁ river the₂"), so that each names one position.
function c = numbered (c)
  n = numel (c);
  if (n < 2)
    return;
  endif
  [~, ~, u] = unique (c(:));
  [s, order] = sort (u);
  pos = (1:n)';
  first = pos .* [true; diff(s) != 0];
  occurrence(order) = pos - cummax (first) + 1;
  repeated = accumarray (u, 1)(u) > 1;
  for k = find (repeated)'
    d = sprintf ("%d", occurrence(k)) - "0";
    c{k} = [c{k}, char([repmat([226; 130], 1, numel (d)); 128 + d](:)')];
  endfor
endfunction

## mats = trace_matrices (tr): every named matrix of the forward trace tr
## (one sentence), in the trace's order, as a struct array with fields
## name (the dotted path, "encoder.1.self.A", "probs"), note (its notation),
## rows and cols (labels: tokens where the rows or columns are tokens),
## groups (the number of heads whose columns stand side by side, else 1),
## values (n×w×p: one page per head for scores and A) and mask (logical
## like values, true where a score is not allowed (-Inf) and its weight
## therefore 0; empty elsewhere).
function mats = trace_matrices (tr)
  labels.src = numbered (cellstr_or_empty (tr, "source_labels"));
  labels.tgt = numbered (cellstr_or_empty (tr, "target_labels"));
  ## a decoder row is named by the word it writes, as in attn_heatmap
  labels.written = numbered (cellstr_or_empty (tr, "written_labels"));
  if (isempty (labels.written))
    labels.written = labels.tgt;
  endif
  labels.vocab = cellstr_or_empty (tr, "vocab_labels");
  labels.has_tgt = isfield (tr, "target_rows");
  labels.readout = isfield (tr, "readout");       # a sentence head: one row a sentence
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
  if (strcmp (stack, "top") && (any (strcmp (name, {"c", "u", "prefix", "readout"}))
                                || (labels.readout && any (strcmp (name, {"hidden_pre", "hidden"})))))
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
    [v, e.cols, e.note] = likely_words (v, e.cols, e.note);
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

## [v, cols, note] = likely_words (v, cols, note): of a real vocabulary
## (over 1,000 words) the page keeps the columns of the words among the 10
## most probable of some row: a 50,257-word head would otherwise be most
## of the page and none of what a reader looks at.
function [v, cols, note] = likely_words (v, cols, note)
  top = 10;
  if (columns (v) > 1000)
    [~, order] = sort (v, 2, "descend");
    keep = unique (order(:,1:top));
    note = sprintf ("%s: the %d words among the %d most probable of some row (of %d)",
                    note, numel (keep), top, columns (v));
    v = v(:,keep);
    cols = cols(keep);
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
    side = merge (any (strcmp (name, {"K", "V", "key_allow"})), "tgt", "written");
  elseif (any (strcmp (name, {"decoder_out", "logits", "probs"})) && labels.has_tgt)
    side = "written";
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
  elseif (! isempty (strfind (block, "norm")))    # a sublayer's, a stack's or the head's
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
      head = "logits = rows W_class + b_class (tied: W_class = src_embed')";
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
             "hidden_pre", "rows W_hidden + b_hidden: the head's layer (rows: readout, or every encoded row)";
             "hidden", "act (hidden_pre), the head's activation";
             "decoder_out", "the rows the vocabulary head reads";
             "logits", head; "probs", "softmax (logits) by row"};
  endif
  k = find (strcmp (name, notes(:, 1)), 1);
  txt = "";
  if (! isempty (k))
    txt = notes{k, 2};
  endif
endfunction

## s = js_numbers (X, digits): a JavaScript array literal of the matrix X
## (n×w), one inner array per row (also for one row), every number printed
## with %.DIGITSg; -Inf, Inf and NaN become null (a masked score).
function s = js_numbers (X, digits)
  X = double (X);
  fmt = sprintf ("%%.%dg", digits);
  if (isempty (X))
    s = ["[" repmat("[],", 1, rows (X))(1:end-1) "]"];
  else
    row = ["[" strjoin(repmat ({fmt}, 1, columns (X)), ",") "]"];
    s = ["[" strrep(sprintf (row, X.'), "][", "],[") "]"];
  endif
  s = regexprep (s, '-?Inf|NaN', 'null');
endfunction

## s = js_string (text): a JavaScript string literal of text (a char row,
## or a cellstr for an array literal) that is safe inside an HTML <script>
## element: quotes, backslash, <, >, &, / and control characters are
## written as \uXXXX, so no word (</script>, a quote) can end the string
## or the script.  Bytes of UTF-8 characters pass unchanged.
function s = js_string (text)
  if (iscell (text))
    parts = cellfun (@literal, text, "uniformoutput", false);
    s = ["[" strjoin(parts(:)', ",") "]"];
  else
    s = literal (text);
  endif
endfunction

function s = literal (text)
  persistent unsafe
  if (isempty (unsafe))
    unsafe = false (1, 256);
    unsafe([1:32, 128, double("\"'\\<>&/")+1]) = true;
  endif
  text = char (text(:)');
  bad = unsafe(double (text) + 1);
  if (! any (bad))
    s = ["\"" text "\""];
    return;
  endif
  parts = num2cell (text);
  parts(bad) = strsplit (sprintf ("\\u%04x\n", double (text(bad))), "\n")(1:end-1);
  s = ["\"" parts{:} "\""];
endfunction


## The page's matrices read back from its JavaScript literal (JSON but for
## the keys; numbers by str2double, exactly): name, note, rows, cols,
## groups, values (n×w×pages, masked scores NaN) and mask.
%!function mats = page_matrices (html)
%!  str = '"(?:[^"\\]|\\.)*"';
%!  list = ['\[(?:' str '(?:,' str ')*)?\]'];
%!  t = regexp (html, ['\{name: (' str '), note: (' str '), rows: (' list '), cols: (' list ...
%!                     '), groups: (\d+),\n pages: (\[.*?\]),\n mask: (null|\[' list '(?:,' list ')*\])\}'],
%!              "tokens");
%!  mats = struct ("name", {}, "note", {}, "rows", {}, "cols", {}, "groups", {}, "values", {}, "mask", {});
%!  for k = 1:numel (t)
%!    e = t{k};
%!    rows = cellstr (jsondecode (e{3}))';
%!    cols = cellstr (jsondecode (e{4}))';
%!    v = str2double (regexp (e{6}, 'null|[-+0-9.e]+', "match"));   # by column, row, page
%!    values = permute (reshape (v, numel (cols), numel (rows), []), [2 1 3]);
%!    mask = [];
%!    if (! strcmp (e{7}, "null"))
%!      pages = regexp (e{7}(2:end-1), list, "match");
%!      mask = cat (3, cellfun (@(p) char (jsondecode (p)) == "1", pages, "UniformOutput", false){:});
%!    endif
%!    mats(k) = struct ("name", jsondecode (e{1}), "note", jsondecode (e{2}),
%!                      "rows", {rows}, "cols", {cols},
%!                      "groups", str2double (e{5}), "values", values, "mask", mask);
%!  endfor
%!endfunction

## js_numbers (X, digits) as printed in the page: the top probabilities
## of a decoding of rows (X) steps
%!function s = numbers_of (X, digits)
%!  dec = struct ("summary", "", "tokens", {repmat({"w"}, 1, rows (X))},
%!                "top", {cell(rows (X), 0)}, "topp", X, "kind", "", "keys", {{}},
%!                "rows", {{}}, "about", "");
%!  html = explore_page (struct ("probs", 1), dec, "t", digits);
%!  s = regexp (html, '\n topp: (.*?),\n rows:', "tokens", "once"){1};
%!endfunction

## js_string (text) as printed in the page: a char row as the title, a
## cellstr as the decoded tokens
%!function s = string_of (text)
%!  if (iscell (text))
%!    dec = struct ("summary", "", "tokens", {text},
%!                  "top", {cell(numel (text), 0)}, "topp", zeros (numel (text), 0),
%!                  "kind", "", "keys", {{}}, "rows", {{}}, "about", "");
%!    html = explore_page (struct ("probs", 1), dec, "t", 4);
%!    s = regexp (html, ', tokens: (.*?),\n top:', "tokens", "once"){1};
%!  else
%!    html = explore_page (struct ("probs", 1), [], text, 4);
%!    s = regexp (html, 'const DATA = \{\ntitle: (.*?),\nmatrices: \[', "tokens", "once"){1};
%!  endif
%!endfunction

%!test
%! ## the river toy: every kernel field of the three blocks, labelled by token
%! m = attn_toy ("river");
%! tr = attn_forward (m, "the river bank", "<bos> la");
%! mats = page_matrices (explore_page (tr, [], "t", 17));
%! names = {mats.name};
%! for b = {"encoder.1.self", "decoder.1.self", "decoder.1.cross"}
%!   for f = {"Q", "K", "V", "scores", "A", "message", "delta", "out"}
%!     assert (any (strcmp ([b{1} "." f{1}], names)), [b{1} "." f{1}]);
%!   endfor
%! endfor
%! A = mats(strcmp (names, "decoder.1.cross.A"));
%! assert (A.values, tr.decoder.cross.A);
%! ## decoder rows are named by the word they write (the river toy writes
%! ## rive after la), keys by the tokens read
%! assert (A.rows, {"la", "rive"});
%! assert (A.cols, {"the", "river", "bank", "<eos>"});
%! S = mats(strcmp (names, "decoder.1.self.A"));
%! assert ({S.rows, S.cols}, {{"la", "rive"}, {"<bos>", "la"}});
%! assert (mats(strcmp (names, "decoder.1.self.K")).rows, {"<bos>", "la"});
%! assert (mats(strcmp (names, "target_rows")).rows, {"<bos>", "la"});
%! assert (mats(strcmp (names, "probs")).rows, {"la", "rive"});
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
%! ## a vocabulary of 1,500 words: logits and probs keep the columns of the
%! ## words among the 10 most probable of some row, in vocabulary order
%! words = arrayfun (@(k) sprintf ("w%d", k), 1:1500, "UniformOutput", false);
%! m = attn_family (struct ("family", "decoder-only", "vocab", strjoin (words, " "),
%!                          "d", 8, "heads", 2, "layers", 1));
%! tr = attn_forward (m, "w1 w2 w3");
%! mats = page_matrices (explore_page (tr, [], "t", 17));
%! for name = {"logits", "probs"}
%!   M = mats(strcmp ({mats.name}, name{1}));
%!   full = reshape (tr.(name{1}), [], numel (tr.vocab_labels));
%!   keep = false (1, columns (full));
%!   for r = 1:rows (full)
%!     [~, order] = sort (full(r,:), "descend");
%!     keep(order(1:10)) = true;
%!   endfor
%!   assert (M.cols, tr.vocab_labels(keep));
%!   assert (M.values, full(:,keep));
%!   assert (! isempty (strfind (M.note, sprintf ("the %d words among the 10 most probable of some row (of %d)", nnz (keep), columns (full)))));
%! endfor

%!test
%! ## heads side by side, one page per head
%! c = struct ("src_vocab", {{"a b c"}}, "tgt_vocab", {{"x y"}}, "d", 4, "heads", 2);
%! tr = attn_forward (attn_model (c), "a b c", "x");
%! mats = page_matrices (explore_page (tr, [], "t", 17));
%! Q = mats(strcmp ({mats.name}, "encoder.1.self.Q"));
%! assert (Q.groups, 2);
%! A = mats(strcmp ({mats.name}, "encoder.1.self.A"));
%! assert (size (A.values), [4 4 2]);
%! assert (A.values, tr.encoder(1).self.A);

%!test
%! ## the pooled prefix row gets its own label; a single readout row its name
%! c = struct ("family", "pooled-prefix", "d", 4, "heads", 1, "layers", 1,
%!             "src_vocab", {{"the river bank"}}, "tgt_vocab", {{"la rive"}});
%! pm = attn_family (c);
%! tr = attn_forward (pm, "the river bank", "la");
%! mats = page_matrices (explore_page (tr, [], "t", 4));
%! out = mats(strcmp ({mats.name}, "decoder.1.out"));
%! [~, best] = max (tr.probs(end,:));
%! assert (out.rows, {"[c]", "la", pm.tgt_vocab.words{best}});
%! pooled = mats(strcmp ({mats.name}, "c"));
%! assert (pooled.rows, {"c"});
%! c = struct ("family", "encoder-sentence", "vocab", "a b", "classes", {{"X", "Y"}},
%!             "d", 4, "heads", 1, "layers", 1);
%! mats = page_matrices (explore_page (attn_forward (attn_family (c), "a"), [], "t", 4));
%! assert (mats(strcmp ({mats.name}, "probs")).rows, {"sentence"});
%! assert (mats(strcmp ({mats.name}, "readout")).rows, {"readout"});

%!error <one sentence> explore_page (attn_forward (attn_toy ("river"), attn_batch (attn_toy ("river"), {"the river bank", "the financial bank"}, {"la rive", "la banque"})), [], "t", 4)

%!assert (numbers_of ([1 2.5; -Inf 1e-16], 4), "[[1,2.5],[null,1e-16]]")
%!assert (numbers_of ([0.123456 7], 3), "[[0.123,7]]")
%!assert (numbers_of (zeros (2, 0), 4), "[[],[]]")
%!assert (numbers_of ([], 4), "[]")
%!test
%! ## the printed numbers read back within the printed precision
%! X = randn (5, 7) .* 10 .^ randi ([-20 20], 5, 7);
%! s = numbers_of (X, 6);
%! Y = reshape (str2double (regexp (s, '[-+0-9.e]+', "match")), 7, 5)';
%! assert (Y, X, -5e-6);

%!assert (string_of ("la rive"), "\"la rive\"")
%!assert (string_of ("</script>"), "\"\\u003c\\u002fscript\\u003e\"")
%!assert (string_of ("a\"b\\c\n"), "\"a\\u0022b\\u005cc\\u000a\"")
%!assert (string_of ({"a", "b"}), "[\"a\",\"b\"]")
%!assert (string_of ({}), "[]")
%!assert (string_of (""), "\"\"")
%!test
%! ## what JavaScript would read back: each \uXXXX is the character
%! w = "<b onclick='x'>&amp;\"é";
%! s = string_of (w);
%! assert (isempty (regexp (s(2:end-1), "[<>&'\"]", "once")));
%! [hex, plain] = regexp (s(2:end-1), '\\u([0-9a-f]{4})', "tokens", "split");
%! back = plain{1};
%! for k = 1:numel (hex)
%!   back = [back, char(hex2dec (hex{k}{1})), plain{k+1}];
%! endfor
%! assert (double (back), double (w));

%!test
%! ## a repeated token carries its occurrence, so each label names one position
%! tr = attn_forward (attn_toy ("river"), "the river the bank", "<bos> la la");
%! mats = page_matrices (explore_page (tr, [], "t", 4));
%! A = mats(strcmp ({mats.name}, "decoder.1.cross.A"));
%! sub = @(k) char ([226 130 128+k]);
%! assert (A.cols, {["the" sub(1)], "river", ["the" sub(2)], "bank", "<eos>"});
%! S = mats(strcmp ({mats.name}, "decoder.1.self.A"));
%! assert (S.cols, {"<bos>", ["la" sub(1)], ["la" sub(2)]});
%! assert (S.rows(1:2), {["la" sub(1)], ["la" sub(2)]});
%! ## ten of one token: two-digit subscripts
%! dec = struct ("summary", "", "tokens", {{"w"}}, "top", {cell(1, 0)}, "topp", 1, "kind", "",
%!               "keys", {[repmat({"a"}, 1, 10), {"b"}]}, "rows", {{}}, "about", "");
%! keys = regexp (explore_page (struct ("probs", 1), dec, "t", 4), 'keys: (\[[^\]]*\])', "tokens", "once"){1};
%! assert (jsondecode (keys)([1 9 10 11])', {["a" sub(1)], ["a" sub(9)], ["a" sub(1) sub(0)], "b"});

%!test
%! ## the vocabulary head's table is the model's output, not a head's
%! html = explore_page (attn_forward (attn_toy ("river"), "the river bank", "<bos> la"), [], "t", 4);
%! assert (isempty (strfind (html, "head's output")));
%! assert (! isempty (strfind (html, "<h2>The model's output (the vocabulary head after the last layer)")));
%! c = struct ("family", "encoder-token", "vocab", "a b", "classes", {{"X", "Y"}},
%!             "d", 4, "heads", 1, "layers", 1);
%! html = explore_page (attn_forward (attn_family (c), "a b"), [], "t", 4);
%! assert (! isempty (strfind (html, "the three most probable classes of each row")));
%! ## the model view's tab and section, a legend in each table view
%! assert (! isempty (strfind (html, "<button id=\"tab-model\">Model</button>")));
%! assert (! isempty (strfind (html, "<section id=\"model\" hidden>")));
%! assert (numel (strfind (html, "<div class=\"legend\"></div>")), 2);

%!test
%! ## each decoding step's rows: heads × keys read, in every layer
%! dec = struct ("summary", "s", "tokens", {{"x", "y"}}, "top", {{"x"; "y"}}, "topp", [1; 1],
%!               "kind", "self-attention", "keys", {{"<bos>", "a", "x"}},
%!               "rows", {{cat(3, [0.25 0.75; 1 0], [0.5 0.5; 0 1]), cat(3, [0.5 0.25 0.25], [1 0 0])}},
%!               "about", "r");
%! html = explore_page (struct ("probs", 1), dec, "t", 4);
%! assert (! isempty (strfind (html, "kind: \"self-attention\", layers: 2, keys: [\"\\u003cbos\\u003e\",\"a\",\"x\"]")));
%! assert (! isempty (strfind (html, "rows: [[[[0.25,0.75],[1,0]],[[0.5,0.5],[0,1]]],\n[[[0.5,0.25,0.25]],[[1,0,0]]]]")));
