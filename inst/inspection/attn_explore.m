## -*- texinfo -*-
## @deftypefn  {} {} attn_explore (@var{m}, @var{source}, "file", @var{name})
## @deftypefnx {} {} attn_explore (@var{m}, @var{source}, @var{target}, "file", @var{name})
## @deftypefnx {} {} attn_explore (@var{tr}, "file", @var{name})
## @deftypefnx {} {@var{html} =} attn_explore (@dots{}, @var{option}, @var{value}, @dots{})
## Write an attention explorer: one offline HTML page. Write an interactive
## attention explorer: one HTML file that opens in any browser, offline.
##
## The page is self-contained (no network access, no external script or
## font: plain JavaScript and SVG) and small enough to mail: about 46 kB
## for the river-bank toy, 400 kB for a 2-layer, 4-head model of width 16
## on a 12-word sentence.  It has four views:
##
## @table @asis
## @item Heads
## the query tokens in one column, the tokens they read in the other; the
## lines from the token under the pointer go to the tokens it reads, as
## thick as the weight, and pointing at a key draws the lines of the
## queries that read it.  Below, in words: what the token reads (or is
## read by) in each head, largest weight first.  Selectors choose the block
## (encoder self-attention, decoder masked self-attention,
## cross-attention), the layer and the head, or all heads at once in
## colours.  Further below: the model's output (the three most probable
## words or classes of every row) and, for pooled models, the pooled
## vector @code{c}.
## @item Model
## every layer and head of each block at once: a small square of each
## head's weights @code{A}, a row per query and a column per key; a click
## on one opens it in the Heads view.
## @item Matrices
## every named matrix of the forward trace (@code{Q}, @code{K}, @code{V},
## @code{scores}, @code{A}, @code{message}, @code{delta}, @code{out}, the
## rows between sublayers, @dots{}) as a labelled table with its shape and
## notation; the value under the pointer is shown in full.  Of a
## vocabulary over 1,000 words, @code{logits} and @code{probs} keep the
## columns of the words among the 10 most probable of some row (a real
## model's head would otherwise be most of the page).
## @item Decoding
## for a model that generates (encoder-decoder, pooled, decoder-only) the
## tokens produced step by step by greedy decoding, each step's five most
## probable tokens and the attention row of that step's new decoder row:
## its cross-attention row (encoder-decoder) or its self-attention row over
## the prompt and the tokens made before it (decoder-only), with the count
## of encoder passes and decoder steps.
## @end table
##
## The colours are those of @code{attn_heatmap}, and a legend on the page
## names them: weights and probabilities from white (0) to blue (1); signed
## values (scores, logits, queries) from red through white (0) to blue;
## masked entries grey and hatched.  A token that occurs more than once in
## a sentence carries its occurrence as a subscript (@code{the₁ @dots{}
## the₂}), so that each label names one position.  The page fits a window
## 400 pixels wide; a table wider than the window scrolls sideways.
##
## With a model @var{m} and a @var{source} sentence, the trace is
## @code{attn_forward (@var{m}, @var{source}, @var{target})}; without
## @var{target}, a generating encoder-decoder reads its own greedy output,
## so that the head view shows the translation it makes.  Encoder-only and
## decoder-only models take no @var{target}.  A forward trace @var{tr} of
## one sentence can be given instead of the model (no decoding view then).
##
## Options:
## @table @code
## @item file
## the HTML file to write; without it the page is only returned
## @item title
## the page's title (default: the sentence)
## @item digits
## significant digits of every number in the page (4)
## @item decode
## add the decoding view for a generating model (true)
## @item max_len
## most tokens to generate for the decoding view (default: the model's limit
## for a translation, 20 for a continuation)
## @end table
##
## Every number of the page is printed here with @code{digits} significant
## digits; every token is escaped, so a vocabulary word such as
## @code{</script>} shows as itself.  A URL fragment selects a state when
## the page opens, e.g. @file{out.html#block=cross&layer=1&head=all&token=2}
## (@code{key=3}: key 3 instead of a query; @code{view=model};
## @code{view=matrices&open=decoder.1.cross.A,probs}: those tables open,
## @code{open=all}: every table; @code{view=decoding}).
##
## @example
## @group
## m = attn_toy ("river");
## f = [tempname() ".html"];
## attn_explore (m, "the river bank", "file", f);
## s = dir (f);  s.bytes < 100e3
##   @result{} ans = 1
## delete (f);
## @end group
## @end example
## @seealso{attn_forward, attn_greedy, attn_continue, attn_show, attn_heatmap}
## @end deftypefn

