## Copyright (C) 2026 The attention developers
## SPDX-License-Identifier: GPL-3.0-or-later
##
## attn_explore's pages in a real browser: headless Chromium loads each
## page (its scripts run), and the tests read what it drew (--dump-dom) and
## a screenshot.  The browser is $ATTN_CHROMIUM, or chromium on the PATH;
## without one these tests are skipped (counted as skipped, not passed).
## Each page is written once and serves several checks.

%!function exe = browser ()
%!  exe = getenv ("ATTN_CHROMIUM");
%!  if (isempty (exe))
%!    exe = file_in_path (getenv ("PATH"), "chromium");
%!  endif
%!endfunction

%!function tf = have_browser ()
%!  ## found, and it runs (an installed wrapper whose browser is gone does not)
%!  persistent ok
%!  if (isempty (ok))
%!    exe = browser ();
%!    ok = ! isempty (exe) && system (sprintf ("timeout 30 '%s' --version > /dev/null 2>&1", exe)) == 0;
%!  endif
%!  tf = ok;
%!endfunction

%!function dom = chromium (url, png, width)
%!  ## the DOM after the scripts ran; with PNG also a screenshot, WIDTH
%!  ## pixels wide (900) and 700 high
%!  profile = tempname ();
%!  flags = ["--headless --no-sandbox --disable-gpu --disable-quic --no-first-run ", ...
%!           "--disable-background-networking --disable-component-update ", ...
%!           "--disable-sync --hide-scrollbars --user-data-dir=" profile];
%!  if (nargin > 1)
%!    if (nargin < 3)
%!      width = 900;
%!    endif
%!    flags = sprintf ("%s --window-size=%d,700 --screenshot=%s", flags, width, png);
%!  endif
%!  [status, dom] = system (sprintf ("timeout 60 %s %s --dump-dom '%s' 2>/dev/null",
%!                                   browser (), flags, url));
%!  confirm_recursive_rmdir (false, "local");
%!  if (isfolder (profile))
%!    rmdir (profile, "s");
%!  endif
%!  assert (status, 0);
%!endfunction

%!function v = cells (dom, name, page)
%!  ## the values in the table of matrix NAME (head PAGE), row by row
%!  t = regexp (dom, sprintf ('<table class="mat[^"]*" data-name="%s" data-page="%d">.*?</table>',
%!                            regexptranslate ("escape", name), page), "match", "once");
%!  v = regexp (t, '<td[^>]*?data-v="([^"]*)"', "tokens");
%!  v = str2double ([v{:}]);
%!endfunction

%!function w = drawn (dom)
%!  ## the head view's lines: [query, key, head, weight] per line
%!  l = regexp (dom, '<line [^>]*data-i="(\d+)" data-j="(\d+)" data-h="(\d+)" data-w="([^"]*)"', "tokens");
%!  w = reshape (str2double ([l{:}]), 4, [])';
%!endfunction

%!function c = fills (dom, id)
%!  ## the colours of the cells of the model view's square ID, row by row,
%!  ## as 0-255 RGB rows (NaN for a masked cell) and which cells are masked
%!  t = regexp (dom, ['<svg [^>]*id="' id '"[^>]*>.*?</svg>'], "match", "once");
%!  f = regexp (t, '<rect [^>]*fill="([^"]*)"', "tokens");
%!  f = [f{:}];
%!  c = NaN (numel (f), 3);
%!  rgb = ! strcmp (f, "#c7c7c7");
%!  c(rgb, :) = reshape (str2double (regexp ([f{rgb}], '\d+', "match")), 3, [])';
%!endfunction

%!function c = heatmap_colour (x)
%!  ## attn_heatmap's colour of x (a weight, or a value over the table's
%!  ## largest magnitude): 0.9 x of the way from white to blue (red below 0)
%!  end_colour = repmat ([31 111 180], numel (x), 1);
%!  end_colour(x < 0, :) = repmat ([214 39 40], nnz (x < 0), 1);
%!  c = 255 - 0.9 * abs (x(:)) .* (255 - end_colour);
%!endfunction

%!function v = read_values (dom)
%!  ## the weights the head view's "reads" lines list, one cell per head
%!  r = regexp (dom, '<div class="readrow" data-h="\d+">.*?</div>', "match");
%!  v = cellfun (@(x) str2double ([regexp(x, 'class="pair" data-v="([^"]*)"', "tokens"){:}]),
%!               r, "uniformoutput", false);
%!endfunction

