## -*- texinfo -*-
## @deftypefn  {} {@var{tok} =} tok_spbpe ("model", @var{sp}, @var{where})
## @deftypefnx {} {@var{tok} =} tok_spbpe ("json", @var{j}, @var{where})
## @deftypefnx {} {[@var{ids}, @var{spans}] =} tok_spbpe ("encode", @var{tok}, @var{text})
## @deftypefnx {} {@var{text} =} tok_spbpe ("decode", @var{tok}, @var{ids})
## BPE over characters with @qcode{"▁"} for spaces and byte fallback, as
## Llama's tokenizer has it: SentencePiece's BPE model, and Hugging Face's
## conversion of it to @file{tokenizer.json}.
##
## @qcode{"model"}: the tokenizer of a SentencePiece BPE model, from the
## model file as @code{tok_unigram} read it (@var{sp}).  A pair of pieces
## merges when the two joined are a piece; the piece of the higher score
## merges first.  @qcode{"json"}: the tokenizer of a decoded
## @file{tokenizer.json} @var{j} whose model is BPE with its merges
## list (rank order), normaliser @code{Prepend} @qcode{"▁"} then
## @code{Replace} @qcode{" "} by @qcode{"▁"}, or a @code{Metaspace}
## pre-tokenizer, and decoder @code{Metaspace} or the chain
## @code{Replace} @qcode{"▁"} by @qcode{" "}, @code{ByteFallback},
## @code{Fuse}, @code{Strip}.  Anything else there is an
## @code{attention:file} error naming the component.
##
## @qcode{"encode"}: the text normalised (@code{tok_unigram}'s
## normalisation: @qcode{"▁"} for each space and in front), cut into words
## before each @qcode{"▁"} that follows another character when no piece
## could join across it (a @code{Metaspace} that splits cuts before every
## @qcode{"▁"}), each distinct word split into characters and merged
## (@code{tok_bpe}'s merging), a character outside the vocabulary spelled
## in byte pieces @code{<0xNN>} (byte fallback) or as the unknown piece.
##
## @qcode{"decode"}: @code{tok_unigram}'s: @qcode{"▁"} made a space, byte
## pieces bytes, the first piece's leading space dropped (with a
## Metaspace decoder: every @qcode{"▁"} of the first token, and byte
## pieces kept as written).  Spans are SentencePiece's, but for
## @file{tokenizer.json} the @qcode{"▁"} put in front spans the first
## character and each byte piece its character, as Hugging Face's offsets
## have it.
## @end deftypefn

function varargout = tok_spbpe (action, varargin)
  switch (action)
    case "model"
      varargout = {from_model(varargin{:})};
    case "json"
      varargout = {from_json(varargin{:})};
    case "encode"
      [varargout{1:2}] = encode (varargin{:});
    case "decode"
      varargout = {decode(varargin{:})};
  endswitch
endfunction

## the tokenizer of a SentencePiece BPE model; of its piece types
## (ModelProto.SentencePiece.Type) normal ones merge, user-defined (4) and
## unused (5) ones are refused
function tok = from_model (tok, where)
  NORMAL = 1;
  other = find (tok.type == 4 | tok.type == 5, 1);
  if (! isempty (other))
    error ("attention:file", "%s: piece %d (\"%s\") is user-defined or unused: not read in a BPE model",
           where, other, tok.pieces{other});
  endif
  normal = find (tok.type == NORMAL);
  [tok.merge_key, tok.merge_rank, tok.merge_id] = score_table (tok.pieces, tok.score, normal);
  tok.kind = "spbpe";
  tok.unk = tok.unk_model;
  tok.strip = tok.dummy_prefix || tok.remove_spaces;
  tok.prefix_unless_space = tok.hf_spans = false;
  tok = with_chars (tok, normal, false);
endfunction

## every way to cut a piece of two or more characters into two pieces,
## ranked by the piece's score (highest first; equal scores rank equal)
function [key, rank, id] = score_table (pieces, score, normal)
  V = numel (pieces);
  P = pieces(normal);
  len = cellfun ("length", P);
  joined = [P{:}];
  base = cumsum (len) - len;
  owner = tok_repeat (len);
  lead = find (bitand (double (joined), 192) != 128);
  cut = lead(lead != base(owner(lead)) + 1);       # a character after a piece's first
  o = owner(cut);
  [has_left, left] = ismember (cellslices (joined, base(o) + 1, cut - 1, 2), P);
  [has_right, right] = ismember (cellslices (joined, cut, base(o) + len(o), 2), P);
  ok = has_left & has_right;
  [~, ~, order] = unique (-double (score));
  order = reshape (order, 1, []);
  [key, k] = sort (normal(left(ok)) * (V + 1) + normal(right(ok)));
  id = normal(o(ok))(k);
  rank = order(id);
