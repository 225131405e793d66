/* attention_core.h: the attention kernels on plain column-major double
 * arrays.  No Octave or MEX types here: the MEX gateways (attn_*.c) validate
 * and unpack their arguments, then call these functions.
 *
 * Notation follows the course: tokens are rows, Q = X*W_Q, scores are
 * n_queries x n_keys, softmax runs along each row.  Every matrix is stored
 * column-major (as Octave stores it): element (i, j) of an r x c matrix with
 * leading dimension ld sits at [i + j*ld].
 */
#ifndef ATTENTION_CORE_H
#define ATTENTION_CORE_H

#include <stddef.h>

typedef ptrdiff_t attn_int;

enum attn_status {
    ATTN_OK = 0,
    ATTN_ERR_OVERFLOW = 1   /* a result is not finite although the inputs are */
};

/* Which (query i, key j) pairs may attend; every part is optional and the
 * parts combine with AND.  With `causal`, query i is key position
 * (m - n) + i, so it reads keys j <= (m - n) + i (j <= i when n = m). */
typedef struct {
    int causal;
    const unsigned char *keys;   /* m, or NULL: key j is a real token */
    const unsigned char *pairs;  /* n x m (ld n), or NULL */
} attn_mask;

/* ---- scaled dot-product attention, one head of one batch item ---------- */

/* Workspace, in doubles, for attn_sdpa_forward. */
size_t attn_sdpa_forward_work(attn_int n, attn_int m);

/* scores = Q*K'/sqrt(dk) (-Inf where not allowed), A = row softmax(scores),
 * M = A*V.  A row with no allowed key gets A = 0 and M = 0.
 *   Q       n x dk  (ld ldq)          K  m x dk  (ld ldk)
 *   V       m x dv  (ld ldv)
 *   scores  n x m   (ld n)            A  n x m   (ld n)
 *   M       n x dv  (ld ldm)          work  attn_sdpa_forward_work(n, m)
 * Returns ATTN_OK, or ATTN_ERR_OVERFLOW when an allowed score or M is not
 * finite (the double range overflowed). */
int attn_sdpa_forward(attn_int n, attn_int m, attn_int dk, attn_int dv,
                      const double *Q, attn_int ldq,
                      const double *K, attn_int ldk,
                      const double *V, attn_int ldv,
                      const attn_mask *mask,
                      double *scores, double *A,
                      double *M, attn_int ldm,
                      double *work);

/* Workspace, in doubles, for attn_sdpa_backward. */
size_t attn_sdpa_backward_work(attn_int n, attn_int m);

/* Gradients of attn_sdpa_forward given dM = dL/dM.  `causal` only lets the
 * kernel skip the zero upper triangle of A (through triangular products);
 * the result does not depend on it beyond rounding.
 *   dM  n x dv (ld lddm)   A  n x m (ld n)
 *   dQ  n x dk (ld lddq)   dK  m x dk (ld lddk)   dV  m x dv (ld lddv)
 * dQ, dK, dV are overwritten.  Returns ATTN_OK, or ATTN_ERR_OVERFLOW when
 * a gradient is not finite. */
int attn_sdpa_backward(attn_int n, attn_int m, attn_int dk, attn_int dv,
                        const double *dM, attn_int lddm,
                        const double *Q, attn_int ldq,
                        const double *K, attn_int ldk,
                        const double *V, attn_int ldv,
                        const double *A, int causal,
                        double *dQ, attn_int lddq,
                        double *dK, attn_int lddk,
                        double *dV, attn_int lddv,
                        double *work);

/* ---- attention blocks: projections, heads, output projection, residual -- */

typedef struct {
    attn_int n;      /* query rows            */
    attn_int m;      /* key/value rows        */
    attn_int d;      /* query-side width      */
    attn_int d_src;  /* key/value-side width  */
    attn_int dk, dv; /* per-head widths       */
    attn_int heads;
    attn_int batch;
    int causal;      /* masked decoder self-attention */
    attn_int past;   /* key/value rows given before Xkv's (a K/V cache);
                        0 in a whole pass */
    attn_int kv_heads;  /* h_kv, the K/V heads (grouped-query attention;
                           divides heads); 0: as many as heads */
    double rope_base;   /* rotary positions of Q and K with this base
                           (self, masked; dk even); 0: none */
} attn_shape;