function html = attn_explore (varargin)
  if (nargin < 1)
    print_usage ();
  endif
  spec = {"file", "", "text";
          "title", "", "text";
          "digits", 4, "integer [2, 17]";
          "decode", true, "flag";
          "max_len", Inf, "integer [1, Inf]"};
  x = varargin{1};
  if (isstruct (x) && isscalar (x) && isfield (x, "config"))
    if (nargin < 2)
      print_usage ();
    endif
    rest = varargin(3:end);
    target = [];
    if (mod (numel (rest), 2) == 1)
      target = rest{1};
      rest = rest(2:end);
    endif
    opts = parse_options ("attn_explore", spec, rest);
    [tr, dec] = run_model (x, varargin{2}, target, opts);
  elseif (isstruct (x) && isscalar (x) && isfield (x, "probs"))
    opts = parse_options ("attn_explore", spec, varargin(2:end));
    tr = x;
    dec = [];
  else
    error ("attention:type",
           "attn_explore: the first argument must be a model or a forward trace (attn_forward), got %s",
           disp_arg (x));
  endif
  if (isempty (opts.file) && nargout == 0)
    error ("attention:option",
           "attn_explore: give the option \"file\" with a file name, or ask for the page as output");
  endif
  title = opts.title;
  if (isempty (title))
    title = ["attention explorer: " sentence(tr)];
  endif
  page = explore_page (tr, dec, title, opts.digits);
  if (! isempty (opts.file))
    [fid, msg] = fopen (opts.file, "w");
    if (fid < 0)
      error ("attention:file", "attn_explore: cannot write FILE \"%s\": %s",
             opts.file, msg);
    endif
    fwrite (fid, page);
    fclose (fid);
  endif
  if (nargout > 0)
    html = page;
  endif
endfunction

