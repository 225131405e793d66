## Benchmark of the subword tokenizers: seconds to load each tokenizer and
## to tokenize and detokenize 1 MiB of text (the package's own README,
## NEWS, documentation and .m files, prose and code, repeated to 1 MiB,
## with the tokenizer test strings' emoji, accents and CJK).  Run by `make
## bench`, or alone from the repository's root:
##
##   octave-cli --eval 'addpath (fullfile (pwd, "src"), fullfile (pwd, "inst"));
##                      run ("tests/bench/bench_tokenizers.m")'
##
## The tokenizers are the test fixtures' (tests/fixtures/tokenizers); with
## ATTN_BENCH_GPT2 set to a folder holding GPT-2's full vocab.json and
## merges.txt (50,257 tokens) that one is timed too.  Timings are printed,
## never asserted.

1;   # a script, with a helper function below

## Medians over `runs` of the wall-clock and the CPU seconds one call of
## f () takes (on a shared machine the CPU time is the steadier one).
function [t, cpu] = seconds_per_call (f, runs)
  t = cpu = zeros (runs, 1);
  for r = 1:runs
    t0 = tic ();
    c0 = cputime ();
    f ();
    t(r) = toc (t0);
    cpu(r) = cputime () - c0;
  endfor
  t = median (t);
  cpu = median (cpu);
endfunction

root = fileparts (fileparts (fileparts (mfilename ("fullpath"))));
fixtures = fullfile (root, "tests", "fixtures", "tokenizers");
files = [{fullfile(root, "README.md"), fullfile(root, "NEWS"), fullfile(fixtures, "strings.json")}, ...
         cellfun(@(f) fullfile (root, "doc", f), {dir(fullfile (root, "doc", "*.md")).name}, "uniformoutput", false), ...
         glob(fullfile (root, "inst", "*", "*.m"))'];
text = strjoin (cellfun (@fileread, files, "uniformoutput", false), "\n");
text = repmat (text, 1, ceil (2^20 / numel (text)))(1:2^20);
text = text(1:find (bitand (double (text), 192) != 128, 1, "last") - 1);   # whole characters

sources = {"BPE, GPT-2's first 1000 merges", fullfile(fixtures, "gpt2-small");
           "WordPiece, 411 entries", fullfile(fixtures, "bert-small", "vocab.txt");
           "unigram, Marian source.spm", fullfile(fixtures, "marian-small");
           "unigram, target.spm (rules, byte fallback)", fullfile(fixtures, "marian-small", "target.spm");
           "SentencePiece BPE, Llama tokenizer.model", fullfile(fixtures, "llama-small", "tokenizer.model");
           "spbpe, TinyLlama's tokenizer.json", fullfile(fixtures, "llama-small", "tokenizer.json");
           "BPE, SmolLM's tokenizer.json (Digits)", fullfile(fixtures, "smollm-small", "tokenizer.json")};
if (! isempty (getenv ("ATTN_BENCH_GPT2")))
  sources(end+1, :) = {"BPE, GPT-2 (50,257 tokens)", getenv("ATTN_BENCH_GPT2")};
endif

printf ("%d bytes of text\n", numel (text));
printf ("%-44s %7s %13s %13s %8s\n", "tokenizer", "load s", "encode s/cpu", "decode s/cpu", "tokens");
for k = 1:rows (sources)
  t0 = tic ();
  tok = attn_tokenizer (sources{k, 2});
  load_s = toc (t0);
  ids = attn_tokenize (tok, text);
  [encode_s, encode_cpu] = seconds_per_call (@() attn_tokenize (tok, text), 3);
  [decode_s, decode_cpu] = seconds_per_call (@() attn_detokenize (tok, ids), 3);
  printf ("%-44s %7.2f %6.2f/%-6.2f %6.2f/%-6.2f %8d\n", sources{k, 1}, load_s,
          encode_s, encode_cpu, decode_s, decode_cpu, numel (ids));
endfor