endfunction

## the ids of single characters, the pieces' byte lengths, and how words
## may be cut: before each "▁" that follows another character, unless a
## piece holds such a "▁" (then the text is one word); EVERY cuts before
## each "▁"
function tok = with_chars (tok, mergeable, every)
  P = tok.pieces(mergeable);
  one = tok_utf8 ("count", P) == 1;
  [tok.char_cp, k] = sort (cellfun (@(c) tok_utf8 ("decode", c), P(one)));
  tok.char_id = mergeable(one)(k);
  tok.nbytes = cellfun ("length", tok.pieces);
  bar = "\xE2\x96\x81";
  joined = [P{:}];
  len = cellfun ("length", P);
  at = strfind (joined, bar);
  inner = at(! ismember (at, cumsum (len) - len + 1) & ! ismember (at - 3, at));
  if (every)
    tok.cut = 2;
  else
    tok.cut = isempty (inner);
  endif
endfunction

## a tokenizer.json in Llama's layout
function tok = from_json (j, where)
  need = @(ok, what) ok || error ("attention:file", "%s: %s", where, what);
  bar = "\xE2\x96\x81";
  [prefix, unless_space, every] = json_normalizer (j, where, need, bar);
  [strip, byte_decode] = json_decoder (j, where, need, bar);
  model = j.model;
  for f = {"continuing_subword_prefix", "end_of_word_suffix"}
    need (isempty (field_or_empty (model, f{1})), ["model." f{1} ": only none is read with this BPE"]);
  endfor
  need (isempty (field_or_empty (model, "dropout")), "model.dropout: only none is read");
  need (! isequal (field_or_empty (model, "ignore_merges"), true), "model.ignore_merges: only false is read");
  keys = tok_vocab (model.vocab, where);
  V = numel (keys);
  merges = field_or_empty (model, "merges");
  need (iscell (merges), "model.merges must be a list");
  [key, rank, id] = tok_bpe ("table", keys, merges, where);
  unk = find (strcmp (keys, field_or_empty (model, "unk_token")), 1);
  fallback = isequal (field_or_empty (model, "byte_fallback"), true);
  byte_model = zeros (1, 256);
  is_byte = ! cellfun ("isempty", regexp (keys, '^<0x[0-9A-F]{2}>$', "once"));
  byte_model(sscanf (strjoin (keys(is_byte), " "), "<0x%2x> ")' + 1) = find (is_byte);
  need (! fallback || all (byte_model > 0), "model.byte_fallback without the 256 byte tokens <0x00> to <0xFF>");
  need (fallback || ! isempty (unk), "model: neither byte_fallback nor an unk_token in the vocabulary");
  if (isempty (unk))
    unk = 0;
  endif
  kind = ones (1, V);
  decoded = keys;
  if (byte_decode)
    kind(is_byte) = 6;                             # decoded as their bytes
    decoded(byte_model(byte_model > 0)) = num2cell (char (find (byte_model) - 1));
  endif
  tok = struct ("kind", "spbpe", "pieces", {keys}, "type", kind, "unk_model", unk, "unk", unk,
                "byte_model", byte_model, "byte_fallback", fallback,
                "fuse_unk", isequal (field_or_empty (model, "fuse_unk"), true),
                "trie", zeros (1, 0), "blob", "", "dummy_prefix", prefix,
                "remove_spaces", false, "escape_spaces", true,
                "out_id", 1:V, "model_id", 1:V,
                "decoded", [decoded{:}], "decoded_nbytes", cellfun ("length", decoded),
                "merge_key", key, "merge_rank", rank, "merge_id", id,
                "strip", strip, "prefix_unless_space", unless_space, "hf_spans", true);
  mergeable = find (! is_byte);
  mergeable = mergeable(mergeable != unk);
  tok = with_chars (tok, mergeable, every);
endfunction

## the normaliser Sequence [Prepend "▁", Replace " " by "▁"] with no
## pre-tokenizer, or no normaliser and a Metaspace pre-tokenizer: whether
## "▁" goes in front, only when the text does not start with one, and
## whether words are cut before every "▁"
function [prefix, unless_space, every] = json_normalizer (j, where, need, bar)
  norm = field_or_empty (j, "normalizer");
  pre = field_or_empty (j, "pre_tokenizer");
  unless_space = every = false;
  if (! isempty (norm))
    need (isempty (pre), "pre_tokenizer: none is read after a normalizer with this BPE");
    steps = {norm};
    if (strcmp (field_or_empty (norm, "type"), "Sequence"))
      steps = field_or_empty (norm, "normalizers");
      if (isstruct (steps))
        steps = num2cell (steps);
      endif
    endif
    types = cellfun (@(s) field_or_empty (s, "type"), steps, "uniformoutput", false);
    prefix = strcmp (types{1}, "Prepend");
    need (isequal (types(prefix+1:end), {"Replace"}) && (! prefix || isequal (steps{1}.prepend, bar))
          && is_replace (steps{end}, " ", bar),
          "normalizer: only Prepend \"▁\" then Replace \" \" by \"▁\" is read with this BPE");
  else
    need (isstruct (pre) && strcmp (field_or_empty (pre, "type"), "Metaspace")
          && isequal (field_or_empty (pre, "replacement"), bar),
          "pre_tokenizer: only Metaspace (\"▁\") is read with this BPE, or none after a normalizer");
    scheme = field_or_empty (pre, "prepend_scheme");
    if (isempty (scheme))                        # files of older versions
      scheme = {"never", "always"}{1 + isequal (field_or_empty (pre, "add_prefix_space"), true)};
    endif
    need (any (strcmp (scheme, {"first", "always", "never"})),
          "pre_tokenizer: Metaspace's prepend_scheme must be first, always or never");
    prefix = ! strcmp (scheme, "never");
    unless_space = true;
    every = ! isequal (field_or_empty (pre, "split"), false);
  endif
endfunction

## the decoder: Metaspace, or Sequence [Replace "▁" by " ", ByteFallback,
## Fuse, Strip " " (1, 0)] (each but Replace may be left out): whether the
## first space goes (2: every "▁" of the first token, as Metaspace does)
## and byte tokens become bytes
function [strip, byte_decode] = json_decoder (j, where, need, bar)
  dec = field_or_empty (j, "decoder");
  what = "decoder: only Metaspace or Replace \"▁\" by \" \", ByteFallback, Fuse, Strip is read with this BPE";
  need (isstruct (dec), what);
  if (strcmp (field_or_empty (dec, "type"), "Metaspace"))
    scheme = field_or_empty (dec, "prepend_scheme");
    strip = 2 * ! (isequal (scheme, "never") || isequal (field_or_empty (dec, "add_prefix_space"), false));
    byte_decode = false;
    return;
  endif
  need (strcmp (field_or_empty (dec, "type"), "Sequence"), what);
  steps = field_or_empty (dec, "decoders");
  if (isstruct (steps))
    steps = num2cell (steps);
  endif
  need (iscell (steps) && ! isempty (steps), what);
  types = cellfun (@(s) field_or_empty (s, "type"), steps, "uniformoutput", false);
  order = {"Replace", "ByteFallback", "Fuse", "Strip"};
  [known, at] = ismember (types, order);
  need (all (known) && all (diff (at) > 0) && strcmp (types{1}, "Replace")
        && is_replace (steps{1}, bar, " "), what);
  byte_decode = any (strcmp (types, "ByteFallback"));
  strip = false;
  if (strcmp (types{end}, "Strip"))
    s = steps{end};
    need (isequal (field_or_empty (s, "content"), " ") && isequal (field_or_empty (s, "start"), 1)
          && isequal (field_or_empty (s, "stop"), 0), "decoder: only Strip \" \" (start 1, stop 0) is read");
    strip = true;
  endif
endfunction

## a Replace step of string FROM by TO
function yes = is_replace (s, from, to)
  p = field_or_empty (s, "pattern");
  yes = (strcmp (field_or_empty (s, "type"), "Replace") && isstruct (p)
         && isequal (field_or_empty (p, "String"), from) && isequal (field_or_empty (s, "content"), to));
endfunction

function [ids, spans] = encode (tok, text)
  if (tok.prefix_unless_space && (text(1) == " " || strncmp (text, "\xE2\x96\x81", 3)))
    tok.dummy_prefix = false;
  endif
  [norm, n2o] = tok_unigram ("normalize", tok, text);
  if (isempty (norm))
    ids = zeros (1, 0);
    spans = zeros (0, 2);
    return;
  endif
  ws = 1;
  if (tok.cut)
    at = strfind (norm, "\xE2\x96\x81");
    if (tok.cut == 1)
      at = at(! ismember (at - 3, at));
    endif
    ws = unique ([1, at]);
  endif
  we = [ws(2:end) - 1, numel(norm)];
  [rep, which] = tok_words (norm, ws, we);
  ## the characters of the distinct words, as ids: a character outside the
  ## vocabulary is V + its place among them
  nbytes = we(rep) - ws(rep) + 1;
  [owner, place] = tok_repeat (nbytes);
  bytes = norm(ws(rep)(owner) + place);
  [cp, first] = tok_utf8 ("decode", bytes);
  word = owner(first);
  V = numel (tok.pieces);
  k = lookup (tok.char_cp, cp);
  hit = k > 0;
  hit(hit) = tok.char_cp(k(hit)) == cp(hit);
  sym = zeros (size (cp));
  sym(hit) = tok.char_id(k(hit));
  [other, ~, j] = unique (cp(! hit));
  sym(! hit) = V + j;
  [sym, word] = tok_bpe ("merge", tok, sym, word);
  len = zeros (size (sym));
  known = sym <= V;
  len(known) = tok.nbytes(sym(known));
  [~, other_len] = tok_utf8 ("encode", other);
  len(! known) = other_len(sym(! known) - V);
  ## each word of the text takes its distinct word's pieces
  count = accumarray (word', 1, [numel(rep), 1])';
  from = cumsum ([1, count(1:end-1)]);
  [slot, k] = tok_repeat (count(which));
  j = from(which)(slot) + k;
  ids = sym(j);
  last = cumsum (len(j));
  ids(ids > V) = tok.unk_model;
  [ids, spans] = tok_unigram ("finish", tok, ids, last - len(j) + 1, last, norm, n2o);
  if (tok.hf_spans)
    ## Hugging Face gives the "▁" put in front the first character's bytes,
    ## and every byte piece its character's
    if (tok.dummy_prefix && spans(1, 2) < spans(1, 1))
      b = double (text(1));
      spans(1, 2) = 1 + (b >= 192) + (b >= 224) + (b >= 240);
    endif
    empty = find (spans(:, 2) < spans(:, 1));
    if (! isempty (empty))
      holder = (1:rows (spans))';
      holder(empty) = Inf;
      holder = flipud (cummin (flipud (holder)));
      spans(empty, :) = spans(holder(empty), :);
    endif
  endif
endfunction

function text = decode (tok, ids)
  first = "";
  if (tok.strip == 2)
    first = strrep (tok.pieces{ids(1)}, "\xE2\x96\x81", "");
    ids = ids(2:end);
  endif
  tok.dummy_prefix = tok.strip == 1;
  tok.remove_spaces = false;
  text = [first, tok_unigram("decode", tok, ids)];
endfunction

## a model file written here: <unk>, <s>, </s>, the 256 byte pieces, then
## ▁, a, b, c, ab, ▁ab, abc, aba (aba above ab: a hand-made order), a BPE
## trainer with byte fallback, the default normaliser but extra spaces
## kept; the expected pieces are python3-sentencepiece's on these bytes
%!function b = field (number, payload)
%!  b = [number * 8 + 2, numel(payload), payload];
%!endfunction
%!function b = piece (text, score, type)
%!  b = field (1, [field(1, double (text)), 21, double(typecast (single (score), "uint8")), 24, type]);
%!endfunction
%!function model = spm_model (extra)
%!  bar = "\xE2\x96\x81";
%!  model = [piece("<unk>", 0, 2), piece("<s>", 0, 3), piece("</s>", 0, 3)];
%!  for b = 0:255
%!    model = [model, piece(sprintf("<0x%02X>", b), 0, 6)];
%!  endfor
%!  words = {bar, "a", "b", "c", "ab", [bar "ab"], "abc", "aba"};
%!  scores = [-10, -11, -12, -13, -1, -2, -3, -0.5];
%!  for k = 1:numel (words)
%!    model = [model, piece(words{k}, scores(k), 1)];
%!  endfor
%!  model = uint8 ([model, extra, field(2, [24 2 152 2 1]), field(3, [32 0])]);
%!endfunction
%!shared tok, bar
%! bar = "\xE2\x96\x81";
%! tok = tok_unigram ("file", spm_model ([]), "test", [], "");
%!test
%! assert (tok.kind, "spbpe");
%! [ids, spans] = tok_spbpe ("encode", tok, "ab abc  cab\xC3\xA9");
%! assert (tok.pieces(ids), {[bar "ab"], [bar "ab"], "c", bar, bar, "c", "ab", "<0xC3>", "<0xA9>"});
%! assert (spans, [1 2; 3 5; 6 6; 7 7; 8 8; 9 9; 10 11; 12 11; 12 13]);
%! assert (tok_spbpe ("decode", tok, ids), "ab abc  cab\xC3\xA9");
%!test
%! ## aba outranks ab: after the first a b merges, a b a does
%! [ids, ~] = tok_spbpe ("encode", tok, "abab ababab");
%! assert (tok.pieces(ids), {bar, "aba", "b", bar, "aba", "b", "ab"});
%!error <test: piece 268> tok_unigram ("file", spm_model (piece ("x", 0, 4)), "test", [], "")