function s = sentence (tr)
  if (isfield (tr, "source_labels"))
    s = strjoin (cellstr (tr.source_labels(:)'), " ");
  else
    s = strjoin (cellstr (tr.target_labels(:)'), " ");
  endif
endfunction

## The forward trace and, for a generating model, its decoding steps.
function [tr, dec] = run_model (m, source, target, opts)
  dec = [];
  generates = isfield (m, "decoder");
  two_stacks = generates && isfield (m, "encoder");
  if (! two_stacks && ! isempty (target))
    error ("attention:type",
           "attn_explore: TARGET is for encoder-decoder and pooled models; this model reads one sequence (got TARGET %s)",
           disp_arg (target));
  endif
  if (! two_stacks)
    tr = attn_forward (m, source);
    if (generates && opts.decode)
      args = {};
      if (isfinite (opts.max_len))
        args = {"max_len", opts.max_len};
      endif
      [~, info] = attn_continue (m, source, args{:});
      [keys, attn] = self_rows (m, info);
      dec = steps (m, info,
                   sprintf ("prompt \"%s\": %d step%s, %d decoder rows computed (stopped: %s)",
                            strjoin (info.prompt_tokens, " "), numel (info.tokens),
                            plural (numel (info.tokens), "s"), info.rows_computed,
                            info.stopped),
                   "self-attention", keys, attn,
                   ["Each step: the token produced, the five most probable tokens of that step, ", ...
                    "and the self-attention row of the step's new row (one row per head): ", ...
                    "what it reads of the prompt and of the tokens made before it."]);
    endif
    return;
  endif
  if (opts.decode)
    one = source;
    if (iscell (source))               # a cell of words is one sentence, not a batch
      one = {source};
    endif
    [~, info] = attn_greedy (m, one, "max_len", opts.max_len);
    summary = sprintf ("%d encoder pass%s, %d decoder step%s (stopped: %s)",
                       info.encoder_passes, plural (info.encoder_passes, "es"),
                       info.decoder_steps, plural (info.decoder_steps, "s"),
                       info.stopped);
    if (size (info.A, 3) == 0)
      dec = steps (m, info, summary, "", {}, {},
                   ["Each step: the token produced and the five most probable tokens ", ...
                    "of that step; no cross-attention: every step reads the pooled vector c."]);
    else
      ## step t's cross row in every head and layer: h×m×L
      attn = num2cell (permute (info.A, [3 2 4 1]), [1 2 3]);
      dec = steps (m, info, summary, "cross-attention", info.source_labels, attn(:)',
                   ["Each step: the token produced, the five most probable tokens of that step, ", ...
                    "and the cross-attention row the step's new decoder row used ", ...
                    "(one row per head, over the source)."]);
    endif
    if (isempty (target))
      ## the decoder rows that chose each token: <bos> and all but the last
      target = [m.tgt_vocab.bos, info.ids(1:end-1)];
    endif
  endif
  tr = attn_forward (m, source, target);
endfunction

function s = plural (n, ending)
  s = "";
  if (n != 1)
    s = ending;
  endif
endfunction

## The decoding view's struct (explore_page): each step's five most
## probable tokens and the attention row of its new decoder row, KIND, over
## KEYS (ATTN{t}: h×w×L).
function dec = steps (m, info, summary, kind, keys, attn, about)
  [p, order] = sort (info.probs, 2, "descend");
  k = min (5, columns (p));
  words = m.tgt_vocab.words;
  dec = struct ("summary", summary, "tokens", {cellstr(info.tokens(:)')},
                "top", {reshape(words(order(:, 1:k)), rows (p), k)},
                "topp", p(:, 1:k), "kind", kind, "keys", {cellstr(keys(:)')},
                "rows", {attn}, "about", about);
endfunction

## A decoder-only continuation's self-attention rows: step t's new row is
## row r = (prompt tokens) + t - 1 of the causal pass over the prompt and
## the tokens made before the last, and reads its first r tokens (KEYS).
## ATTN{t} is h×r×L.
function [keys, attn] = self_rows (m, info)
  seq = [info.prompt_tokens(2:end), info.tokens(1:end-1)];
  tr = attn_forward (m, seq);
  keys = tr.target_labels;
  A = arrayfun (@(layer) layer.self.A, tr.decoder, "uniformoutput", false);
  A = cat (4, A{:});                    # N×N×h×L
  first = numel (info.prompt_tokens);
  attn = cell (1, numel (info.tokens));
  for t = 1:numel (attn)
    r = first + t - 1;
    attn{t} = permute (A(r, 1:r, :, :), [3 2 4 1]);
  endfor
endfunction

%!test
%! ## the page holds the trace's numbers as printed, its blocks and tokens
%! m = attn_toy ("river");
%! tr = attn_forward (m, "the river bank", "<bos> la rive");
%! html = attn_explore (m, "the river bank");
%! assert (strncmp (html, "<!DOCTYPE html>", 15));
%! assert (! isempty (strfind (html, "name: \"decoder.1.cross.A\"")));
%! ## without a target the decoder reads its own greedy translation
%! row = regexp (html, 'name: "decoder\.1\.cross\.A"[^\n]*\n pages: \[\[\[([^\]]*)\]', "tokens", "once"){1};
%! assert (str2double (strsplit (row, ",")), tr.decoder.cross.A(1, :), -5e-4);
%! assert (! isempty (strfind (html, "1 encoder pass, 3 decoder steps (stopped: eos)")));
%! ## nothing is fetched from anywhere (the one address is SVG's name)
%! html = strrep (html, "\"http://www.w3.org/2000/svg\"", "");
%! assert (isempty (regexp (html, '\s(src|href)\s*=\s*["'']|https?:|@import|url\(', "once")));

%!test
%! ## a source given as a cell of words is one sentence
%! m = attn_toy ("blackcat");
%! a = [tempname() ".html"];  b = [tempname() ".html"];
%! attn_explore (m, {"the", "black", "cat"}, "file", a);
%! attn_explore (m, "the black cat", "file", b);
%! assert (fileread (a), fileread (b));
%! delete (a);  delete (b);

%!test
%! ## seed 004: 1 encoder pass, 4 decoder steps, each step's cross row
%! m = attn_toy ("blackcat");
%! [~, info] = attn_greedy (m, "the black cat");
%! html = attn_explore (m, "the black cat", "digits", 6);
%! assert (! isempty (strfind (html, "1 encoder pass, 4 decoder steps")));
%! assert (! isempty (strfind (html, "kind: \"cross-attention\", layers: 1, keys: [\"the\",\"black\",\"cat\",\"\\u003ceos\\u003e\"]")));
%! cross = regexp (html, '\n rows: \[(.*?)\],\n about', "tokens", "once"){1};
%! v = str2double (regexp (cross, '[-0-9.e]+', "match"));
%! assert (v, reshape (permute (info.A, [2 3 4 1]), 1, []), -5e-6);
%! top = regexp (html, 'top: \[\["([^"]*)"', "tokens", "once"){1};
%! assert (top, "le");

%!test
%! ## a word that would end the script or a string is escaped
%! c = struct ("src_vocab", {{"</script> \"x\" a&b"}}, "tgt_vocab", {{"<b>"}}, "d", 4, "heads", 1);
%! m = attn_model (c);
%! html = attn_explore (m, "</script> \"x\" a&b", "<b>", "title", "</title><b>");
%! body = html(strfind (html, "const DATA"):end);
%! assert (numel (strfind (html, "</script>")), 2);
%! assert (isempty (strfind (body(1:strfind (body, "</script>")(1)), "\"x\"")));
%! assert (! isempty (strfind (html, "<title>&lt;/title&gt;&lt;b&gt;</title>")));

%!test
%! ## every family: the encoder-only page has its head output, the pooled one c
%! cfg = struct ("family", "encoder-token", "vocab", "raghav goes to school",
%!               "classes", {{"PERSON", "OTHER"}}, "d", 4, "heads", 2, "layers", 1);
%! html = attn_explore (attn_family (cfg), "raghav goes to school");
%! assert (! isempty (strfind (html, "name: \"encoder.1.self.A\"")));
%! assert (! isempty (strfind (html, "name: \"probs\"")));
%! assert (! isempty (strfind (html, "decoding: null")));
%! cfg = struct ("family", "pooled-add", "d", 4, "heads", 1, "layers", 1,
%!               "src_vocab", {{"the river bank"}}, "tgt_vocab", {{"la rive"}});
%! html = attn_explore (attn_family (cfg), "the river bank", "max_len", 2);
%! assert (! isempty (strfind (html, "name: \"c\"")));
%! assert (! isempty (strfind (html, "every step reads the pooled vector c")));
%! cfg = struct ("family", "decoder-only", "vocab", "raghav goes to school",
%!               "d", 4, "heads", 1, "layers", 1);
%! html = attn_explore (attn_family (cfg), "raghav goes", "max_len", 2);
%! assert (! isempty (regexp (html, 'raghav goes\\u0022: [12] steps?, ', "once")));
%! assert (! isempty (strfind (html, "kind: \"self-attention\", layers: 1, keys: [\"\\u003cbos\\u003e\",\"raghav\",\"goes\"")));

%!test
%! ## a decoder-only continuation: each step's self-attention row, in every
%! ## layer and head, is the last row of the causal pass over what it read
%! cfg = struct ("family", "decoder-only", "vocab", "raghav goes to school in delhi",
%!               "d", 8, "heads", 2, "layers", 2, "seed", 3);
%! m = attn_family (cfg);
%! [~, info] = attn_continue (m, "raghav goes", "max_len", 3);
%! html = attn_explore (m, "raghav goes", "max_len", 3, "digits", 8);
%! rows = regexp (html, '\n rows: \[(.*?)\],\n about', "tokens", "once"){1};
%! got = str2double (regexp (rows, '[-0-9.e]+', "match"));
%! want = [];
%! for t = 1:numel (info.tokens)
%!   tr = attn_forward (m, [{"raghav", "goes"}, info.tokens(1:t-1)]);
%!   for l = 1:2
%!     want = [want, reshape(squeeze (tr.decoder(l).self.A(end, :, :)), 1, [])];
%!   endfor
%! endfor
%! assert (got, want, -5e-8);
%! assert (! isempty (strfind (html, "of the step\\u0027s new row (one row per head)")));

%!test
%! ## from a trace, written to a file
%! tr = attn_forward (attn_toy ("river"), "the financial bank", "la");
%! f = [tempname() ".html"];
%! unwind_protect
%!   attn_explore (tr, "file", f);
%!   html = fileread (f);
%!   assert (! isempty (strfind (html, "decoding: null")));
%!   assert (! isempty (strfind (html, "attention explorer: the financial bank &lt;eos&gt;")));
%! unwind_protect_cleanup
%!   delete (f);
%! end_unwind_protect

%!error id=attention:option attn_explore (attn_toy ("river"), "the river bank")
%!error id=attention:option attn_explore (attn_toy ("river"), "the river bank", "file", 3)
%!error id=attention:option attn_explore (attn_toy ("river"), "the river bank", "digits", 1, "file", "x.html")
%!error id=attention:type attn_explore (3, "file", "x.html")
%!error id=attention:file attn_explore (attn_toy ("river"), "the river bank", "file", "/nonexistent/dir/x.html")
%!error id=attention:type attn_explore (attn_family (struct ("family", "encoder-token", "vocab", "a b", "classes", {{"X", "Y"}}, "d", 4, "heads", 1, "layers", 1)), "a b", "b", "file", "x.html")

%!demo
%! ## the river-bank toy: open the file in a browser
%! f = fullfile (tempdir (), "river_explorer.html");
%! attn_explore (attn_toy ("river"), "the river bank", "file", f);
%! printf ("open %s in a browser\n", f);
