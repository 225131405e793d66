## -*- texinfo -*-
## @deftypefn  {} {@var{tok} =} tok_unigram ("file", @var{bytes}, @var{where}, @var{vocab}, @var{vocab_where})
## @deftypefnx {} {[@var{ids}, @var{spans}] =} tok_unigram ("encode", @var{tok}, @var{text})
## @deftypefnx {} {@var{text} =} tok_unigram ("decode", @var{tok}, @var{ids})
## @deftypefnx {} {[@var{norm}, @var{n2o}] =} tok_unigram ("normalize", @var{tok}, @var{text})
## @deftypefnx {} {[@var{ids}, @var{spans}] =} tok_unigram ("finish", @var{tok}, @var{ids}, @var{from}, @var{to}, @var{norm}, @var{n2o})
## SentencePiece's unigram model, as its C++ library encodes and decodes,
## and the model files and normalisation of SentencePiece's BPE models.
##
## @qcode{"file"}: the tokenizer of a SentencePiece model file (its bytes,
## a protocol buffer ModelProto: the pieces with scores and types, the
## trainer's model type and byte fallback, the normaliser's compiled rules
## and white-space switches).  With @var{vocab} (Marian's decoded
## @file{vocab.json}, piece to 0-based id) the ids are that vocabulary's and
## a piece it lacks is its @code{<unk>}; with @var{vocab} empty they are the
## model's.  A BPE model (model_type 2) becomes @code{tok_spbpe}'s
## tokenizer.
##
## @qcode{"encode"}: the text normalised (the longest rule of the compiled
## rule table at each place, white space runs made one space, none at the
## ends, @qcode{"▁"} for each space and in front), cut before each
## @qcode{"▁"} into words, and every distinct word segmented by Viterbi on
## the piece scores (in single precision, as SentencePiece): all words at
## once, one end position at a time.  A character no piece covers is an
## unknown node scored 10 below the lowest piece; a run of unknown pieces
## is merged into one, or with byte fallback each is spelled as byte pieces
## @code{<0xNN>}.  Spans map back through the normalisation to bytes of the
## original text.
##
## @qcode{"decode"}: pieces joined, @qcode{"▁"} made a space, byte pieces
## made bytes (a byte that ends no valid character becomes U+FFFD),
## @code{<unk>} written @qcode{" ⁇ "}, control pieces dropped, the leading
## space of the dummy prefix removed.
##
## @qcode{"normalize"}: the normalised text and, for each of its bytes and
## one past its end, the 0-based offset in @var{text} it came from.
## @qcode{"finish"}: the pieces a segmentation found (model ids, first and
## last byte in the normalised text) as output ids and spans of
## @var{text}: unknown pieces spelled in byte pieces or (@code{tok.fuse_unk})
## runs of them made one.
## @end deftypefn

function varargout = tok_unigram (action, varargin)
  switch (action)
    case "file"
      varargout = {load_unigram(varargin{:})};
    case "encode"
      [varargout{1:2}] = encode (varargin{:});
    case "decode"
      varargout = {decode(varargin{:})};
    case "normalize"
      [varargout{1:2}] = normalize (varargin{:});
    case "finish"
      [varargout{1:2}] = finish (varargin{:});
  endswitch
endfunction

## piece types of ModelProto.SentencePiece
function t = types ()
  t = struct ("normal", 1, "unknown", 2, "control", 3, "user", 4, "unused", 5, "byte", 6);
endfunction

