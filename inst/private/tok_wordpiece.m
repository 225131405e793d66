## -*- texinfo -*-
## @deftypefn  {} {@var{tok} =} tok_wordpiece ("files", @var{words}, @var{norm}, @var{where})
## @deftypefnx {} {@var{tok} =} tok_wordpiece ("files", @var{words}, @var{norm}, @var{where}, @var{model})
## @deftypefnx {} {[@var{ids}, @var{spans}] =} tok_wordpiece ("encode", @var{tok}, @var{text})
## @deftypefnx {} {@var{text} =} tok_wordpiece ("decode", @var{tok}, @var{ids})
## WordPiece with BERT's basic tokenizer, as Hugging Face's BertNormalizer,
## BertPreTokenizer and WordPiece model have it.
##
## @qcode{"files"}: @var{words} (1×V cell) are the tokens in id order;
## @var{norm} is either a logical (the model is uncased: lower-case and
## strip accents) or tokenizer.json's normalizer struct (@code{clean_text},
## @code{handle_chinese_chars}, @code{strip_accents}, @code{lowercase});
## @var{model} tokenizer.json's model (@code{unk_token},
## @code{max_input_chars_per_word}).
##
## @qcode{"encode"}: the text is cleaned (NUL, U+FFFD and control
## characters dropped, white space made a space), CJK characters set apart,
## accents stripped (NFD, then the non-spacing marks dropped) and
## lower-cased when the model says so, split at white space and around
## every punctuation character, and each distinct word is covered greedily
## by the longest vocabulary entry (@qcode{"##"} ones after the first): all
## the text's words at once, one length at a time.  A word that cannot be
## covered, or has more than @code{max_input_chars_per_word} characters, is
## one @code{[UNK]}.  Spans are bytes of the original text.
##
## @qcode{"decode"}: tokens joined by spaces, @qcode{"##"} pieces glued to
## the token before, the space before . ? ! , and before n't 'm 's 've
## 're removed.
## @end deftypefn

function varargout = tok_wordpiece (action, varargin)
  switch (action)
    case "files"
      varargout = {load_wordpiece(varargin{:})};
    case "encode"
      [varargout{1:2}] = encode (varargin{:});
    case "decode"
      varargout = {decode(varargin{:})};
  endswitch
endfunction

function tok = load_wordpiece (words, norm, where, model = struct ())
  if (islogical (norm))
    norm = struct ("lowercase", norm);
  endif
  flag = @(s, name, default) logical (field_or_default (s, name, default));
  lowercase = flag (norm, "lowercase", true);
  unk = field_or_default (model, "unk_token", "[UNK]");
  unk_id = find (strcmp (words, unk), 1);
  if (isempty (unk_id))
    error ("attention:file", "%s: the vocabulary has no unknown token \"%s\"", where, unk);
  endif
  cont = strncmp (words, "##", 2);
  [start_words, start_order] = sort (words(! cont));
  start_ids = find (! cont)(start_order);
  bare = words;
  bare(cont) = regexprep (words(cont), '^##', '');
  [cont_words, cont_order] = sort (bare(cont));
  cont_ids = find (cont)(cont_order);
  nchars = tok_utf8 ("count", words);
  tok = struct ("kind", "wordpiece", "pieces", {words}, "unk", unk_id,
                "max_chars", double (field_or_default (model, "max_input_chars_per_word", 100)),
                "clean_text", flag (norm, "clean_text", true),
                "chinese", flag (norm, "handle_chinese_chars", true),
                "strip_accents", flag (norm, "strip_accents", lowercase),
                "lowercase", lowercase, "longest", max ([nchars, 1]),
                "start_words", {start_words}, "start_ids", start_ids,
                "cont_words", {cont_words}, "cont_ids", cont_ids, "continued", cont,
                "bare", [bare{:}], "bare_nbytes", cellfun ("length", bare));
endfunction

## s.(name), or default when s lacks it or holds null ([])
function v = field_or_default (s, name, default)
  v = field_or_empty (s, name);
  if (isempty (v))
    v = default;
  endif
endfunction

