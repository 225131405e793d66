/* attention_core_real.h: the kernels' declarations over one type,
 * included by attention_core.h twice: ATTN_REAL double with the names as
 * they are, ATTN_REAL float with the suffix _f (attn_sdpa_forward_f,
 * attn_weights_f, ...).  The workspaces count entries of ATTN_REAL.  No
 * include guard: it is meant to be read twice. */

/* P = the softmax of every row of Z, the same arithmetic as A of
 * attn_sdpa_forward (row maximum subtracted, compensated row sums).
 *   Z  n x m x pages           P  n x m x pages
 *   work  attn_sdpa_forward_work(n, m)
 * Returns ATTN_OK, or ATTN_ERR_OVERFLOW when an entry of Z is not finite. */
int ATTN_NAME(attn_softmax_forward)(attn_int n, attn_int m, attn_int pages,
    const ATTN_REAL *Z, ATTN_REAL *P, ATTN_REAL *work);

/* scores = Q*K'/sqrt(dk) (-Inf where not allowed), A = row softmax(scores),
 * M = A*V.  A row with no allowed key gets A = 0 and M = 0.
 *   Q       n x dk  (ld ldq)          K  m x dk  (ld ldk)
 *   V       m x dv  (ld ldv)
 *   scores  n x m   (ld n)            A  n x m   (ld n)
 *   M       n x dv  (ld ldm)          work  attn_sdpa_forward_work(n, m)
 * Returns ATTN_OK, or ATTN_ERR_OVERFLOW when an allowed score or M is not
 * finite (the range of the type overflowed). */
int ATTN_NAME(attn_sdpa_forward)(attn_int n, attn_int m, attn_int dk,
    attn_int dv, const ATTN_REAL *Q, attn_int ldq, const ATTN_REAL *K,
    attn_int ldk, const ATTN_REAL *V, attn_int ldv, const attn_mask *mask,
    ATTN_REAL *scores, ATTN_REAL *A, ATTN_REAL *M, attn_int ldm,
    ATTN_REAL *work);

/* Gradients of attn_sdpa_forward given dM = dL/dM.  `causal` only lets the
 * kernel skip the zero upper triangle of A (through triangular products);
 * the result does not depend on it beyond rounding.
 *   dM  n x dv (ld lddm)   A  n x m (ld n)
 *   dQ  n x dk (ld lddq)   dK  m x dk (ld lddk)   dV  m x dv (ld lddv)
 * dQ, dK, dV are overwritten.  Returns ATTN_OK, or ATTN_ERR_OVERFLOW when
 * a gradient is not finite. */
int ATTN_NAME(attn_sdpa_backward)(attn_int n, attn_int m, attn_int dk,
    attn_int dv, const ATTN_REAL *dM, attn_int lddm, const ATTN_REAL *Q,
    attn_int ldq, const ATTN_REAL *K, attn_int ldk, const ATTN_REAL *V,
    attn_int ldv, const ATTN_REAL *A, int causal, ATTN_REAL *dQ, attn_int lddq,
    ATTN_REAL *dK, attn_int lddk, ATTN_REAL *dV, attn_int lddv,
    ATTN_REAL *work);

/* h_kv = kv_heads (h when 0); each bias may be NULL (none) */
typedef struct {
    const ATTN_REAL *W_Q;  /* d     x h*dk    */
    const ATTN_REAL *W_K;  /* d_src x h_kv*dk */
    const ATTN_REAL *W_V;  /* d_src x h_kv*dv */
    const ATTN_REAL *W_O;  /* h*dv  x d       */
    const ATTN_REAL *b_Q;  /* 1 x h*dk        */
    const ATTN_REAL *b_K;  /* 1 x h_kv*dk     */
    const ATTN_REAL *b_V;  /* 1 x h_kv*dv     */
    const ATTN_REAL *b_O;  /* 1 x d           */
} ATTN_NAME(attn_weights);

typedef struct {
    ATTN_REAL *Q;        /* n x h*dk x batch    (rotated with rope_base) */
    ATTN_REAL *K;        /* m x h_kv*dk x batch (rotated with rope_base) */
    ATTN_REAL *V;        /* m x h_kv*dv x batch */
    ATTN_REAL *scores;   /* n x m x h x batch   */
    ATTN_REAL *A;        /* n x m x h x batch   */
    ATTN_REAL *message;  /* n x h*dv x batch    */
    ATTN_REAL *delta;    /* n x d x batch       */
    ATTN_REAL *out;      /* n x d x batch       */
} ATTN_NAME(attn_trace);

