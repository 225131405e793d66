## -*- texinfo -*-
## @deftypefn  {} {@var{tok} =} attn_tokenizer (@var{folder})
## @deftypefnx {} {@var{tok} =} attn_tokenizer (@var{file})
## @deftypefnx {} {@var{tok} =} attn_tokenizer (@{@var{file1}, @var{file2}@})
## @deftypefnx {} {@var{tok} =} attn_tokenizer (@dots{}, @var{name}, @var{value}, @dots{})
## Load an attention model's subword tokenizer.  It is read from the
## files a published model ships.
##
## @var{tok} is a plain struct of data (no function handles, nothing of the
## files is ever evaluated) for @code{attn_tokenize} and
## @code{attn_detokenize}.  Its field @code{kind} says which tokenizer it
## is, @code{pieces} (1×V cell) holds the readable text of every id:
## @code{tok.pieces@{id@}} with 1-based ids.  The files, by kind:
##
## @table @asis
## @item @qcode{"bpe"}: byte-level BPE (GPT-2, RoBERTa, SmolLM)
## @file{vocab.json} with @file{merges.txt}, or a Hugging Face
## @file{tokenizer.json} whose model is BPE with the ByteLevel
## pre-tokenizer, alone or after a Digits pre-tokenizer (SmolLM's
## Sequence: every digit a word of its own, or with
## @code{individual_digits} false every run of them).
## @item @qcode{"spbpe"}: BPE with byte fallback over characters (Llama, TinyLlama)
## a SentencePiece BPE model file (@file{tokenizer.model}), or a
## @file{tokenizer.json} whose model is BPE over @qcode{"▁"}-marked text:
## the normalizer Prepend @qcode{"▁"} then Replace @qcode{" "} by
## @qcode{"▁"}, or a Metaspace pre-tokenizer, with the decoder Metaspace
## or Replace, ByteFallback, Fuse, Strip.
## @item @qcode{"wordpiece"}: WordPiece (BERT)
## @file{vocab.txt} (one token a line, id = line number), or a
## @file{tokenizer.json} whose model is WordPiece with the BertNormalizer
## and BertPreTokenizer.  Option @qcode{"lowercase"} says whether
## @file{vocab.txt} belongs to an uncased model: its text is then
## lower-cased and its accents stripped (a @file{tokenizer.json} says it
## itself).  Its default is the @code{do_lower_case} of the folder's
## @file{tokenizer_config.json} when there is one (a cased model such as
## a BERT NER tagger says false there), else true.
## @item @qcode{"unigram"}: SentencePiece unigram (Marian, T5)
## a SentencePiece model file (@file{source.spm}, @file{target.spm},
## @file{*.model}), with Marian's @file{vocab.json} when given, which then
## maps the pieces to the model's ids.  For a Marian folder option
## @qcode{"side"} chooses @qcode{"source"} (default) or @qcode{"target"}.
## @end table
##
## @var{folder} is searched for these files in that order
## (@file{tokenizer.model} last).  A @file{tokenizer.json} with other
## parts (another pre-tokenizer, normalizer, decoder or model setting) is
## an @code{attention:file} error naming the part.  Ids are
## 1-based everywhere in the package: a file's id k is id k+1 here.  A file
## that is missing, not of the format its name says or inconsistent (a
## merge of tokens not in the vocabulary, ids not 0 to V-1 each once) is an
## @code{attention:file} error naming the file.
##
## See @code{attn_tokenize} for an example.
## @seealso{attn_tokenize, attn_detokenize}
## @end deftypefn

function tok = attn_tokenizer (source, varargin)
  if (nargin < 1)
    print_usage ();
  endif
  o = parse_options ("attn_tokenizer", {"side", "source", "one of source, target";
                                        "lowercase", true, "flag"}, varargin);
  files = find_files (source, o.side);
  names = cellfun (@(f) lower (file_name (f)), files, "uniformoutput", false);
  is_spm = ! cellfun (@isempty, regexp (names, '\.(spm|model)$', "once"));
  if (any (is_spm))
    vocab = files(! is_spm);
    tok = tok_unigram ("file", read_bytes (files{is_spm}), files{is_spm},
                       json_of (vocab{:}), [vocab{:}]);
  elseif (numel (files) == 2)
    tok = tok_bpe ("files", json_of (files{1}), merges_of (files{2}),
                   [files{1} " and " files{2}]);
  elseif (strcmp (names{1}, "vocab.txt") || strcmp (file_ext (names{1}), ".txt"))
    tok = tok_wordpiece ("files", vocab_lines (files{1}),
                         lowercase_of (source, o.lowercase, varargin), files{1});
  else
    tok = from_tokenizer_json (json_of (files{1}), files{1});
  endif
