## -*- texinfo -*-
## @deftypefn  {} {@var{tok} =} tok_bpe ("files", @var{vocab}, @var{merges}, @var{where})
## @deftypefnx {} {[@var{ids}, @var{spans}] =} tok_bpe ("encode", @var{tok}, @var{text})
## @deftypefnx {} {@var{text} =} tok_bpe ("decode", @var{tok}, @var{ids})
## @deftypefnx {} {[@var{key}, @var{rank}, @var{id}] =} tok_bpe ("table", @var{keys}, @var{merges}, @var{where})
## @deftypefnx {} {[@var{sym}, @var{word}] =} tok_bpe ("merge", @var{tok}, @var{sym}, @var{word})
## Byte-level BPE, as GPT-2 has it, and the merging of every BPE.
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
##
## @qcode{"table"}: the merges of the tokens @var{keys} (1×V cell, id
## order) as a sorted table: @var{key} = left id × (V+1) + right id, the
## merge's @var{rank} and the @var{id} of the token it makes (both in
## the order of @var{key}).
## @qcode{"merge"}: the symbols @var{sym} (ids; ids above V never merge)
## of the words @var{word} (word of each symbol, in order) merged as BPE
## merges: always the pair of lowest rank, the leftmost among equals
## (@code{tok.merge_key}, @code{merge_rank}, @code{merge_id}).
##
## With @code{tok.digits} 1 every number character is a word of its own
## (Hugging Face's Digits pre-tokenizer with individual digits, before
## ByteLevel), with 2 every run of them.
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
    case "table"
      [varargout{1:3}] = merge_table (varargin{:});
    case "merge"
      [varargout{1:2}] = merge_all (varargin{:});
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
  [merge_key, merge_rank, merge_id] = merge_table (keys, merges, where);
  [flat, nbytes, single] = token_bytes (keys);
  byte_id = zeros (1, 256);
  byte_id(double (flat(cumsum (nbytes)(single))) + 1) = find (single);
  if (any (byte_id == 0))
    error ("attention:file", "%s: the vocabulary lacks the byte-level token of byte %d",
           where, find (byte_id == 0, 1) - 1);
  endif
  tok = struct ("kind", "bpe", "pieces", {readable(flat, nbytes)}, "flat", flat,
                "nbytes", nbytes,
                "byte_id", byte_id, "merge_key", merge_key, "merge_rank", merge_rank,
                "merge_id", merge_id, "digits", 0);
endfunction

