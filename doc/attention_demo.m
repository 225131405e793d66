## attention_demo: seed 004's translation step, computed by the kernels.
##
## Run it with `make demo`, or at the Octave prompt once the package is on
## the path (see README.md):  run doc/attention_demo.m
##
## The numbers come from the hand-built model attn_toy ("blackcat"), the
## one the tutorial and attn_demo_black_cat use.

## "the black cat": each source word's key is its role (det, adj, noun, end,
## times 2), its value the one-hot French word it translates to.  The
## model's encoder adds nothing (W_O = 0) and its positions are zero, so
## the encoded rows are the source embeddings.
m = attn_toy ("blackcat");
source = {"the", "black", "cat", "<eos>"};
french = m.tgt_vocab.words(2:end);                 # le chat noir chien blanc <eos>
cross = m.decoder(1).cross;
E = m.src_embed(attn_encode (m.src_vocab, source), :);
K = E * cross.W_K;
V = E * cross.W_V;
row = @(x) sprintf ("%g ", x)(1:end-1);
printf ("Keys (roles det adj noun end) and values (French words) of \"%s\":\n",
        strjoin (source, " "));
printf ("  %-6s  K = [%s]   V = [%s]\n", [source; cellfun(row, num2cell (K, 2)', "UniformOutput", false);
                                         cellfun(row, num2cell (V, 2)', "UniformOutput", false)]{:});

## After "le" the decoder asks for a noun, and a bit of the adjective.
q = m.tgt_embed(attn_encode (m.tgt_vocab, "le"), :) * cross.W_Q;
[msg, A, S] = attn_sdpa (q, K, V);
printf ("\nSeed 004, one decoder step: after \"le\" the query is q = [%s]\n", row (q));
printf ("  scores q*K'         [%s]\n", row (q * K'));
printf ("  scaled by sqrt(4)   [%s]\n", row (S));
printf ("  softmax weights     [%s]\n", sprintf (" %.2f", A)(2:end));
[w, k] = max (msg);
printf ("  the message puts %.2f on \"%s\": greedy decoding writes %s\n\n",
        w, french{k}, french{k});

## Same decoder, another source: the keys (roles) and the query are
## identical, the values are not, so the decoder writes another word.
E_dog = m.src_embed(attn_encode (m.src_vocab, {"the", "white", "dog", "<eos>"}), :);
[~, k] = max (attn_sdpa (q, E_dog * cross.W_K, E_dog * cross.W_V));
printf ("Same query on \"the white dog\": writes %s\n\n", french{k});

## All four decoder steps at once, as the model's cross-attention block:
## one query row per word read (<bos> le chat noir), each asking for the
## role of the word to write next.
D = m.tgt_embed(attn_encode (m.tgt_vocab, {"<bos>", "le", "chat", "noir"}), :);
[~, T] = attn_cross (D, E, cross);
[~, words] = max (T.message, [], 2);
printf ("Four decoder steps through attn_cross: writes \"%s\"\n",
        strjoin (french(words), " "));
printf ("Weights A (rows: French words written, columns: source words)\n");
printf ("%8s", ""); printf ("%8s", source{:}); printf ("\n");
for i = 1:rows (T.A)
  printf ("%8s", french{words(i)}); printf ("%8.2f", T.A(i,:)); printf ("\n");
endfor
printf ("chat looks at cat, noir at black: the alignment crosses.\n\n");

## An encoder self-attention block with two heads and a masked decoder
## block on random rows: the trace names every matrix of the pass.
randn ("state", 4);
X = randn (3, 4);
B2 = struct ("W_Q", randn (4, 4), "W_K", randn (4, 4), "W_V", randn (4, 6),
             "W_O", randn (6, 4), "heads", 2);
[Y, T] = attn_self (X, B2);
printf ("attn_self, 3 tokens of width 4, 2 heads: trace fields\n");
for f = fieldnames (T)'
  v = T.(f{1});
  if (ischar (v))
    printf ("  %-10s \"%s\"\n", f{1}, v);
  elseif (isscalar (v))
    printf ("  %-10s %g\n", f{1}, v);
  else
    printf ("  %-10s %s\n", f{1}, strjoin (arrayfun (@num2str, size (v),
                                                     "uniformoutput", false),
                                           "x"));
  endif
endfor
[~, T] = attn_masked (X, B2);
printf ("attn_masked, head 1 weights: row i reads tokens j <= i\n");
printf ("%8.2f%8.2f%8.2f\n", T.A(:,:,1)');

printf (["\nNext: doc/tutorial.md, from this black cat to training a two-layer\n", ...
         "Transformer, command by command (start Octave here with octave-cli\n", ...
         "--no-history, then addpath ([pwd \"/src\"], [pwd \"/inst\"])); the seed\n", ...
         "walkthroughs attn_demo_river_bank, attn_demo_applications, attn_demo_black_cat;\n", ...
         "lookfor attention lists every function.\n"]);