typedef struct {
    ATTN_REAL *W_Q, *W_K, *W_V, *W_O;  /* shapes of the weights, summed
                                          over batch                     */
    ATTN_REAL *dXq;                    /* n x d x batch                  */
    ATTN_REAL *dXkv;                   /* m x d_src x batch; may equal
                                          dXq (self)                     */
    ATTN_REAL *b_Q, *b_K, *b_V, *b_O;  /* shapes of the biases, summed
                                          over every row; NULL: not
                                          wanted                         */
} ATTN_NAME(attn_grads);

/* Xq n x d x batch (queries), Xkv (m - past) x d_src x batch (keys,
 * values; Xq for self-attention, and always with rope_base), key_allow
 * m x batch or NULL.
 * Q = Xq*W_Q + b_Q, K = Xkv*W_K + b_K, V = Xkv*W_V + b_V (a NULL bias
 * adds nothing); with rope_base, Q and K are then rotated by position
 * (query row i at past + i, key row r at r); query head j reads K/V head
 * j / (h / h_kv); delta = message*W_O + b_O.  With
 * past > 0 the caller has put the keys and values of the rows before Xkv's
 * (a K/V cache) in the first past rows of each item of t->K and t->V
 * (attn_put_past), and
 * the new rows go after them (with causal, query i of n then reads keys
 * j <= past + i).  Fills every other field of t;
 * t->scores may equal t->A (the weights then overwrite the scores in
 * place, every other result unchanged: the lean trace).  The projections
 * and the output product each run once over all n*batch (m*batch) rows,
 * stacked in the workspace; attention itself runs head by head and item
 * by item.  Returns ATTN_OK, or ATTN_ERR_OVERFLOW when Q, a row of K or
 * V computed here (not the cache's), a score the mask allows, the message
 * or the output is not finite. */
int ATTN_NAME(attn_block_forward)(const attn_shape *s,
    const ATTN_NAME(attn_weights) *w, const ATTN_REAL *Xq,
    const ATTN_REAL *Xkv, const unsigned char *key_allow,
    ATTN_NAME(attn_trace) *t, ATTN_REAL *work);

/* The first past rows of each item of Y (m x cols x items) = P (past x
 * cols x items): a K/V cache put before the rows attn_block_forward
 * computes (past > 0). */
void ATTN_NAME(attn_put_past)(attn_int past, attn_int m, attn_int cols,
    attn_int items, const ATTN_REAL *P, ATTN_REAL *Y);

/* dY n x d x batch = dL/d(out).  Reads Q, K, V, A and message of the
 * forward pass's trace (a whole pass: past = 0).  The bias gradients
 * wanted (non-NULL in g) are filled.  Every weight gradient and
 * input-gradient product
 * is one product over all stacked rows of the batch.
 * When g->dXkv == g->dXq the two input gradients are summed (self).
 * Returns ATTN_OK, or ATTN_ERR_OVERFLOW when a gradient is not finite. */
int ATTN_NAME(attn_block_backward)(const attn_shape *s,
    const ATTN_NAME(attn_weights) *w, const ATTN_REAL *Xq,
    const ATTN_REAL *Xkv, const ATTN_NAME(attn_trace) *t, const ATTN_REAL *dY,
    ATTN_NAME(attn_grads) *g, ATTN_REAL *work);

/* Y = X*W + b on every row, one product over the stacked rows.
 *   X  n x a x pages     W  a x c     b  1 x c, or NULL
 *   Y  n x c x pages     work  attn_rows_forward_work(n, a, c, pages) */
void ATTN_NAME(attn_rows_forward)(attn_int n, attn_int a, attn_int c,
    attn_int pages, const ATTN_REAL *X, const ATTN_REAL *W, const ATTN_REAL *b,
    ATTN_REAL *Y, ATTN_REAL *work);

/* Gradients of attn_rows_forward given dY (n x c x pages):
 *   dX  n x a x pages = dY*W'          (skipped when W is NULL)
 *   dW  a x c = sum over rows X'*dY    (skipped when X is NULL)
 *   db  1 x c = sum of dY's rows       (skipped when db is NULL)
 * Sums run over the stacked rows (n*pages), item after item.
 * work  attn_rows_backward_work(n, a, c, pages) (NULL will do when X and
 * W are both NULL: the sum alone reads dY in place). */