/* h_kv = kv_heads (h when 0); each bias may be NULL (none) */
typedef struct {
    const double *W_Q;  /* d     x h*dk    */
    const double *W_K;  /* d_src x h_kv*dk */
    const double *W_V;  /* d_src x h_kv*dv */
    const double *W_O;  /* h*dv  x d       */
    const double *b_Q;  /* 1 x h*dk        */
    const double *b_K;  /* 1 x h_kv*dk     */
    const double *b_V;  /* 1 x h_kv*dv     */
    const double *b_O;  /* 1 x d           */
} attn_weights;

typedef struct {
    double *Q;        /* n x h*dk x batch    (rotated with rope_base) */
    double *K;        /* m x h_kv*dk x batch (rotated with rope_base) */
    double *V;        /* m x h_kv*dv x batch */
    double *scores;   /* n x m x h x batch   */
    double *A;        /* n x m x h x batch   */
    double *message;  /* n x h*dv x batch    */
    double *delta;    /* n x d x batch       */
    double *out;      /* n x d x batch       */
} attn_trace;

typedef struct {
    double *W_Q, *W_K, *W_V, *W_O;  /* shapes of the weights, summed over batch */
    double *dXq;                    /* n x d x batch                            */
    double *dXkv;                   /* m x d_src x batch; may equal dXq (self)  */
    double *b_Q, *b_K, *b_V, *b_O;  /* shapes of the biases, summed over
                                       every row; NULL: not wanted          */
} attn_grads;

size_t attn_block_forward_work(const attn_shape *s);

/* Xq n x d x batch (queries), Xkv (m - past) x d_src x batch (keys,
 * values; Xq for self-attention, and always with rope_base), key_allow
 * m x batch or NULL.
 * Q = Xq*W_Q + b_Q, K = Xkv*W_K + b_K, V = Xkv*W_V + b_V (a NULL bias
 * adds nothing); with rope_base, Q and K are then rotated by position
 * (query row i at past + i, key row r at r); query head j reads K/V head
 * j / (h / h_kv); delta = message*W_O + b_O.  With
 * past > 0 the caller has put the keys and values of the rows before Xkv's
 * (a K/V cache) in the first past rows of each item of t->K and t->V, and
 * the new rows go after them (with causal, query i of n then reads keys
 * j <= past + i).  Fills every other field of t;
 * t->scores may equal t->A (the weights then overwrite the scores in
 * place, every other result unchanged: the lean trace).  The projections
 * and the output product each run once over all n*batch (m*batch) rows,
 * stacked in the workspace; attention itself runs head by head and item
 * by item.  Returns ATTN_OK, or ATTN_ERR_OVERFLOW when Q, K, V, a score,
 * the message or the output is not finite. */
int attn_block_forward(const attn_shape *s, const attn_weights *w,
                       const double *Xq, const double *Xkv,
                       const unsigned char *key_allow,
                       attn_trace *t, double *work);

size_t attn_block_backward_work(const attn_shape *s);

/* dY n x d x batch = dL/d(out).  Reads Q, K, V, A and message of the
 * forward pass's trace (a whole pass: past = 0).  The bias gradients
 * wanted (non-NULL in g) are filled.  Every weight gradient and
 * input-gradient product
 * is one product over all stacked rows of the batch.
 * When g->dXkv == g->dXq the two input gradients are summed (self).
 * Returns ATTN_OK, or ATTN_ERR_OVERFLOW when a gradient is not finite. */
int attn_block_backward(const attn_shape *s, const attn_weights *w,
                         const double *Xq, const double *Xkv,
                         const attn_trace *t, const double *dY,
                         attn_grads *g, double *work);

