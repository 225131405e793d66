## -*- texinfo -*-
## @deftypefn  {} {@var{tok} =} tok_bpe ("files", @var{vocab}, @var{merges}, @var{where})
## @deftypefnx {} {[@var{ids}, @var{spans}] =} tok_bpe ("encode", @var{tok}, @var{text})
## @deftypefnx {} {@var{text} =} tok_bpe ("decode", @var{tok}, @var{ids})
## Byte-level BPE, as GPT-2 has it.
##
## @qcode{"files"}: the tokenizer of a vocabulary and its merges.
## @var{vocab} is the decoded @file{vocab.json} (a struct whose field names
## are the byte-level tokens, values the 0-based ids); @var{merges} the
## merges in rank order: the text of @file{merges.txt}, or
## @file{tokenizer.json}'s list of "left right" strings or of pairs.  @var{where} names
## the files in error messages.
##
## @qcode{"encode"}: the 1-based ids of the UTF-8 char row @var{text} and
## the byte span [first, last] of each (n×2), in one pass over all the
## text's words: GPT-2's pre-tokenizer splits the text into words, each
## distinct word is segmented once, by applying in every word at once the
## lowest-ranked merge that word holds until none applies.
##
## @qcode{"decode"}: the bytes of the ids, as one char row.
## @end deftypefn

function varargout = tok_bpe (action, varargin)
  switch (action)
    case "files"
      varargout = {load_bpe(varargin{:})};
    case "encode"
      [varargout{1:2}] = encode (varargin{:});
    case "decode"
      tok = varargin{1};
      ids = varargin{2};
      varargout = {tok_join(tok.flat, tok.nbytes, ids, false (size (ids)))};
  endswitch
endfunction

## GPT-2's bytes_to_unicode: the printable bytes stand for themselves, the
## other 68 bytes for the code points 256, 257, ... in byte order
function cp = byte_chars ()
  cp = 0:255;
  other = [0:32, 127:160, 173];
  cp(other + 1) = 256 + (0:numel (other) - 1);
endfunction

function tok = load_bpe (vocab, merges, where)
  keys = tok_vocab (vocab, where);
  V = numel (keys);
  [left, right, joined] = merge_pairs (merges, where);
  [hit_left, left] = ismember (left, keys);
  [hit_right, right] = ismember (right, keys);
  [hit_joined, joined] = ismember (joined, keys);
  bad = find (! (hit_left & hit_right & hit_joined), 1);
  if (! isempty (bad))
    error ("attention:file", "%s: merge %d joins tokens that are not all in the vocabulary",
           where, bad);
  endif
  [flat, nbytes, single] = token_bytes (keys);
  byte_id = zeros (1, 256);
  byte_id(double (flat(cumsum (nbytes)(single))) + 1) = find (single);
  if (any (byte_id == 0))
    error ("attention:file", "%s: the vocabulary lacks the byte-level token of byte %d",
           where, find (byte_id == 0, 1) - 1);
  endif
  [merge_key, order] = sort (left * (V + 1) + right);
  rank = 1:numel (left);
  tok = struct ("kind", "bpe", "pieces", {readable(flat, nbytes)}, "flat", flat,
                "nbytes", nbytes,
                "byte_id", byte_id, "merge_key", merge_key, "merge_rank", rank(order),
                "merge_id", joined);
endfunction