%!shared tr, shown, dom, hover, info, decoding, odd, img, ptr, pooled, model, clicked, keyed, slim, narrow, lm, lmtr, lminfo
%! dir = tempname ();
%! mkdir (dir);
%! ## a 2-layer, 4-head model on a 12-word sentence; its translation has
%! ## words that would break the page if they were not escaped
%! s = "the old man saw the river bank from the small boat at";
%! odd = {"</script>", "\"q\"", "a&b", "<b>x</b>", "it's"};
%! t = ["le vieil homme " strjoin(odd, " ") " du petit bateau l"];
%! m = attn_model (struct ("src_vocab", {{s}}, "tgt_vocab", {{t}}, "d", 16,
%!                         "heads", 4, "d_ff", 32, "norm", "post",
%!                         "encoder_layers", 2, "decoder_layers", 2, "max_len", 16));
%! tr = attn_forward (m, s, t);
%! big = fullfile (dir, "big.html");
%! attn_explore (m, s, t, "file", big, "max_len", 3);
%! ## seed 004's model: its decoding view
%! cat = fullfile (dir, "cat.html");
%! attn_explore (attn_toy ("blackcat"), "the black cat", "file", cat);
%! [~, info] = attn_greedy (attn_toy ("blackcat"), "the black cat");
%! ## a pooled model: the decoder reads one vector c
%! pm = attn_family (struct ("family", "pooled-add", "d", 4, "heads", 2, "layers", 1,
%!                           "src_vocab", {{"the river bank"}}, "tgt_vocab", {{"la rive"}}));
%! ptr = attn_forward (pm, "the river bank", "la");
%! pfile = fullfile (dir, "pooled.html");
%! attn_explore (pm, "the river bank", "la", "file", pfile, "decode", false);
%! ## a decoder-only model's continuation
%! lmm = attn_family (struct ("family", "decoder-only", "vocab", "raghav goes to school in delhi",
%!                            "d", 8, "heads", 2, "layers", 2, "seed", 3));
%! [~, lminfo] = attn_continue (lmm, "raghav goes", "max_len", 3);
%! lmtr = cell (1, numel (lminfo.tokens));
%! for t = 1:numel (lmtr)
%!   lmtr{t} = attn_forward (lmm, [{"raghav", "goes"}, lminfo.tokens(1:t-1)]);
%! endfor
%! lfile = fullfile (dir, "lm.html");
%! attn_explore (lmm, "raghav goes", "max_len", 3, "file", lfile);
%! png = fullfile (dir, "heads.png");
%! shown = dom = hover = decoding = pooled = model = clicked = keyed = slim = lm = "";
%! img = narrow = [];
%! if (have_browser ())
%!   shown = strcat ("decoder.1.self.", {"Q", "K", "V", "message", "delta", "out"});
%!   shown = [shown, {"decoder.2.cross.A", "encoder.1.self.scores", "decoder.1.self.A"}];
%!   shown = strjoin ([shown, {"decoder.2.after_cross", "probs"}], ",");
%!   dom = chromium (["file://" big "#open=" shown]);
%!   hover = chromium (["file://" big "#block=cross&layer=2&head=all&hover=3"], png);
%!   img = double (imread (png));
%!   decoding = chromium (["file://" cat "#view=decoding"]);
%!   pooled = chromium (["file://" pfile]);
%!   model = chromium (["file://" big "#view=model"]);
%!   clicked = chromium (["file://" big "#view=model&click=cross.2.3"]);
%!   keyed = chromium (["file://" big "#block=cross&layer=2&head=all&hover=k3"]);
%!   slim = chromium (["file://" big "#hover=5"], png, 400);
%!   narrow = double (imread (png));
%!   lm = chromium (["file://" lfile "#view=decoding"]);
%! endif
%! confirm_recursive_rmdir (false, "local");
%! rmdir (dir, "s");