endfunction

## the files to read: a folder's, a file, or a cell of two files
function files = find_files (source, side)
  if (iscellstr (source) && numel (source) == 2)
    files = source(:)';
    names = cellfun (@(f) lower (file_name (f)), files, "uniformoutput", false);
    if (strcmp (file_ext (names{1}), ".txt"))      # merges.txt, vocab.json
      files = files([2 1]);
    endif
  elseif (ischar (source) && rows (source) == 1 && isfolder (source))
    has = @(f) isfile (fullfile (source, f));
    choice = {{"tokenizer.json"}, {"vocab.json", "merges.txt"}, {"vocab.txt"}, ...
              {[side ".spm"], "vocab.json"}, {[side ".spm"]}, {"tokenizer.model"}};
    k = find (cellfun (@(c) all (cellfun (has, c)), choice), 1);
    if (isempty (k))
      error ("attention:file", ["attn_tokenizer: %s holds none of tokenizer.json, ", ...
             "vocab.json with merges.txt, vocab.txt, %s.spm, tokenizer.model"], source, side);
    endif
    files = fullfile (source, choice{k});
  elseif (ischar (source) && rows (source) == 1)
    files = {source};
  else
    error ("attention:type",
           "attn_tokenizer: SOURCE must be a folder, a file name or a cell of two file names; it is %s",
           disp_arg (source));
  endif
  for f = files
    if (! isfile (f{1}))
      error ("attention:file", "attn_tokenizer: %s is not a file", f{1});
    endif
  endfor
endfunction

## vocab.txt's lower-casing: the option when args give it, else the
## do_lower_case of the folder source's tokenizer_config.json, else yes
function yes = lowercase_of (source, yes, args)
  if (isscalar (args) && isstruct (args{1}))
    args = fieldnames (args{1});
  endif
  config = fullfile (source, "tokenizer_config.json");
  if (any (strcmpi (args(1:2:end), "lowercase")) || ! isfolder (source) || ! isfile (config))
    return;
  endif
  c = json_of (config);
  if (isstruct (c) && isscalar (c) && isfield (c, "do_lower_case"))
    if (! (islogical (c.do_lower_case) && isscalar (c.do_lower_case)))
      error ("attention:file", "%s: do_lower_case must be true or false", config);
    endif
    yes = c.do_lower_case;
  endif
endfunction

function name = file_name (f)
  [~, name, ext] = fileparts (f);
  name = [name ext];
endfunction

function ext = file_ext (f)
  [~, ~, ext] = fileparts (f);
endfunction

function bytes = read_bytes (file)
  [fid, msg] = fopen (file, "r");
  if (fid < 0)
    error ("attention:file", "attn_tokenizer: cannot open %s (%s)", file, msg);
  endif
  bytes = fread (fid, Inf, "*uint8")';
  fclose (fid);
endfunction

## a JSON file decoded (strictly, as the package reads every JSON file)
function v = json_of (file)
  if (nargin == 0)
    v = [];
    return;
  endif
  v = file_json ("decode_other", char (read_bytes (file)), "the file", file);
endfunction

## merges.txt's text (tok_bpe reads its lines)
function text = merges_of (file)
  text = char (read_bytes (file));
  if (! file_utf8 (text))
    error ("attention:file", "%s is not UTF-8 text", file);
  endif
endfunction

## vocab.txt: one token a line
function words = vocab_lines (file)
  text = char (read_bytes (file));
  if (! file_utf8 (text))
    error ("attention:file", "%s is not UTF-8 text", file);
  endif
  words = strsplit (strrep (text, "\r", ""), "\n");
  if (isempty (words{end}))
    words(end) = [];
  endif
endfunction