## the merges as rows of tokens (1×R cells): merges.txt's text (after an
## optional #version line, one "left right" a line), or tokenizer.json's
## list of such strings or of pairs
function [left, right, joined] = merge_pairs (merges, where)
  if (iscell (merges) && ! iscellstr (merges))
    if (! all (cellfun ("isclass", merges, "cell")))
      error ("attention:file", "%s: the merges must be strings or pairs of strings", where);
    endif
    pairs = [merges{:}];
    if (! (iscellstr (pairs) && numel (pairs) == 2 * numel (merges)))
      error ("attention:file", "%s: the merges must be strings or pairs of strings", where);
    endif
    left = pairs(1:2:end);
    right = pairs(2:2:end);
    joined = strcat (left, right);
    return;
  elseif (iscellstr (merges))
    merges = strjoin (merges(:)', "\n");
  endif
  text = strrep (merges, "\r", "");
  nl = find (text == "\n");
  from = [1, nl + 1];
  to = [nl - 1, numel(text)];
  keep = to >= from & ! strncmp (cellslices (text, from, min (to, from + 7), 2), "#version", 8);
  from = from(keep);
  to = to(keep);
  sp = find (text == " ");
  k = lookup (sp, from - 0.5) + 1;                 # the first space at or after each line's start
  count = lookup (sp, to) - k + 1;                 # spaces in the line
  bad = find (count != 1, 1);
  if (isempty (bad))
    bad = find (sp(min (k, numel (sp))) == from | sp(min (k, numel (sp))) == to, 1);
  endif
  if (! isempty (bad))
    error ("attention:file", "%s: line \"%s\" is not two tokens separated by one space",
           where, text(from(bad):to(bad)));
  endif
  at = sp(k);
  left = cellslices (text, from, at - 1, 2);
  right = cellslices (text, at + 1, to, 2);
  text(at) = [];                                   # each line's two tokens joined
  R = numel (at);
  joined = cellslices (text, from - (0:R-1), to - (1:R), 2);
endfunction

## the bytes each byte-level token stands for, all in one char row, and the
## count of each; a token with a character outside the 256 (an added token
## such as <|endoftext|> may have any) stands for its own UTF-8 text.
## single: the tokens of one byte-level character
function [flat, nbytes, single] = token_bytes (keys)
  table = -ones (1, 324);
  table(byte_chars () + 1) = 0:255;
  joined = [keys{:}];
  key = tok_repeat (cellfun ("length", keys));   # the key of each byte
  [cp, first] = tok_utf8 ("decode", joined);
  b = -ones (size (cp));
  b(cp < 324) = table(cp(cp < 324) + 1);
  raw = false (size (keys));
  raw(key(first(b < 0))) = true;
  nchars = accumarray (key(first)', 1, [numel(keys), 1])';
  single = nchars == 1 & ! raw;
  ## a byte-level character becomes its byte, in place of its first byte
  keep = raw(key);
  keep(first(! raw(key(first)))) = true;
  mapped = ! raw(key(first));
  joined(first(mapped)) = char (b(mapped));
  flat = joined(keep);
  nbytes = accumarray (key(keep)', 1, [numel(keys), 1])';
endfunction

## each token as text: its bytes when they are UTF-8 on their own, else with
## every byte above 127 written <0xNN>
function pieces = readable (flat, nbytes)
  pieces = mat2cell (flat, 1, nbytes);
  cut = ! tok_utf8 ("valid", pieces);
  pieces(cut) = cellfun (@hex_high, pieces(cut), "uniformoutput", false);
endfunction

function s = hex_high (b)
  s = num2cell (b);
  high = b > 127;
  s(high) = arrayfun (@(x) sprintf ("<0x%02X>", x), double (b(high)), "uniformoutput", false);
  s = [s{:}];
endfunction

function [ids, spans] = encode (tok, text)
  [s, e] = pretokenize (text);
  [first, which] = tok_words (text, s, e);
  len = e(first) - s(first) + 1;
  word = tok_repeat (len);
  at = (cumsum (len) - len);
  sym = tok.byte_id(double (text(s(first)(word) + (1:numel (word)) - at(word) - 1)) + 1);
  [sym, word] = merge_all (tok, sym, word);
  ## each word of the text takes its distinct word's tokens
  count = accumarray (word', 1, [numel(first), 1])';
  from = cumsum ([1, count(1:end-1)]);
  n = count(which);
  [slot, k] = tok_repeat (n);
  ids = sym(from(which)(slot) + k);
  last = cumsum (tok.nbytes(ids));
  spans = [last - tok.nbytes(ids) + 1; last]';
endfunction

## Every word (word(k) is the word of symbol k, words in order) merged to
## the end: in each round, in every word, each left-to-right occurrence of
## the lowest-ranked pair it holds becomes the merged token; a word with no
## pair to merge is set aside.
function [sym, word] = merge_all (tok, sym, word)
  V1 = numel (tok.pieces) + 1;
  done_sym = done_word = {};
  while (! isempty (sym))
    at = find (word(1:end-1) == word(2:end));
    key = sym(at) * V1 + sym(at + 1);
    k = lookup (tok.merge_key, key);
    hit = k > 0;
    hit(hit) = tok.merge_key(k(hit)) == key(hit);
    at = at(hit);
    rank = tok.merge_rank(k(hit));
    live = false (1, word(end));
    live(word(at)) = true;
    finished = ! live(word);
    done_sym{end+1} = sym(finished);
    done_word{end+1} = word(finished);
    if (isempty (at))
      break;
    endif
    best = accumarray (word(at)', rank', [word(end), 1], @min)';
    pick = rank == best(word(at));
    at = at(pick);
    rank = rank(pick);
    ## a run of the same pair overlapping itself (a a a): every other one
    run = [true, diff(at) != 1];
    starts = find (run);
    offset = (1:numel (at)) - starts(cumsum (run));
    keep = mod (offset, 2) == 0;
    at = at(keep);
    sym(at) = tok.merge_id(rank(keep));
    gone = false (size (sym));
    gone(at + 1) = true;
    keep_sym = ! gone & ! finished;
    sym = sym(keep_sym);
    word = word(keep_sym);
  endwhile
  sym = [done_sym{:}];
  [word, order] = sort ([done_word{:}]);
  sym = sym(order);
endfunction

## GPT-2's pre-tokenizer, the regular expression
##   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
## worked out on character classes (an Octave regexp makes an Octave value
## per match, 3 s for 1 MB): runs of letters, numbers, white space or other
## characters; a white-space run before another run leaves its last
## character to that run when it is a space (else to itself); an
## apostrophe alone before s, t, m, d, re, ve or ll takes those letters.
## The spans tile the text.
function [s, e] = pretokenize (text)
  if (isempty (text))
    s = e = zeros (1, 0);
    return;
  endif
  [cp, first] = tok_utf8 ("decode", text);
  cls = tok_class (cp);
  kind = 4 * ones (size (cp));                   # 1 letter, 2 number, 3 space, 4 other
  kind(cls == 1) = 1;
  kind(cls == 2) = 2;
  kind(tok_space (cp)) = 3;
  n = numel (cp);
  start = [true, kind(2:end) != kind(1:end-1)];
  run_end = find ([start(2:end), true]);
  ## white space before another run
  last = run_end(kind(run_end) == 3 & run_end < n);
  start(last) = true;
  start(last(cp(last) == 32) + 1) = false;
  ## contractions: an apostrophe run of one, still a start, before letters
  q = find (start & cp == 39 & [kind(2:end) == 1 & start(2:end), false]);
  c1 = cp(q + 1);
  c2 = [cp, 0](q + 2);
  two = (c1 == 'r' | c1 == 'v') & c2 == 'e' | c1 == 'l' & c2 == 'l';
  one = ismember (c1, double ("stmd"));
  q = q(one | two);
  len = 1 + two(one | two);
  start(q + 1) = false;
  start(q + 1 + len) = true;
  start = start(1:n);
  s = first(start);
  e = [s(2:end) - 1, numel(text)];
endfunction

%!shared tok
%! ## the 256 byte tokens (GPT-2's characters for them) and four merges
%! cp = 0:255;
%! other = [0:32, 127:160, 173];
%! cp(other + 1) = 256 + (0:67);
%! keys = [arrayfun(@(c) tok_utf8 ("encode", c), cp, "uniformoutput", false), ...
%!         {"th", "the", "\xC4\xA0the", "'s"}];
%! vocab = cell2struct (num2cell (0:numel (keys) - 1), keys, 2);
%! tok = tok_bpe ("files", vocab, "#version: 0.2\nt h\nth e\n\xC4\xA0 the\n' s\n", "test");
%!test
%! ## a space joins the word after it, also the last space of a run; an
%! ## apostrophe alone before s takes it
%! [ids, spans] = tok_bpe ("encode", tok, "the  the's the 's");
%! assert (tok.pieces(ids), {"the", " ", " the", "'s", " the", " ", "'", "s"});
%! assert (spans(:, 2)', [3 4 8 10 14 15 16 17]);
%! assert (tok_bpe ("decode", tok, ids), "the  the's the 's");
%!test
%! ## overlapping pairs merge left to right
%! [ids, ~] = tok_bpe ("encode", tok, "ttthhh");
%! assert (tok.pieces(ids), {"t", "t", "th", "h", "h"});
%!error <test: merge 1 joins tokens> tok_bpe ("files", struct ("a", 0), "a b\n", "test")