function [merge_key, merge_rank, merge_id] = merge_table (keys, merges, where)
  V = numel (keys);
  [left, right, joined] = merge_pairs (merges, where);
  [hit_left, left] = ismember (left, keys);
  [hit_right, right] = ismember (right, keys);
  [hit_joined, merge_id] = ismember (joined, keys);
  bad = find (! (hit_left & hit_right & hit_joined), 1);
  if (! isempty (bad))
    error ("attention:file", "%s: merge %d joins tokens that are not all in the vocabulary",
           where, bad);
  endif
  [merge_key, order] = sort (left * (V + 1) + right);
  merge_rank = order;                              # a merge's rank is its place in the list
  merge_id = merge_id(order);
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
    ## the strings side by side (a token may hold a line break)
    len = cellfun ("length", merges(:)');
    text = [merges{:}];
    to = cumsum (len);
    from = to - len + 1;
  else
    text = strrep (merges, "\r", "");
    nl = find (text == "\n");
    from = [1, nl + 1];
    to = [nl - 1, numel(text)];
    keep = to >= from & ! strncmp (cellslices (text, from, min (to, from + 7), 2), "#version", 8);
    from = from(keep);
    to = to(keep);
  endif
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
  [s, e] = pretokenize (text, tok.digits);
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
## the end, as BPE does it one merge at a time (the pair of lowest rank,
## the leftmost among equals) but in rounds: in each round, in every word,
## the left-to-right occurrences of the lowest-ranked pair it holds become
## the merged token, up to the first whose new neighbour pairs rank as low
## (the one-at-a-time order would take that pair next); a word with no pair
## to merge is set aside.
function [sym, word] = merge_all (tok, sym, word)
  V = numel (tok.pieces);
  done_sym = done_word = {};
  while (! isempty (sym))
    at = find (word(1:end-1) == word(2:end) & sym(1:end-1) <= V & sym(2:end) <= V);
    [rank, hit, k] = pair_rank (tok, sym(at), sym(at + 1));
    at = at(hit);
    rank = rank(hit);
    k = k(hit);
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
    k = k(pick);
    ## a run of the same pair overlapping itself (a a a): every other one
    run = [true, diff(at) != 1];
    starts = find (run);
    offset = (1:numel (at)) - starts(cumsum (run));
    keep = mod (offset, 2) == 0;
    at = at(keep);
    made = tok.merge_id(k(keep));
    [at, made] = first_merges (tok, sym, word, at, made, best);
    sym(at) = made;
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

## the rank of each pair (left(k), right(k)) of ids, and whether it is a
## merge at all
function [rank, hit, k] = pair_rank (tok, left, right)
  V1 = numel (tok.pieces) + 1;
  key = left * V1 + right;
  k = lookup (tok.merge_key, key);
  hit = k > 0;
  hit(hit) = tok.merge_key(k(hit)) == key(hit);
  rank = Inf (size (key));
  rank(hit) = tok.merge_rank(k(hit));
endfunction

## the merges at places AT (making tokens MADE) a round may apply: in each
## word, those up to the first one after which a new pair (its token with
## the token on its left, or with the symbol on its right) ranks no higher
## than the round's pair, unless it is the word's last
function [at, made] = first_merges (tok, sym, word, at, made, best)
  w = word(at);
  n = numel (sym);
  V = numel (tok.pieces);
  ## the left neighbour as it is then: the token made just before, if the
  ## merge before ends there
  left = zeros (size (at));
  has_left = at > 1;
  has_left(has_left) = word(at(has_left) - 1) == w(has_left);
  left(has_left) = sym(at(has_left) - 1);
  chained = [false, at(2:end) == at(1:end-1) + 2] & has_left;
  left(chained) = made(find (chained) - 1);
  right = zeros (size (at));
  has_right = at + 2 <= n;
  has_right(has_right) = word(at(has_right) + 2) == w(has_right);
  right(has_right) = sym(at(has_right) + 2);
  low = Inf (size (at));
  ok = has_left & left <= V;
  low(ok) = pair_rank (tok, left(ok), made(ok));
  ok = has_right & right <= V;
  low(ok) = min (low(ok), pair_rank (tok, made(ok), right(ok)));
  last = [w(2:end) != w(1:end-1), true];
  clash = low <= best(w) & ! last;
  if (any (clash))
    ## drop the merges after a word's first clash
    cut = accumarray (w(clash)', find (clash)', [max(w), 1], @min, Inf)';
    keep = (1:numel (at)) <= cut(w);
    at = at(keep);
    made = made(keep);
  endif
endfunction

## GPT-2's pre-tokenizer, the regular expression
##   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
## worked out on character classes (an Octave regexp makes an Octave value
## per match, 3 s for 1 MB): runs of letters, numbers, white space or other
## characters; a white-space run before another run leaves its last
## character to that run when it is a space (else to itself); an
## apostrophe alone before s, t, m, d, re, ve or ll takes those letters.
## With DIGITS (1 each number character, 2 each run of them) the numbers
## are cut out first and the expression runs on the pieces between them:
## a white-space run before a number ends its piece whole.  The spans tile
## the text.
function [s, e] = pretokenize (text, digits)
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
  if (digits)
    kind(kind == 2) = 5;                         # numbers: pieces of their own
  endif
  n = numel (cp);
  start = [true, kind(2:end) != kind(1:end-1)];
  if (digits == 1)
    start(kind == 5) = true;
  endif
  run_end = find ([start(2:end), true]);
  ## white space before another run (not a number's: the piece ends there)
  last = run_end(kind(run_end) == 3 & run_end < n);
  last = last(kind(last + 1) != 5);
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