function [ids, spans] = encode (tok, text)
  [cp, first] = tok_utf8 ("decode", text);
  last = [first(2:end) - 1, numel(text)];          # each character's last byte
  u = tok_unicode ();
  owner = 1:numel (cp);                            # the text character of each
  if (tok.clean_text)
    cls = tok_class (cp);
    gone = cp == 0 | cp == 65533 | (cls == 5 & ! ismember (cp, [9 10 13]));
    cp(tok_space (cp)) = 32;
    cp = cp(! gone);
    owner = owner(! gone);
  endif
  if (tok.strip_accents)
    [cp, owner] = hangul (cp, owner);
    [cp, owner] = remap (cp, owner, u.strip_key, u.strip_end, u.strip_value);
    mark = tok_class (cp) == 4;
    cp = cp(! mark);
    owner = owner(! mark);
  endif
  if (tok.lowercase)
    [cp, owner] = remap (cp, owner, u.lower_key, u.lower_end, u.lower_value);
  endif
  ## words: runs of characters that are no space; punctuation and (with
  ## handle_chinese_chars) CJK characters are words of their own
  cls = tok_class (cp);
  space = tok_space (cp);
  alone = cls == 3 | (cp >= 33 & cp <= 47) | (cp >= 58 & cp <= 64) ...
          | (cp >= 91 & cp <= 96) | (cp >= 123 & cp <= 126);
  if (tok.chinese)
    alone |= cjk (cp);
  endif
  n = numel (cp);
  start = ! space & (alone | [true, space(1:end-1) | alone(1:end-1)]);
  stop = ! space & (alone | [space(2:end) | alone(2:end), true]);
  wfrom = find (start);                            # in characters of cp
  wto = find (stop);
  if (isempty (wfrom))
    ids = zeros (1, 0);
    spans = zeros (0, 2);
    return;
  endif
  [norm_text, nbytes] = tok_utf8 ("encode", cp);
  cend = cumsum (nbytes);
  cstart = cend - nbytes + 1;
  [rep, which] = tok_words (norm_text, cstart(wfrom), cend(wto));
  [pid, pfrom, pto, pword] = cover (tok, norm_text, cstart, cend, wfrom(rep), wto(rep));
  ## each word of the text takes its distinct word's pieces
  count = accumarray (pword', 1, [numel(rep), 1])';
  at = cumsum ([1, count(1:end-1)]);
  k = count(which);
  [slot, place] = tok_repeat (k);
  j = at(which)(slot) + place;
  ids = pid(j);
  shift = (wfrom - wfrom(rep(which)))(slot);   # this word's place against its distinct word's
  spans = [first(owner(pfrom(j) + shift)); last(owner(pto(j) + shift))]';
endfunction

## The pieces of each distinct word (word w: characters from(w) to to(w)
## of the normalised text): id, first and last character, word; greedily
## the longest entry at each place, all words at once.
function [pid, pfrom, pto, pword] = cover (tok, text, cstart, cend, from, to)
  nw = numel (from);
  nchar = to - from + 1;
  at = from;                                       # the next character to cover
  failed = nchar > tok.max_chars;
  live = find (! failed);
  pid = pfrom = pto = pword = zeros (1, 0);
  while (! isempty (live))
    found = zeros (size (live));
    len = min (tok.longest, to(live) - at(live) + 1);
    for L = max (len):-1:1
      try_ = find (! found & len >= L);
      if (isempty (try_))
        continue;
      endif
      w = live(try_);
      sub = cellslices (text, cstart(at(w)), cend(at(w) + L - 1), 2);
      first_piece = at(w) == from(w);
      id = zeros (size (w));
      id(first_piece) = find_word (tok.start_words, tok.start_ids, sub(first_piece));
      id(! first_piece) = find_word (tok.cont_words, tok.cont_ids, sub(! first_piece));
      hit = id > 0;
      found(try_(hit)) = L;
      pid = [pid, id(hit)];
      pfrom = [pfrom, at(w(hit))];
      pto = [pto, at(w(hit)) + L - 1];
      pword = [pword, w(hit)];
    endfor
    failed(live(! found)) = true;
    at(live) += found;
    live = live(found > 0 & at(live) <= to(live));
  endwhile
  ## a word not covered is one [UNK]
  keep = ! failed(pword);
  bad = find (failed);
  pid = [pid(keep), repmat(tok.unk, 1, numel (bad))];
  pfrom = [pfrom(keep), from(bad)];
  pto = [pto(keep), to(bad)];
  pword = [pword(keep), bad];
  [~, order] = sortrows ([pword; pfrom]');
  pid = pid(order);
  pfrom = pfrom(order);
  pto = pto(order);
  pword = pword(order);
endfunction

## the id of each string in a sorted word list (0 where it is not there)
function id = find_word (words, ids, sub)
  id = zeros (size (sub));
  if (isempty (sub) || isempty (words))
    return;
  endif
  k = lookup (words, sub);
  ok = k > 0;
  ok(ok) = strcmp (words(k(ok)), sub(ok));
  id(ok) = ids(k(ok));
endfunction

## characters replaced by their sequences in a mapping (key sorted, the
## values of key(k) are value(last(k)+1:last(k+1)))
function [cp, owner] = remap (cp, owner, key, last, value)
  [key, last, value] = deal (double (key), double (last), double (value));
  k = lookup (key, cp);
  hit = k > 0;
  hit(hit) = key(k(hit)) == cp(hit);
  if (! any (hit))
    return;
  endif
  count = ones (size (cp));
  from = zeros (size (cp));
  count(hit) = last(k(hit) + 1) - last(k(hit));
  from(hit) = last(k(hit));
  [slot, place] = tok_repeat (count);
  place += 1;
  new = cp(slot);
  mapped = hit(slot);
  new(mapped) = value(from(slot(mapped)) + place(mapped));
  cp = new;
  owner = owner(slot);
endfunction

## Hangul syllables decomposed into their jamo (the NFD formula)
function [cp, owner] = hangul (cp, owner)
  s = cp - 44032;
  hit = s >= 0 & s < 11172;
  if (! any (hit))
    return;
  endif
  count = ones (size (cp));
  count(hit) = 2 + (mod (s(hit), 28) > 0);
  [slot, place] = tok_repeat (count);
  place += 1;
  new = cp(slot);
  si = s(slot);
  h = hit(slot);
  new(h & place == 1) = 4352 + floor (si(h & place == 1) / 588);
  new(h & place == 2) = 4449 + floor (mod (si(h & place == 2), 588) / 28);
  new(h & place == 3) = 4519 + mod (si(h & place == 3), 28);
  cp = new;
  owner = owner(slot);
endfunction

## BERT's CJK blocks
function tf = cjk (cp)
  tf = (cp >= 19968 & cp <= 40959) | (cp >= 13312 & cp <= 19903) ...
       | (cp >= 131072 & cp <= 173791) | (cp >= 173824 & cp <= 177983) ...
       | (cp >= 177984 & cp <= 178207) | (cp >= 178208 & cp <= 183983) ...
       | (cp >= 63744 & cp <= 64255) | (cp >= 194560 & cp <= 195103);
endfunction

function text = decode (tok, ids)
  space = ! tok.continued(ids);
  space(1) = false;
  text = tok_join (tok.bare, tok.bare_nbytes, ids, space);
  for s = {".", "?", "!", ",", "n't", "'m", "'s", "'ve", "'re"}
    text = strrep (text, [" " s{1}], s{1});
  endfor
endfunction

%!shared tok
%! tok = tok_wordpiece ("files", {"[UNK]", "un", "##aff", "##able", "!", "\xE6\x9D\xB1", "e"}, true, "test");
%!test
%! ## (Octave's "\x" takes every hex digit after it: bytes by char)
%! text = ["UNAFFABLE!", char([230 157 177]), "x ", char([195 137])];
%! [ids, spans] = tok_wordpiece ("encode", tok, text);
%! assert (tok.pieces(ids), {"un", "##aff", "##able", "!", char([230 157 177]), "[UNK]", "e"});
%! assert (spans, [1 2; 3 5; 6 9; 10 10; 11 13; 14 14; 16 17]);
%! assert (tok_wordpiece ("decode", tok, ids), ["unaffable! ", char([230 157 177]), " [UNK] e"]);