void ATTN_NAME(attn_rows_backward)(attn_int n, attn_int a, attn_int c,
    attn_int pages, const ATTN_REAL *dY, const ATTN_REAL *X,
    const ATTN_REAL *W, ATTN_REAL *dX, ATTN_REAL *dW, ATTN_REAL *db,
    ATTN_REAL *work);

/* LayerNorm of every row of X (n x d x pages) over its d entries:
 * mu = mean, sigma = sqrt (population variance + epsilon), xhat =
 * (x - mu)/sigma, Y = xhat.*gain + bias.  The order of operations is that
 * of the model layer's formula in Octave (the same results bit for bit).
 *   X, Y, xhat  n x d x pages    mu, sigma  n x 1 x pages
 *   gain, bias  1 x d */
void ATTN_NAME(attn_layernorm_forward)(attn_int n, attn_int d, attn_int pages,
    const ATTN_REAL *X, const ATTN_REAL *gain, const ATTN_REAL *bias,
    double epsilon, ATTN_REAL *Y, ATTN_REAL *mu, ATTN_REAL *sigma,
    ATTN_REAL *xhat);

/* Gradients of attn_layernorm_forward given dY (n x d x pages):
 * dX (n x d x pages), dgain and dbias (1 x d, sums over every row).
 * work  attn_layernorm_backward_work(n) entries. */
void ATTN_NAME(attn_layernorm_backward)(attn_int n, attn_int d, attn_int pages,
    const ATTN_REAL *dY, const ATTN_REAL *xhat, const ATTN_REAL *sigma,
    const ATTN_REAL *gain, ATTN_REAL *dX, ATTN_REAL *dgain, ATTN_REAL *dbias,
    ATTN_REAL *work);

/* The teacher-forced cross-entropy of model_loss, in the order of
 * operations of its Octave formula (in double, bit for bit its results):
 *   top = max_k z(i,k),  E = exp (z - top),  total = sum_k E (k in order)
 *   r = -((z(i,label) - top) - log (total)); with smoothing s:
 *   r = (1-s)*r - (s/V)*(sum_k (z - top) - V*log (total));  r *= allow
 *   loss = sum (r .* w) / count,  count = sum (w) (1 when 0)
 *   dlogits = E .* ((w/count) ./ total) - (1-s)*(w/count) at the label
 *             - (s/V)*(w/count) everywhere
 *   logits, dlogits  n x V x pages (dlogits NULL: not wanted)
 *   label            n x pages, ids 1..V     allow  n x pages, 0 or 1
 *   w                n x pages row weights (double; 0 where not allowed)
 *   row_loss         n x pages               loss   1
 *   work             n * (pages + 2) */
void ATTN_NAME(attn_cross_entropy)(attn_int n, attn_int V, attn_int pages,
    const ATTN_REAL *logits, const attn_int *label,
    const unsigned char *allow, const double *w, double smoothing,
    ATTN_REAL *loss, ATTN_REAL *row_loss, ATTN_REAL *dlogits,
    ATTN_REAL *work);

/* One SGD step on n parameters: w_out[i] = w[i] + (-lr) * g[i] (the
 * spelling of attn_sgd's w + (-lr*g), so bit for bit the same).
 *   w, g, w_out  n entries (w_out may be w) */
void ATTN_NAME(attn_sgd_step)(attn_int n, const ATTN_REAL *w,
    const ATTN_REAL *g, double lr, ATTN_REAL *w_out);

/* One Adam step on n parameters, in the order of operations of attn_adam's
 * formula: m = b1*m + (1-b1)*g, v = b2*v + (1-b2)*g.^2,
 * w += (-lr * m/bias1) ./ (sqrt (v/bias2) + epsilon).
 *   w, mo, ve, g            n entries in (the moments before the step)
 *   w_out, mo_out, ve_out   n entries out (each may be its input) */
void ATTN_NAME(attn_adam_step)(attn_int n, const ATTN_REAL *w,
    const ATTN_REAL *mo, const ATTN_REAL *ve, const ATTN_REAL *g,
    const attn_adam_hyper *h, ATTN_REAL *w_out, ATTN_REAL *mo_out,
    ATTN_REAL *ve_out);