## a Hugging Face tokenizer.json: the parts the package can follow exactly
function tok = from_tokenizer_json (j, file)
  need = @(ok, what) ok || error ("attention:file", "%s: %s", file, what);
  need (isstruct (j) && isfield (j, "model") && isstruct (j.model)
        && isfield (j.model, "type") && ischar (j.model.type), "no \"model\" with a \"type\"");
  pre = field_or_empty (j, "pre_tokenizer");
  norm = field_or_empty (j, "normalizer");
  switch (j.model.type)
    case "BPE"
      [byte_level, digits] = byte_level_pre (pre, need);
      if (! byte_level)
        tok = tok_spbpe ("json", j, file);
        return;
      endif
      need (isempty (norm), "normalizer: a byte-level BPE with a normalizer is not read");
      merges = field_or_empty (j.model, "merges");
      need (iscell (merges), "model.merges must be a list");
      tok = tok_bpe ("files", j.model.vocab, merges, file);
      tok.digits = digits;
    case "WordPiece"
      need (isstruct (norm) && strcmp (field_or_empty (norm, "type"), "BertNormalizer"),
            "normalizer: only BertNormalizer is read with WordPiece");
      need (isstruct (pre) && strcmp (field_or_empty (pre, "type"), "BertPreTokenizer"),
            "pre_tokenizer: only BertPreTokenizer is read with WordPiece");
      need (isequal (field_or_empty (j.model, "continuing_subword_prefix"), "##"),
            "model.continuing_subword_prefix: only \"##\" is read");
      tok = tok_wordpiece ("files", tok_vocab (j.model.vocab, file), norm, file, j.model);
    otherwise
      error ("attention:file", "%s: model type \"%s\" is not read (BPE and WordPiece are)",
             file, j.model.type);
  endswitch
endfunction

## a BPE's pre-tokenizer: byte-level (ByteLevel, no prefix space, GPT-2's
## regex), after Digits in a Sequence (digits 1 for each digit alone, 2 for
## runs), or none of these (no ByteLevel anywhere)
function [byte_level, digits] = byte_level_pre (pre, need)
  steps = {pre};
  if (isstruct (pre) && strcmp (field_or_empty (pre, "type"), "Sequence"))
    steps = field_or_empty (pre, "pretokenizers");
    if (isstruct (steps))
      steps = num2cell (steps);
    endif
    need (iscell (steps), "pre_tokenizer: Sequence's pretokenizers must be a list");
  endif
  types = cellfun (@(s) field_or_empty (s, "type"), steps, "uniformoutput", false);
  byte_level = any (strcmp (types, "ByteLevel"));
  digits = 0;
  if (! byte_level)
    return;
  endif
  last = steps{end};
  need (strcmp (types{end}, "ByteLevel")
        && ! isequal (field_or_empty (last, "add_prefix_space"), true)
        && ! isequal (field_or_empty (last, "use_regex"), false),
        "pre_tokenizer: only ByteLevel (no prefix space, GPT-2's regex) is read, alone or after Digits");
  if (numel (steps) == 2)
    need (strcmp (types{1}, "Digits"),
          sprintf ("pre_tokenizer: %s before ByteLevel is not read (Digits is)", types{1}));
    digits = 2 - isequal (field_or_empty (steps{1}, "individual_digits"), true);
  else
    need (numel (steps) == 1, "pre_tokenizer: only Digits then ByteLevel is read in a Sequence");
  endif
endfunction

%!test
%! d = tempname ();
%! mkdir (d);
%! fid = fopen (fullfile (d, "vocab.txt"), "w");
%! fputs (fid, "[PAD]\n[UNK]\nthe\n");
%! fclose (fid);
%! tok = attn_tokenizer (d);
%! assert (tok.kind, "wordpiece");
%! assert (tok.pieces, {"[PAD]", "[UNK]", "the"});
%! assert (tok.unk, 2);
%! tok = attn_tokenizer (fullfile (d, "vocab.txt"), "lowercase", false);
%! assert (tok.lowercase, false);
%! confirm_recursive_rmdir (false, "local");
%! rmdir (d, "s");
%!test
%! d = tempname ();
%! mkdir (d);
%! try
%!   attn_tokenizer (d);
%!   error ("an empty folder was read");
%! catch err
%!   assert (err.identifier, "attention:file");
%!   assert (! isempty (strfind (err.message, "holds none of")));
%! end_try_catch
%! rmdir (d);
%!error <is not a file> attn_tokenizer ("no/such/file.txt")
%!error id=attention:type attn_tokenizer (3)
%!error id=attention:type attn_tokenizer ({"a"})
%!error id=attention:option attn_tokenizer (".", "side", "left")
%!error id=attention:nargin attn_tokenizer ()