%!testif ; have_browser ()
%! ## the scripts ran; every block, layer and head is in the page
%! assert (! isempty (strfind (dom, "data-ready=\"1\"")));
%! blocks = regexp (dom, '<li data-block="(\w+)" data-layer="(\d+)" data-heads="(\d+)">', "tokens");
%! blocks = vertcat (blocks{:});
%! assert (blocks(:, 1)', {"encoder", "encoder", "decoder", "cross", "decoder", "cross"});
%! assert (str2double (blocks(:, 2))', [1 2 1 1 2 2]);
%! assert (str2double (blocks(:, 3))', [4 4 4 4 4 4]);
%! ## the selectors: the three blocks, both layers of the first, all heads
%! sel = @(id) regexp (regexp (dom, ['<select id="' id '">.*?</select>'], "match", "once"),
%!                     '<option value="([^"]*)"', "tokens");
%! assert ([sel("sel-block"){:}], {"encoder", "decoder", "cross"});
%! assert ([sel("sel-layer"){:}], {"1", "2"});
%! assert ([sel("sel-head"){:}], {"all", "1", "2", "3", "4"});

%!testif ; have_browser ()
%! ## the numbers the page drew equal the trace's to the printed 4 digits;
%! ## the tables opened are drawn, the others wait to be opened
%! assert (numel (regexp (dom, '<table class="mat" data-name="[^"]*" data-page="1">')),
%!         numel (strsplit (shown, ",")));
%! for h = 1:4
%!   A = tr.decoder(2).cross.A(:, :, h)';
%!   assert (cells (dom, "decoder.2.cross.A", h), A(:)', -5e-4);
%!   S = tr.encoder(1).self.scores(:, :, h)';
%!   assert (cells (dom, "encoder.1.self.scores", h), S(:)', -5e-4);
%! endfor
%! for f = {"Q", "K", "V", "message", "delta", "out"}
%!   X = tr.decoder(1).self.(f{1})';
%!   assert (cells (dom, ["decoder.1.self." f{1}], 1), X(:)', -5e-4);
%! endfor
%! X = tr.decoder(2).after_cross';
%! assert (cells (dom, "decoder.2.after_cross", 1), X(:)', -5e-4);
%! X = tr.probs';
%! assert (cells (dom, "probs", 1), X(:)', -5e-4);
%! ## masked entries are marked: the future keys of the decoder's rows
%! t = regexp (dom, '<table class="mat" data-name="decoder.1.self.A" data-page="2">.*?</table>', "match", "once");
%! n = rows (tr.decoder(1).self.A);
%! assert (numel (strfind (t, "class=\"masked\"")), n * (n - 1) / 2);
%! assert (numel (cells (dom, "decoder.1.self.A", 2)), n * (n + 1) / 2);

%!testif ; have_browser ()
%! ## pointing at a token changes what is drawn: its lines only, one per
%! ## head and key it reads, as heavy as the trace's weights
%! before = drawn (dom);
%! after = drawn (hover);
%! assert (! isempty (strfind (hover, "<svg id=\"svg-heads\" width=\"660\" height=\"")));
%! assert (! isempty (regexp (hover, 'data-block="cross" data-layer="2" data-head="all" data-side="q" data-token="3"', "once")));
%! assert (numel (unique (before(:, 1))) > 1);
%! assert (unique (after(:, 1)), 3);
%! assert (unique (after(:, 3))', 1:4);
%! A = squeeze (tr.decoder(2).cross.A(3, :, :));     # keys × heads
%! idx = sub2ind (size (A), after(:, 2), after(:, 3));
%! assert (after(:, 4), A(idx), -5e-4);
%! ## lines are left out only for weights below 0.005
%! assert (numel (idx), nnz (A > 0.005));
%! ## query rows are named by the word they write: the row fed "vieil" writes "homme"
%! assert (! isempty (regexp (hover, '<text [^>]*class="tok q on"[^>]*>homme</text>', "once")));

%!testif ; have_browser ()
%! ## seed 004 in the decoding view: 1 encoder pass, 4 decoder steps, each
%! ## step's top 5 and its cross-attention row
%! assert (! isempty (strfind (decoding, "1 encoder pass, 4 decoder steps (stopped: eos)")));
%! made = regexp (decoding, '<div class="produced"><span class="n">step \d</span><b>([^<]*)</b>', "tokens");
%! assert ([made{:}], {"le", "chat", "noir", "&lt;eos&gt;"});
%! for t = 1:4
%!   step = regexp (decoding, sprintf ('<div class="step" data-step="%d">.*?</table>.*?</table>', t), "match", "once");
%!   p = sort (info.probs(t, :), "descend");
%!   top = regexp (step, 'class="p" data-v="([^"]*)"', "tokens");
%!   top = str2double ([top{:}]);
%!   assert (top, p(1:5), -5e-4);
%!   row = regexp (step, '<td data-v="([^"]*)" title="', "tokens");
%!   row = str2double ([row{:}]);
%!   assert (row, info.A(t, :, 1, 1), -5e-4);
%! endfor

%!testif ; have_browser ()
%! ## words like </script> or a quote are drawn as text and break nothing
%! assert (! isempty (strfind (hover, "data-ready=\"1\"")));
%! q = regexp (hover, '<text [^>]*class="tok q[ on]*"[^>]*>([^<]*)</text>', "tokens");
%! words = strrep (strrep (strrep ([q{:}], "&lt;", "<"), "&gt;", ">"), "&amp;", "&");
%! assert (words, tr.written_labels(:)');
%! assert (words(4:8), odd);
%! assert (isempty (strfind (hover, "<b>x</b>")));

%!testif ; have_browser ()
%! ## the screenshot is not blank: text, and the lines of several heads
%! assert (size (img), [700 900 3]);
%! dark = all (img < 100, 3);
%! assert (nnz (dark) > 2000);
%! ## between the token columns: lines of one token, in the colours of
%! ## all four heads
%! r = img(250:650, 240:450, 1);  g = img(250:650, 240:450, 2);  b = img(250:650, 240:450, 3);
%! assert (nnz (b > r + 60 & b > g + 20) > 200);                 # head 1, blue
%! assert (nnz (r > g + 100 & r > b + 100 & g < 100) > 200);     # head 2, red
%! assert (nnz (g > r + 40 & g > b + 40) > 200);                 # head 3, green
%! assert (nnz (r > b + 120 & g > 110 & g < 180) > 200);         # head 4, orange

%!testif ; have_browser ()
%! ## a pooled model's page: no cross-attention block, and the vector c
%! blocks = regexp (pooled, '<li data-block="(\w+)"', "tokens");
%! assert (unique ([blocks{:}]), {"decoder", "encoder"});
%! assert (! isempty (strfind (pooled, "The pooled vector c")));
%! assert (cells (pooled, "c", 1), ptr.c, -5e-4);
%! assert (cells (pooled, "pool_weights", 1), ptr.pool_weights', -5e-4);
%! assert (isempty (strfind (pooled, "tab-decoding")));

%!testif ; have_browser ()
%! ## the model view: every layer × head of each kind, each head's square
%! ## a cell per weight in attn_heatmap's colours, masked cells grey
%! for kind = {"encoder", "decoder", "cross"}
%!   t = regexp (model, ['<table class="model" data-block="' kind{1} '">.*?</table>'], "match", "once");
%!   assert (numel (regexp (t, '<svg [^>]*class="thumb"')), 8);
%! endfor
%! for l = 1:2
%!   for h = 1:4
%!     A = tr.decoder(l).cross.A(:, :, h)';
%!     c = fills (model, sprintf ("thumb-cross-%d-%d", l, h));
%!     assert (c, round (heatmap_colour (A(:))), 1);
%!     S = tr.decoder(l).self.A(:, :, h)';
%!     masked = isinf (tr.decoder(l).self.scores(:, :, h)');
%!     c = fills (model, sprintf ("thumb-decoder-%d-%d", l, h));
%!     assert (isnan (c(:, 1)), masked(:));
%!     assert (c(! masked, :), round (heatmap_colour (S(! masked))), 1);
%!   endfor
%! endfor
%! ## a click on a square opens that head in the head view
%! assert (! isempty (strfind (clicked, "<body data-view=\"heads\"")));
%! assert (! isempty (regexp (clicked, '<svg id="svg-heads"[^>]*data-block="cross" data-layer="2" data-head="3"', "once")));
%! assert (unique (drawn (clicked)(:, 3)), 3);

%!testif ; have_browser ()
%! ## the legend: weights white to blue, signed red through white to blue,
%! ## masked grey and hatched, in every view with tables
%! assert (numel (regexp (model, '<div class="legend">')), 3);
%! g = regexp (model, '<div class="legend">.*?</div>', "match", "once");
%! x = str2double ([regexp(g, 'data-x="([^"]*)"', "tokens"){:}]);
%! c = regexp (g, 'data-x="[^"]*" style="background:rgb\((\d+),(\d+),(\d+)\)', "tokens");
%! c = reshape (str2double ([c{:}]), 3, [])';
%! assert (x, [0:8, -8:8] / 8);
%! assert (c, round (heatmap_colour (x)));
%! assert (! isempty (strfind (g, "class=\"masked swatch\"")));

%!testif ; have_browser ()
%! ## pointing at a key: lines from every query that reads it, per head
%! w = drawn (keyed);
%! assert (unique (w(:, 2)), 3);
%! A = squeeze (tr.decoder(2).cross.A(:, 3, :));     # queries × heads
%! assert (w(:, 4), A(sub2ind (size (A), w(:, 1), w(:, 3))), -5e-4);
%! assert (rows (w), nnz (A > 0.005));
%! assert (! isempty (regexp (keyed, '<text [^>]*id="k3" class="tok k on"', "once")));
%! assert (! isempty (strfind (keyed, ["head 1: " tr.source_labels{3} " is read by "])));
%! v = read_values (keyed);
%! for h = 1:4
%!   a = sort (A(:, h), "descend")';
%!   assert (v{h}, a(1:min (5, nnz (a >= 0.01))), -5e-4);
%! endfor

%!testif ; have_browser ()
%! ## what a query reads: largest first, at most five of 0.01 or more, two
%! ## significant digits, then how many more
%! v = read_values (hover);
%! A = squeeze (tr.decoder(2).cross.A(3, :, :));
%! for h = 1:4
%!   a = sort (A(:, h), "descend")';
%!   n = min (5, nnz (a >= 0.01));
%!   assert (v{h}, a(1:n), -5e-4);
%! endfor
%! r = regexp (hover, '<div class="readrow" data-h="1">.*?</div>', "match", "once");
%! shown = regexp (r, 'class="pair" data-v="[^"]*">[^<]* (\d\.\d+)<', "tokens");
%! assert (cellfun (@(s) numel (regexprep (s{1}, '^[0.]*', "")), shown), 2 * ones (1, numel (shown)));
%! if (numel (a) > n)
%!   assert (! isempty (regexp (r, sprintf ('<span class="pair rest">\\+ %d more: ', numel (A(:, 1)) - numel (v{1})), "once")));
%! endif

%!testif ; have_browser ()
%! ## a repeated token carries its occurrence: the₁, the₂, the₃
%! k = regexp (keyed, '<text [^>]*class="tok k[ on]*"[^>]*>([^<]*)</text>', "tokens");
%! k = [k{:}];
%! sub = @(n) char ([226 130 128+n]);
%! assert (k([1 5 9]), {["the" sub(1)], ["the" sub(2)], ["the" sub(3)]});
%! assert (k([2 6]), {"old", "river"});

%!testif ; have_browser ()
%! ## a decoder-only continuation: each step's self-attention row over the
%! ## prompt and the tokens made before it, every head (layer 1 shown)
%! assert (! isempty (strfind (lm, "self-attention")));
%! assert (isempty (strfind (lm, "cross-attention row")));
%! for t = 1:numel (lminfo.tokens)
%!   row = regexp (lm, sprintf ('<table class="attnrow" data-step="%d">.*?</table>', t), "match", "once");
%!   keys = regexp (row, '<th class="col">([^<]*)</th>', "tokens");
%!   assert (numel (keys), 2 + t);
%!   v = str2double ([regexp(row, '<td data-v="([^"]*)"', "tokens"){:}]);
%!   assert (v, reshape (squeeze (lmtr{t}.decoder(1).self.A(end, :, :)), 1, []), -5e-4);
%! endfor

%!testif ; have_browser ()
%! ## 400 px wide: the drawing fits the window (the DOM is written at
%! ## headless Chromium's narrowest window, 500 px, the screenshot after
%! ## the page was narrowed to 400 px and drew itself again): every key
%! ## label inside it, nothing runs off the right edge of the screenshot
%! assert (size (narrow), [700 400 3]);
%! w = str2double (regexp (slim, '<svg id="svg-heads" width="(\d+)"', "tokens", "once"){1});
%! assert (w <= 500 - 32);
%! x = str2double ([regexp(slim, '<text x="([^"]*)" y="[^"]*" id="k\d+"', "tokens"){:}]);
%! assert (numel (x), 13);
%! assert (all (x > w / 2 & x < w - 30));
%! edge = narrow(:, end-5:end, :);
%! assert (nnz (any (edge < 200, 3)), 0);
%! ## the key labels are drawn right of the lines, left of the edge
%! dark = any (narrow(:, 300:end-6, :) < 100, 3);
%! assert (nnz (dark) > 300);