function tok = load_unigram (bytes, where, vocab, vocab_where)
  bytes = uint8 (bytes(:)');
  top = proto_fields (bytes, where);
  [pieces, scores, kind] = proto_pieces (bytes, top(:, top(1, :) == 1), where);
  trainer = sub_fields (bytes, top, 2, where);
  norm = sub_fields (bytes, top, 3, where);
  model_type = proto_int (trainer, 3, 1);
  if (! any (model_type == [1 2]))
    error ("attention:file", "%s: the model is not a unigram or BPE model (model_type %d)",
           where, model_type);
  endif
  if (proto_int (trainer, 24, 0))
    error ("attention:file", "%s: treat_whitespace_as_suffix is not read", where);
  endif
  T = types ();
  unk = find (kind == T.unknown, 1);
  if (isempty (unk))
    error ("attention:file", "%s: the model has no unknown piece", where);
  endif
  byte_model = zeros (1, 256);
  is_byte = kind == T.byte;
  byte_value = sscanf (strjoin (pieces(is_byte), " "), "<0x%2x> ")';
  byte_model(byte_value + 1) = find (is_byte);
  fallback = logical (proto_int (trainer, 35, 0));
  if (fallback && any (byte_model == 0))
    error ("attention:file", "%s: byte fallback without the 256 byte pieces", where);
  endif
  charsmap = field_bytes (bytes, norm, 2);
  [trie, blob] = charsmap_parts (charsmap, where);
  tok = struct ("kind", "unigram", "pieces", {pieces}, "model_pieces", {pieces},
                "score", single (scores), "type", kind, "unk_model", unk,
                "byte_model", byte_model, "byte_fallback", fallback,
                "fuse_unk", ! fallback,
                "trie", trie, "blob", blob,
                "dummy_prefix", logical (proto_int (norm, 3, 1)),
                "remove_spaces", logical (proto_int (norm, 4, 1)),
                "escape_spaces", logical (proto_int (norm, 5, 1)),
                "out_id", 1:numel (pieces), "model_id", 1:numel (pieces));
  [tok.decoded, tok.decoded_nbytes] = decoded_pieces (pieces, kind, byte_model);
  if (model_type == 2)
    if (! isempty (vocab))
      error ("attention:file", "%s: a vocabulary file is read with unigram models only", vocab_where);
    endif
    tok.fuse_unk = false;                        # BPE spells each unknown character
    tok = tok_spbpe ("model", tok, where);
    return;
  endif
  ## the pieces the lattice matches, and every prefix of them: the trie
  ## walked one character at a time for all places of a text at once
  normal = kind == T.normal;
  matched = find (normal | kind == T.user);
  score = tok.score;
  user = kind == T.user;
  nchars = tok_utf8 ("count", pieces);
  score(user) = single (nchars(user)) * max (score(normal)) - single (0.1);
  tok.score = score;
  tok.unk_score = min (score(normal)) - single (10);
  [tok.trie_key, tok.trie_node, tok.trie_piece] = prefix_table (pieces(matched), matched);
  tok.longest = max ([nchars(matched), 1]);
  ## a "▁" inside a piece: words cannot be cut at "▁"
  space = "\xE2\x96\x81";
  joined = [pieces(matched){:}];
  len = cellfun ("length", pieces(matched));
  tok.whole = ! all (ismember (strfind (joined, space), cumsum (len) - len + 1));
  if (! isempty (vocab))
    tok = with_vocab (tok, vocab, vocab_where);
  endif
endfunction

## Marian's vocab.json: the ids are its ids, a piece it lacks is its <unk>
function tok = with_vocab (tok, vocab, where)
  words = tok_vocab (vocab, where);
  unk = find (strcmp (words, tok.model_pieces{tok.unk_model}), 1);
  if (isempty (unk))
    error ("attention:file", "%s: the vocabulary has no \"%s\"", where,
           tok.model_pieces{tok.unk_model});
  endif
  [has, out_id] = ismember (tok.model_pieces, words);
  out_id(! has) = unk;
  [~, model_id] = ismember (words, tok.model_pieces);
  tok.pieces = words;
  tok.out_id = out_id;
  tok.model_id = model_id;
endfunction

## The pieces as a trie: every prefix of a piece (ending at a character
## boundary) is a node, numbered 1, 2, ... (the root is 0); key (sorted)
## is a node's parent's number times 2^21 plus its last character, node
## the number of the node with that key, piece the model id of the piece
## each node is (0 if none).
function [key, node, piece] = prefix_table (pieces, ids)
  joined = [pieces{:}];
  len = cellfun ("length", pieces);
  owner = tok_repeat (len);
  base = cumsum (len) - len;
  [cp, first] = tok_utf8 ("decode", joined);
  char_at = zeros (size (joined));
  char_at(first) = cp;
  last_lead = cummax ((1:numel (joined)) .* (bitand (double (joined), 192) != 128));
  ends = find (bitand (double ([joined(2:end), "a"]), 192) != 128);   # last bytes of characters
  start = base(owner(ends)) + 1;
  [prefixes, at] = unique (cellslices (joined, start, ends, 2));
  ends = ends(at);
  start = start(at);
  [~, parent] = ismember (cellslices (joined, start, last_lead(ends) - 1, 2), prefixes);
  [key, node] = sort (parent * 2^21 + char_at(last_lead(ends)));
  piece = zeros (size (prefixes));
  [is_piece, k] = ismember (prefixes, pieces);
  piece(is_piece) = ids(k(is_piece));
endfunction

## The fields of the protocol buffer message in bytes(from:to), one column
## each: field number, wire type, then the value (varint) or the first and
## last byte of the payload (length-delimited, 32- and 64-bit).
function f = proto_fields (bytes, where, from = 1, to = numel (bytes))
  f = zeros (4, 0);
  at = from;
  while (at <= to)
    [tag, at] = varint (bytes, at, to, where);
    wire = mod (tag, 8);
    switch (wire)
      case 0
        [v, at] = varint (bytes, at, to, where);
        f(:, end+1) = [floor(tag / 8); 0; v; 0];
        continue;
      case 2
        [len, at] = varint (bytes, at, to, where);
      case 5
        len = 4;
      case 1
        len = 8;
      otherwise
        error ("attention:file", "%s: not a SentencePiece model (wire type %d at byte %d)",
               where, wire, at);
    endswitch
    if (at + len - 1 > to)
      error ("attention:file", "%s: not a SentencePiece model (a field runs past its end)", where);
    endif
    f(:, end+1) = [floor(tag / 8); wire; at; at + len - 1];
    at += len;
  endwhile
endfunction

function [v, at] = varint (bytes, at, to, where)
  v = 0;
  scale = 1;
  do
    if (at > to || scale > 2^63)
      error ("attention:file", "%s: not a SentencePiece model (a number is cut short)", where);
    endif
    b = double (bytes(at));
    v += mod (b, 128) * scale;
    scale *= 128;
    at += 1;
  until (b < 128)
endfunction

## the fields of the last field NUMBER of the message (none if absent)
function f = sub_fields (bytes, top, number, where)
  k = find (top(1, :) == number & top(2, :) == 2, 1, "last");
  if (isempty (k))
    f = zeros (4, 0);
  else
    f = proto_fields (bytes, where, top(3, k), top(4, k));
  endif
endfunction

## the last varint field NUMBER, or default
function v = proto_int (f, number, default)
  k = find (f(1, :) == number & f(2, :) == 0, 1, "last");
  v = default;
  if (! isempty (k))
    v = f(3, k);
  endif
endfunction

## the payload of the last length-delimited field NUMBER (empty if absent)
function b = field_bytes (bytes, f, number)
  k = find (f(1, :) == number & f(2, :) == 2, 1, "last");
  b = uint8 ([]);
  if (! isempty (k))
    b = bytes(f(3, k):f(4, k));
  endif
endfunction

## ModelProto.pieces: piece text (field 1), score (2, float), type (3,
## default NORMAL); pieces laid out as SentencePiece writes them are read
## all at once, any other through the general parser
function [pieces, scores, kind] = proto_pieces (bytes, msgs, where)
  n = columns (msgs);
  from = msgs(3, :);
  to = msgs(4, :);
  b = double ([bytes, zeros(1, 8, "uint8")]);
  len = b(from + 1);
  after = from + 2 + len;                          # the byte after the piece text
  plain = b(from) == 10 & len < 128 & b(min (after, numel (b))) == 21;
  with_type = plain & to == after + 6 & b(min (after + 5, numel (b))) == 24 ...
              & b(min (after + 6, numel (b))) < 128;
  plain &= to == after + 4 | with_type;
  pieces = cellslices (char (bytes), min (from + 2, to + 1), min (after - 1, to), 2);
  scores = zeros (1, n);
  kind = ones (1, n);
  k = find (plain)(:)';
  at = after(k) + 1 + (0:3)';
  scores(k) = double (typecast (uint8 (b(at(:))), "single"))';
  kind(with_type) = b(after(with_type) + 6);
  for k = find (! plain)(:)'
    f = proto_fields (bytes, where, from(k), to(k));
    text = field_bytes (bytes, f, 1);
    pieces{k} = char (text(:)');
    kind(k) = proto_int (f, 3, 1);
    s = find (f(1, :) == 2 & f(2, :) == 5, 1, "last");
    if (! isempty (s))
      scores(k) = double (typecast (bytes(f(3, s):f(4, s)), "single"));
    endif
  endfor
  bad = find (! tok_utf8 ("valid", pieces) | cellfun ("isempty", pieces), 1);
  if (! isempty (bad))
    error ("attention:file", "%s: piece %d is empty or not UTF-8", where, bad);
  endif
endfunction

## the compiled normalisation rules: a Darts double-array trie (uint32
## units) over the source bytes, whose values point into blob, the
## NUL-terminated replacements
function [trie, blob] = charsmap_parts (map, where)
  trie = zeros (1, 0);
  blob = "";
  if (isempty (map))
    return;
  endif
  size_ = double (typecast (map(1:4), "uint32"));
  if (numel (map) < 4 + size_ || mod (size_, 4) != 0)
    error ("attention:file", "%s: the normalisation rules are cut short", where);
  endif
  trie = double (typecast (map(5:4+size_), "uint32"));
  blob = char (map(5+size_:end));
endfunction

## For each start (a byte of text), the longest rule of the trie that
## matches there: its length in bytes (0 for none) and its value (the
## replacement's offset in the blob): Darts' common prefix search, walked
## for all starts at once.
function [mlen, mval] = trie_longest (trie, text, starts)
  mlen = mval = zeros (size (starts));
  if (isempty (trie))
    return;
  endif
  offset = @(u) floor (u / 1024) .* (1 + 255 * (bitand (u, 512) != 0));   # (u >> 10) << ((u & 512) >> 6)
  b = double (text);
  node = repmat (offset (trie(1)), size (starts));
  live = 1:numel (starts);
  depth = 0;
  while (! isempty (live))
    ## rows throughout (a scalar indexed by an empty index keeps the
    ## index's shape)
    at = starts(live) + depth;
    live = live(at <= numel (b))(:)';
    c = b(starts(live) + depth)(:)';
    next = bitxor (node(live)(:)', c);
    in = next < numel (trie);
    live = live(in)(:)';
    c = c(in)(:)';
    next = next(in)(:)';
    unit = trie(next + 1)(:)';
    same = bitand (unit, 2^31 + 255) == c;
    live = live(same)(:)';
    unit = unit(same)(:)';
    node(live) = bitxor (next(same)(:)', offset (unit));
    leaf = bitand (unit, 256) != 0;
    mlen(live(leaf)) = depth + 1;
    mval(live(leaf)) = bitand (trie(node(live(leaf)) + 1), 2^31 - 1);
    depth += 1;
  endwhile
endfunction

## The normalised text and, for each of its bytes and one past the end, the
## 0-based offset in text of the chunk it came from (SentencePiece's
## norm_to_orig).  A chunk is the longest rule at its place, or one
## character.
function [norm, n2o] = normalize (tok, text)
  n = numel (text);
  [~, first] = tok_utf8 ("decode", text);
  clen = diff ([first, n + 1]);
  [mlen, mval] = trie_longest (tok.trie, text, first);
  ## chunks left to right: a rule longer than its character hides the
  ## characters it covers (rare: walked one by one)
  chunk = true (size (first));
  for k = find (mlen > clen)
    if (chunk(k))
      chunk(first > first(k) & first < first(k) + mlen(k)) = false;
    endif
  endfor
  k = find (chunk);
  rule = mlen(k) > 0;
  ## each chunk's output: its rule's replacement (up to a NUL) or itself
  src = [text, tok.blob, "\0"];
  nul = find (src == "\0" & (1:numel (src)) > n);
  from = first(k);
  len = clen(k);
  from(rule) = n + mval(k(rule)) + 1;
  len(rule) = nul(lookup (nul, from(rule) - 1) + 1) - from(rule);
  [owner, place] = tok_repeat (len);
  out = src(from(owner) + place);
  orig = first(k) - 1;                             # each chunk's 0-based offset
  if (tok.remove_spaces)
    ## chunks all spaces at the start are consumed; after that, a chunk's
    ## leading spaces go when the text so far ends with a space
    space = out == " ";
    nk = numel (k);
    nonempty = accumarray (owner', 1, [nk, 1])' > 0;
    solid = accumarray (owner', ! space', [nk, 1])' > 0;       # holds a non-space
    one_space = accumarray (owner', 1, [nk, 1])' == 1 & nonempty & ! solid;
    lead = find (! one_space, 1);                  # the first chunk that is not " "
    if (isempty (lead))
      norm = "";
      n2o = n;
      return;
    endif
    ends_space = false (1, nk);
    ends_space(owner) = space;                     # the last byte of each chunk
    ## the text so far ends with a space when the last chunk with a
    ## non-space ended with one, or a chunk of spaces came after it, or
    ## there is none
    last_solid = [0, cummax((1:nk-1) .* solid(1:end-1))];
    spaces = cumsum (nonempty & ! solid);
    spaces_before = [0, spaces(1:end-1)];
    prev_space = last_solid == 0;
    has = ! prev_space;
    prev_space(has) = ends_space(last_solid(has)) ...
                      | spaces_before(has) > spaces(last_solid(has));
    leading = space & cummin_within (space, owner);
    drop = leading & prev_space(owner) | owner < lead;
    consumed = orig(lead);
    out = out(! drop);
    owner = owner(! drop);
    ## no space at the end
    last = find (out != " ", 1, "last");
    final = n;
    if (last < numel (out))
      final = orig(owner(last + 1));
    endif
    out = out(1:last);
    owner = owner(1:last);
  else
    consumed = 0;
    final = n;
  endif
  map = orig(owner);
  if (tok.escape_spaces)
    space = out == " ";
    count = 1 + 2 * space;
    slot = tok_repeat (count);
    out = out(slot);
    map = map(slot);
    at = find (space(slot));
    out(at) = repmat ("\xE2\x96\x81", 1, numel (at) / 3);
  endif
  if (tok.dummy_prefix && ! isempty (out))
    mark = " ";
    if (tok.escape_spaces)
      mark = "\xE2\x96\x81";
    endif
    out = [mark, out];
    map = [repmat(consumed, 1, numel (mark)), map];
  endif
  norm = out;
  n2o = [map, final];
endfunction

## true where x is true and every earlier element of its group (groups are
## runs of equal values of g) is true too
function tf = cummin_within (x, g)
  start = [true, g(2:end) != g(1:end-1)];
  breaks = cumsum (! x);                           # falses so far
  at_start = breaks - ! x;                         # falses before each element
  first = find (start);
  tf = x & breaks == at_start(first(cumsum (start)));
endfunction

function [ids, spans] = encode (tok, text)
  [norm, n2o] = normalize (tok, text);
  if (isempty (norm))
    ids = zeros (1, 0);
    spans = zeros (0, 2);
    return;
  endif
  ## words: from each "▁" to the next (no piece holds one inside it)
  if (tok.whole)
    ws = 1;
  else
    ws = unique ([1, strfind(norm, "\xE2\x96\x81")]);
  endif
  we = [ws(2:end) - 1, numel(norm)];
  [rep, which] = tok_words (norm, ws, we);
  [pid, pfrom, pto, pword] = viterbi (tok, norm, ws(rep), we(rep));
  ## each word of the text takes its distinct word's pieces (byte offsets
  ## in the word move with it)
  count = accumarray (pword', 1, [numel(rep), 1])';
  at = cumsum ([1, count(1:end-1)]);
  k = count(which);
  [slot, place] = tok_repeat (k);
  j = at(which)(slot) + place;
  shift = (ws - ws(rep(which)))(slot);
  [ids, spans] = finish (tok, pid(j), pfrom(j) + shift, pto(j) + shift, norm, n2o);
endfunction

## pieces (model ids, bytes from..to of norm) as output ids and spans of
## the original text
function [ids, spans] = finish (tok, ids, from, to, norm, n2o)
  empty = false (size (ids));
  unk = ids == tok.unk_model;
  if (! tok.byte_fallback && tok.fuse_unk)
    ## a run of unknown pieces is one
    joined = unk & [false, unk(1:end-1)];
    to = to([find(! joined(2:end)), numel(to)]);
    ids = ids(! joined);
    from = from(! joined);
  elseif (tok.byte_fallback && any (unk))
    ## each unknown character spelled in byte pieces; the last holds its span
    count = ones (size (ids));
    count(unk) = to(unk) - from(unk) + 1;
    [slot, place] = tok_repeat (count);
    u = unk(slot);
    byte = double (norm(from(slot(u)) + place(u)));
    ids = ids(slot);
    ids(u) = tok.byte_model(byte + 1);
    last = [slot(2:end) != slot(1:end-1), true];
    from = from(slot);
    to = to(slot);
    empty = u & ! last;                            # no surface
  endif
  ids = tok.out_id(ids);
  spans = [n2o(from) + 1; n2o(to + 1)]';
  spans(empty, 2) = spans(empty, 1) - 1;
endfunction

## The best segmentation of each distinct word (bytes from(w) to to(w) of
## text): model id, first and last byte in text, and word of each piece.
function [pid, pfrom, pto, pword] = viterbi (tok, text, from, to)
  ## the characters of the words, and their boundaries 0..n of each word
  nbytes = to - from + 1;
  [owner, place] = tok_repeat (nbytes);
  idx = from(owner) + place;
  lead = bitand (double (text(idx)), 192) != 128;
  cstart = idx(lead);                              # first byte of each character
  cword = owner(lead);
  nchar = accumarray (cword', 1, [numel(from), 1])';
  cend = [cstart(2:end) - 1, 0];
  last_char = cumsum (nchar);
  cend(last_char) = to;
  base = (cumsum (nchar) - nchar);             # characters before each word
  pos = (1:numel (cstart)) - base(cword);          # place in the word, from 1
  ## lattice: every piece at every place (walking the trie one character
  ## at a time for all places at once), and an unknown node where no piece
  ## of one character starts
  [cp, first] = tok_utf8 ("decode", text);
  char_at = zeros (size (text));
  char_at(first) = cp;
  ccode = char_at(cstart);
  nb = nbeg = nlen = nscore = zeros (1, 0);
  live = 1:numel (cstart);
  node = zeros (size (live));                      # the prefix matched so far
  single_found = false (size (cstart));
  for L = 1:tok.longest
    ok = pos(live) + L - 1 <= nchar(cword(live));
    live = live(ok);
    node = node(ok);
    if (isempty (live))
      break;
    endif
    key = node * 2^21 + ccode(live + L - 1);
    k = lookup (tok.trie_key, key);
    ok = k > 0;
    ok(ok) = tok.trie_key(k(ok)) == key(ok);
    live = live(ok);
    node = tok.trie_node(k(ok));
    piece = tok.trie_piece(node);
    is_piece = piece > 0;
    nb = [nb, piece(is_piece)];
    nbeg = [nbeg, live(is_piece)];
    nlen = [nlen, repmat(L, 1, nnz (is_piece))];
    if (L == 1)
      single_found(live(is_piece)) = true;
    endif
  endfor
  unk = find (! single_found);
  nb = [nb, repmat(tok.unk_model, 1, numel (unk))];
  nbeg = [nbeg, unk];
  nlen = [nlen, ones(1, numel (unk))];
  nscore = tok.score(nb);
  nscore(end-numel (unk)+1:end) = tok.unk_score;
  ## forward pass over end places; boundary b of word w is slot base(w)+w+b
  slot0 = base + (1:numel (from)) - 1;             # boundary 0 of each word
  best = -Inf (1, numel (cstart) + numel (from), "single");
  best(slot0 + 1) = 0;
  back = zeros (size (best));
  nw = cword(nbeg);
  bbeg = pos(nbeg) - 1;                            # begin boundary
  bend = bbeg + nlen;
  [~, order] = sortrows ([bend; nw; bbeg]');       # by end, then word, then begin
  order = order';
  count = accumarray (bend', 1, [max(nchar), 1])';  # nodes ending at each e
  upto = cumsum (count);
  for e = 1:max (nchar)
    sel = order(upto(e) - count(e) + 1:upto(e));
    if (isempty (sel))
      continue;
    endif
    value = best(slot0(nw(sel)) + bbeg(sel) + 1) + nscore(sel);
    target = slot0(nw(sel)) + e + 1;
    ## the best node ending here; among equals the first (longest) one
    top = accumarray (target', double (value)', [], @max, -Inf)';
    winner = value == top(target);
    [t, first] = unique (target(winner), "first");
    sel_w = sel(winner)(first);
    best(t) = value(winner)(first);
    back(t) = sel_w;
  endfor
  ## backtrack all words at once
  cur = slot0 + nchar + 1;
  pid = pfrom = pto = pword = zeros (1, 0);
  w = 1:numel (from);
  done = nchar == 0;
  while (any (! done))
    w = w(! done(w));
    node = back(cur(w));
    pid = [pid, nb(node)];
    pfrom = [pfrom, cstart(nbeg(node))];
    pto = [pto, cend(nbeg(node) + nlen(node) - 1)];
    pword = [pword, w];
    cur(w) = slot0(w) + bbeg(node) + 1;
    done(w) = bbeg(node) == 0;
  endwhile
  [~, order] = sortrows ([pword; pfrom]');
  pid = pid(order);
  pfrom = pfrom(order);
  pto = pto(order);
  pword = pword(order);
endfunction

function text = decode (tok, ids)
  model = tok.model_id(ids);
  model = model(model > 0);                        # ids the model lacks: dropped
  text = tok_join (tok.decoded, tok.decoded_nbytes, model, false (size (model)));
  ## the first piece's leading "▁" is the dummy prefix (SentencePiece drops
  ## it while the text is still empty)
  T = types ();
  first = find (tok.decoded_nbytes(model) > 0, 1);
  mark = "\xE2\x96\x81";
  if (! isempty (first) && tok.type(model(first)) != T.byte && strncmp (text, mark, 3)
      && (tok.dummy_prefix || tok.remove_spaces))
    text = text(4:end);
  endif
  text = valid_or_fffd (strrep (text, mark, " "));
endfunction

## what each model piece decodes to: its text, " ⁇ " for the unknown piece,
## nothing for a control piece, its byte for a byte piece
function [flat, nbytes] = decoded_pieces (pieces, kind, byte_model)
  T = types ();
  pieces(kind == T.control) = {""};
  pieces(kind == T.unknown) = {" \xE2\x81\x87 "};
  is_byte = byte_model > 0;
  pieces(byte_model(is_byte)) = num2cell (char (find (is_byte) - 1));
  flat = [pieces{:}];
  nbytes = cellfun ("length", pieces);
endfunction

## bytes as text, each byte that is in no valid UTF-8 character as U+FFFD
function s = valid_or_fffd (b)
  [ok, ~, bad] = file_utf8 (b);
  if (ok)
    s = b;
    return;
  endif
  ## a byte is good when it starts a valid character or continues one
  [~, first] = tok_utf8 ("decode", b);
  first = first(! bad(first));
  lead = double (b(first));
  len = 1 + (lead >= 192) + (lead >= 224) + (lead >= 240);
  good = false (size (b));
  [slot, place] = tok_repeat (len);
  good(first(slot) + place) = true;
  s = num2cell (b);
  s(! good) = {"\xEF\xBF\xBD"};
  s = [s{:}];
endfunction

## a model file written here: pieces <unk>, ▁, a, b, ▁ab, ab (scores 0, -1,
## -2, -2, -1.5, -3), a unigram trainer spec, default normaliser spec
%!function b = field (number, payload)
%!  b = [number * 8 + 2, numel(payload), payload];
%!endfunction
%!function b = piece (text, score, type)
%!  b = field (1, [field(1, double (text)), 21, double(typecast (single (score), "uint8")), 24, type]);
%!endfunction
%!shared tok
%! bar = "\xE2\x96\x81";
%! model = [piece("<unk>", 0, 2), piece(bar, -1, 1), piece("a", -2, 1), piece("b", -2, 1), ...
%!          piece([bar "ab"], -1.5, 1), piece("ab", -3, 1), field(2, [24 1]), field(3, [])];
%! tok = tok_unigram ("file", uint8 (model), "test", [], "");
%!test
%! [ids, spans] = tok_unigram ("encode", tok, " ab  cab ");
%! assert (tok.pieces(ids), {["\xE2\x96\x81" "ab"], "\xE2\x96\x81", "<unk>", "ab"});
%! assert (spans, [2 3; 4 5; 6 6; 7 8]);
%! assert (tok_unigram ("decode", tok, ids), "ab  \xE2\x81\x87 ab");   # " ⁇ " after the space
%!error <test: not a SentencePiece model> tok_unigram ("file", uint8 ([10 5 1 2]), "test", [], "")
%!error <test: the model is not a unigram or BPE model> tok_unigram ("file", uint8 ([18 2 24 3]), "test", [], "")
