## attention_demo: seed 004's translation step, computed by the kernels.
##
## Run it with `make demo`, or at the Octave prompt once the package is on
## the path (see README.md):  run doc/attention_demo.m

## "the black cat": each source word's key is its role (det, adj, noun, end,
## scaled by 2), its value the one-hot French word it translates to.
source = {"the", "black", "cat", "<end>"};
french = {"le", "chat", "noir", "chien", "blanc", "<end>"};
word = @(w) double (strcmp (french, w));            # one-hot, 1x6
row = @(x) sprintf ("%g ", x)(1:end-1);
K = 2 * eye (4);
V = [word("le"); word("noir"); word("chat"); word("<end>")];

## After "le" the decoder asks for a noun, and a bit of the adjective.
q = [0 1 2 0];
[m, A, S] = attn_sdpa (q, K, V);
printf ("Seed 004, one decoder step: q = [%s] against the keys of \"%s\"\n",
        row (q), strjoin (source(1:3), " "));
printf ("  scores q*K'         [%s]\n", row (q * K'));
printf ("  scaled by sqrt(4)   [%s]\n", row (S));
printf ("  softmax weights     [%s]\n", sprintf (" %.2f", A)(2:end));
[w, k] = max (m);
printf ("  the message puts %.2f on \"%s\": greedy decoding writes %s\n\n",
        w, french{k}, french{k});

## Same decoder, another source: the keys (roles) and the query are
## identical, the values are not, so the decoder writes another word.
V_dog = [word("le"); word("blanc"); word("chien"); word("<end>")];
[~, k] = max (attn_sdpa (q, K, V_dog));
printf ("Same query on \"the white dog\": writes %s\n\n", french{k});

## All four decoder steps at once, as one cross-attention block: one query
## row per target word (det; noun and a bit of adj; adj; end).  W_Q and W_K
## are identities, W_V turns roles into French words, W_O is zero so the
## block's output is its input and the trace shows the step.
D = [2 0 0 0; 0 1 2 0; 0 2 1 0; 0 0 0 2];
B = struct ("W_Q", eye (4), "W_K", eye (4), "W_V", V / 2, "W_O", zeros (6, 4),
            "heads", 1);
[Y, T] = attn_cross (D, K, B);
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