/* ---- rows times a matrix (attn_rows) ------------------------------------ */

/* Workspace, in doubles, for attn_rows_forward / attn_rows_backward. */
size_t attn_rows_forward_work(attn_int n, attn_int a, attn_int c,
                              attn_int pages);
size_t attn_rows_backward_work(attn_int n, attn_int a, attn_int c,
                               attn_int pages);

/* Y = X*W + b on every row, one product over the stacked rows.
 *   X  n x a x pages     W  a x c     b  1 x c, or NULL
 *   Y  n x c x pages     work  attn_rows_forward_work(n, a, c, pages) */
void attn_rows_forward(attn_int n, attn_int a, attn_int c, attn_int pages,
                       const double *X, const double *W, const double *b,
                       double *Y, double *work);

/* Gradients of attn_rows_forward given dY (n x c x pages):
 *   dX  n x a x pages = dY*W'          (skipped when W is NULL)
 *   dW  a x c = sum over rows X'*dY    (skipped when X is NULL)
 *   db  1 x c = sum of dY's rows       (skipped when db is NULL)
 * Sums run over the stacked rows (n*pages), item after item.
 * work  attn_rows_backward_work(n, a, c, pages) (NULL will do when X and
 * W are both NULL: the sum alone reads dY in place). */
void attn_rows_backward(attn_int n, attn_int a, attn_int c, attn_int pages,
                        const double *dY, const double *X, const double *W,
                        double *dX, double *dW, double *db, double *work);

/* LayerNorm of every row of X (n x d x pages) over its d entries:
 * mu = mean, sigma = sqrt (population variance + epsilon), xhat =
 * (x - mu)/sigma, Y = xhat.*gain + bias.  The order of operations is that
 * of the model layer's formula in Octave (the same results bit for bit).
 *   X, Y, xhat  n x d x pages    mu, sigma  n x 1 x pages    gain, bias  1 x d */
void attn_layernorm_forward(attn_int n, attn_int d, attn_int pages,
                            const double *X, const double *gain,
                            const double *bias, double epsilon, double *Y,
                            double *mu, double *sigma, double *xhat);

/* Gradients of attn_layernorm_forward given dY (n x d x pages):
 * dX (n x d x pages), dgain and dbias (1 x d, sums over every row).
 * work  2*n doubles. */
void attn_layernorm_backward(attn_int n, attn_int d, attn_int pages,
                             const double *dY, const double *xhat,
                             const double *sigma, const double *gain,
                             double *dX, double *dgain, double *dbias,
                             double *work);

/* ---- optimiser steps (attn_step) ---------------------------------------- */

/* One SGD step on n parameters: w_out[i] = w[i] + (-lr) * g[i] (the
 * spelling of attn_sgd's w + (-lr*g), so bit for bit the same).
 *   w, g, w_out  n doubles (w_out may be w) */
void attn_sgd_step(attn_int n, const double *w, const double *g, double lr,
                   double *w_out);

/* Adam's hyperparameters at step t (t >= 1): bias1 = 1 - beta1^t,
 * bias2 = 1 - beta2^t. */
typedef struct {
    double lr, beta1, beta2, epsilon;
    double bias1, bias2;
} attn_adam_hyper;

attn_adam_hyper attn_adam_at(double lr, double beta1, double beta2,
                             double epsilon, double t);

/* One Adam step on n parameters, in the order of operations of attn_adam's
 * formula: m = b1*m + (1-b1)*g, v = b2*v + (1-b2)*g.^2,
 * w += (-lr * m/bias1) ./ (sqrt (v/bias2) + epsilon).
 *   w, mo, ve, g            n doubles in (the moments before the step)
 *   w_out, mo_out, ve_out   n doubles out (each may be its input) */
void attn_adam_step(attn_int n, const double *w, const double *mo,
                    const double *ve, const double *g,
                    const attn_adam_hyper *h, double *w_out, double *mo_out,
                    double *ve_out);

#endif
