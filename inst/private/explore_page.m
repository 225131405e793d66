## -*- texinfo -*-
## @deftypefn {} {@var{html} =} explore_page (@var{mats}, @var{dec}, @var{title}, @var{digits})
## The explorer's self-contained HTML page: the matrices @var{mats} (from
## @code{explore_matrices}) and the decoding steps @var{dec} (a struct, or
## empty for none) as a JavaScript literal printed here, every number with
## @var{digits} significant digits and every string escaped by
## @code{explore_string}; then the style and script of this folder
## (@file{explore_page.css}, @file{explore_page.js}) inline.  A content
## security policy forbids the page any request.
## @end deftypefn

function html = explore_page (mats, dec, title, digits)
  here = fileparts (mfilename ("fullpath"));
  data = sprintf ("const DATA = {\ntitle: %s,\nmatrices: [\n%s],\ndecoding: %s\n};\n",
                  explore_string (title), matrices_literal (mats, digits),
                  decoding_literal (dec, digits));
  tabs = "<button id=\"tab-heads\">Heads</button> <button id=\"tab-matrices\">Matrices</button>";
  decoding = "";
  if (! isempty (dec))
    tabs = [tabs " <button id=\"tab-decoding\">Decoding</button>"];
    decoding = ["<section id=\"decoding\" hidden>\n<p id=\"dec-summary\"></p>\n", ...
                "<p>Each step: the token produced, the five most probable tokens ", ...
                "of that step, and the cross-attention row the step's new decoder ", ...
                "row used (target &times; source, one row per head).</p>\n", ...
                "<p><label>cross-attention of <select id=\"sel-dec-layer\"></select>", ...
                "</label></p>\n<div id=\"dec-steps\"></div>\n</section>\n"];
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
          "<svg id=\"svg-heads\" width=\"660\" height=\"100\"></svg>\n", ...
          "<div id=\"reads\"></div>\n", ...
          "<h2>The head's output: the three most probable labels of each row</h2>\n", ...
          "<table id=\"output\" class=\"mat\"></table>\n<div id=\"pooled\"></div>\n</section>\n", ...
          "<section id=\"matrices\" hidden>\n<p>Every named matrix of the forward trace, ", ...
          "in the trace's order: open one to see its table (rows &times; columns, ", ...
          "a table per head for scores and A; hatched cells are masked).</p>\n", ...
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
      pages{p} = explore_numbers (m.values(:, :, p), digits);
    endfor
    mask = "null";
    if (! isempty (m.mask))
      mask = cell (1, size (m.mask, 3));
      for p = 1:numel (mask)
        mask{p} = explore_string (cellstr (char ("0" + m.mask(:, :, p))));
      endfor
      mask = ["[" strjoin(mask, ",") "]"];
    endif
    parts{k} = sprintf ("{name: %s, note: %s, rows: %s, cols: %s, groups: %d,\n pages: [%s],\n mask: %s}",
                        explore_string (m.name), explore_string (m.note),
                        explore_string (m.rows), explore_string (m.cols),
                        m.groups, strjoin (pages, ",\n"), mask);
  endfor
  s = strjoin (parts, ",\n");
endfunction

## DEC: summary, source, tokens (1×steps cellstr), top (steps×k cellstr),
## topp (steps×k), cross (steps×m×h×L, or empty), nocross (text).
function s = decoding_literal (dec, digits)
  if (isempty (dec))
    s = "null";
    return;
  endif
  steps = numel (dec.tokens);
  top = cell (1, steps);
  for t = 1:steps
    top{t} = explore_string (dec.top(t, :));
  endfor
  cross = cell (1, steps * ! isempty (dec.cross));
  for t = 1:numel (cross)
    layers = cell (1, size (dec.cross, 4));
    for l = 1:numel (layers)
      layers{l} = explore_numbers (permute (dec.cross(t, :, :, l), [3 2 1 4]), digits);
    endfor
    cross{t} = ["[" strjoin(layers, ",") "]"];
  endfor
  s = sprintf (["{summary: %s, layers: %d, source: %s, tokens: %s,\n", ...
                " top: [%s],\n topp: %s,\n cross: [%s],\n nocross: %s}"],
               explore_string (dec.summary), size (dec.cross, 4) * ! isempty (dec.cross),
               explore_string (dec.source), explore_string (dec.tokens),
               strjoin (top, ","), explore_numbers (dec.topp, digits),
               strjoin (cross, ",\n"), explore_string (dec.nocross));
endfunction
