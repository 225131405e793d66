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

%!function dom = chromium (url, png)
%!  ## the DOM after the scripts ran; with PNG also a screenshot
%!  profile = tempname ();
%!  flags = ["--headless --no-sandbox --disable-gpu --disable-quic --no-first-run ", ...
%!           "--disable-background-networking --disable-component-update ", ...
%!           "--disable-sync --user-data-dir=" profile];
%!  if (nargin > 1)
%!    flags = [flags " --window-size=900,700 --screenshot=" png];
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

%!shared tr, shown, dom, hover, info, decoding, odd, img, ptr, pooled
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
%! png = fullfile (dir, "heads.png");
%! shown = dom = hover = decoding = pooled = "";
%! img = [];
%! if (have_browser ())
%!   shown = strcat ("decoder.1.self.", {"Q", "K", "V", "message", "delta", "out"});
%!   shown = [shown, {"decoder.2.cross.A", "encoder.1.self.scores", "decoder.1.self.A"}];
%!   shown = strjoin ([shown, {"decoder.2.after_cross", "probs"}], ",");
%!   dom = chromium (["file://" big "#open=" shown]);
%!   hover = chromium (["file://" big "#block=cross&layer=2&head=all&hover=3"], png);
%!   img = double (imread (png));
%!   decoding = chromium (["file://" cat "#view=decoding"]);
%!   pooled = chromium (["file://" pfile]);
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
%! assert (! isempty (regexp (hover, 'data-block="cross" data-layer="2" data-head="all" data-token="3"', "once")));
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
