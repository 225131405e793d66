/* attention_core.c: scaled dot-product attention and the three attention
 * blocks, forward and backward, on column-major double or single arrays.
 *
 * One kernel, attn_sdpa_forward / attn_sdpa_backward, does the attention of
 * one head of one batch item.  The block functions only project the rows
 * into Q, K, V, call that kernel once per head and batch item, and project
 * the message back: encoder self-attention, masked decoder self-attention
 * and cross-attention are the same code with different rows and masks.
 *
 * The kernels are written once, over `real`, in attention_core_real.inc,
 * included below for double and for single; what does not depend on the
 * type (masks, tiles, workspace sizes) is here.
 */
#include "attention_core.h"

#include <math.h>
#include <string.h>

/* Fortran BLAS, as Octave links it (32-bit integers; the gateways check
 * that every dimension fits). */
extern void dgemm_(const char *transa, const char *transb,
                   const int *m, const int *n, const int *k,
                   const double *alpha, const double *a, const int *lda,
                   const double *b, const int *ldb,
                   const double *beta, double *c, const int *ldc);
extern void dgemv_(const char *trans, const int *m, const int *n,
                   const double *alpha, const double *a, const int *lda,
                   const double *x, const int *incx,
                   const double *beta, double *y, const int *incy);
extern void dtrmm_(const char *side, const char *uplo, const char *transa,
                   const char *diag, const int *m, const int *n,
                   const double *alpha, const double *a, const int *lda,
                   double *b, const int *ldb);
extern void sgemm_(const char *transa, const char *transb,
                   const int *m, const int *n, const int *k,
                   const float *alpha, const float *a, const int *lda,
                   const float *b, const int *ldb,
                   const float *beta, float *c, const int *ldc);
extern void sgemv_(const char *trans, const int *m, const int *n,
                   const float *alpha, const float *a, const int *lda,
                   const float *x, const int *incx,
                   const float *beta, float *y, const int *incy);
extern void strmm_(const char *side, const char *uplo, const char *transa,
                   const char *diag, const int *m, const int *n,
                   const float *alpha, const float *a, const int *lda,
                   float *b, const int *ldb);

/* Batch items that hold any rows.  With no query and no key rows every
 * result of an item is empty, and an empty batch may still be 2^40 long. */
static attn_int batch_items(const attn_shape *s)
{
    return s->n == 0 && s->m == 0 ? 0 : s->batch;
}

/* Causal attention with at least as many keys as queries (m >= n) reads,
 * past the m - n keys every query sees, a lower triangle of keys.  From
 * TRIANGLE_MIN query rows on, the products with A (and its gradient) run as
 * one triangular product each (dtrmm: half the flops of the full product),
 * and the products that make A and dA run in row tiles, each stopping at
 * the last key its bottom row may read.  Smaller products run slower, so
 * the tiles stay at least TILE_MIN rows (n = 512: two tiles of 256 rows;
 * from 2048 on, four). */
enum { TRIANGLE_MIN = 64, CAUSAL_TILES = 4, TILE_MIN = 256 };

static int triangular(attn_int n, attn_int m, int causal)
{
    return causal && m >= n && n >= TRIANGLE_MIN;
}

static attn_int tile_rows(attn_int n, attn_int m, int causal)
{
    attn_int tile = (n + CAUSAL_TILES - 1) / CAUSAL_TILES;
    if (tile < TILE_MIN)
        tile = TILE_MIN;
    if (!triangular(n, m, causal) || tile > n)
        tile = n;
    return tile > 0 ? tile : 1;
}

/* Number of keys rows r0 .. r1-1 may read at most. */
static attn_int keys_in_reach(attn_int n, attn_int m, int causal, attn_int r1)
{
    if (!causal)
        return m;
    attn_int reach = (m - n) + r1;  /* last row r1-1 reads j <= m-n+r1-1 */
    return reach < 0 ? 0 : (reach > m ? m : reach);
}

/* The first of rows r0 .. r1-1 that may read key j by the causal and key
 * masks (r1 if none may); the pair mask is applied entry by entry. */
static attn_int first_reader(const attn_mask *mask, attn_int n, attn_int m,
                             attn_int r0, attn_int r1, attn_int reach,
                             attn_int j)
{
    if (j >= reach || (mask && mask->keys && !mask->keys[j]))
        return r1;
    const attn_int row = j - (m - n);  /* causal: row i reads j <= m-n+i */
    if (mask && mask->causal && row > r0)
        return row < r1 ? row : r1;
    return r0;
}

/* Rows per softmax_rows call: the scores and weights of that many rows
 * stay in cache across its passes (2 x 64 rows x 1000 keys = 1 MB). */
enum { SOFTMAX_ROWS = 64 };

size_t attn_sdpa_forward_work(attn_int n, attn_int m)
{
    (void) n;
    (void) m;
    return 3 * SOFTMAX_ROWS;  /* row maxima, sums, corrections */
}

size_t attn_sdpa_backward_work(attn_int n, attn_int m)
{
    return (size_t) (n > 0 ? n : 1) * (size_t) (m > 0 ? m : 1)
           + (size_t) (n > 0 ? n : 1);
}

static attn_int max3(attn_int a, attn_int b, attn_int c)
{
    attn_int x = a > b ? a : b;
    return x > c ? x : c;
}

/* ---- the block options: biases, K/V head groups, rotary positions ----- */

/* h_kv, the K/V heads: query head j reads K/V head j / (h / h_kv). */
static attn_int kv_heads_of(const attn_shape *s)
{
    return s->kv_heads > 0 ? s->kv_heads : s->heads;
}

size_t attn_block_forward_work(const attn_shape *s)
{
    const size_t items = (size_t) batch_items(s);
    const size_t sdpa = attn_sdpa_forward_work(s->n, s->m);
    const size_t nB = (size_t) s->n * items;
    const size_t kB = (size_t) (s->m - s->past) * items;  /* new key rows */
    const size_t rows = nB > kB ? nB : kB;
    size_t work = sdpa;
    if (s->rope_base > 0)   /* the rotation table of the n new rows */
        work += (size_t) s->n * (size_t) s->dk;
    if (items > 1)   /* stacked X_q, X_kv; delta */
        work += nB * (size_t) s->d + kB * (size_t) s->d_src
                + nB * (size_t) s->d;
    if (items > 1 || s->past > 0)   /* one projection at a time */
        work += rows * (size_t) max3(s->heads * s->dk, s->heads * s->dv, 1);
    return work;
}

size_t attn_block_backward_work(const attn_shape *s)
{
    const size_t items = (size_t) batch_items(s);
    const size_t nB = (size_t) s->n * (items > 1 ? items : 1);
    const size_t mB = (size_t) s->m * (items > 1 ? items : 1);
    const size_t d = (size_t) s->d, d_src = (size_t) s->d_src;
    const size_t hk = (size_t) (s->heads * s->dk);
    const size_t hv = (size_t) (s->heads * s->dv);
    const size_t h_kv = (size_t) kv_heads_of(s);
    const size_t m = (size_t) s->m, dk = (size_t) s->dk, dv = (size_t) s->dv;
    /* dmessage, dQ (nB rows); dK, dV (mB rows); with K/V head groups one
     * head's dK, dV; with rotary positions the table; one sdpa workspace;
     * and with several items the stacked X_q, X_kv, dY (then dX_q),
     * message */
    return nB * hv + nB * hk + mB * h_kv * dk + mB * h_kv * dv
           + (h_kv < (size_t) s->heads ? m * (dk + dv) : 0)
           + (s->rope_base > 0 ? (size_t) s->n * dk : 0)
           + attn_sdpa_backward_work(s->n, s->m)
           + (items > 1 ? nB * d + mB * d_src + nB * d + nB * hv : 0);
}

size_t attn_rows_forward_work(attn_int n, attn_int a, attn_int c,
                              attn_int pages)
{
    /* stacked X (nP x a) and the stacked product (nP x c) */
    return pages > 1 ? (size_t) (n * pages) * (size_t) (a + c) : 0;
}

size_t attn_rows_backward_work(attn_int n, attn_int a, attn_int c,
                               attn_int pages)
{
    /* stacked dY (nP x c), X (nP x a) and dX (nP x a) */
    return pages > 1 ? (size_t) (n * pages) * (size_t) (c + 2 * a) : 0;
}

/* Pages LayerNorm runs together when each has one row (layernorm_rows):
 * their rows stay in the L1 cache (8 x 64 doubles). */
enum { ROW_GROUP = 8 };

size_t attn_layernorm_backward_work(attn_int n)
{
    /* two sums a row of a group */
    return 2 * (size_t) (n == 1 ? ROW_GROUP : n);
}

attn_adam_hyper attn_adam_at(double lr, double beta1, double beta2,
                             double epsilon, double t)
{
    attn_adam_hyper h = { lr, beta1, beta2, epsilon, 1.0 - pow(beta1, t),
                          1.0 - pow(beta2, t) };
    return h;
}

/* ---- the kernels, on double arrays, then on single ones ----------------- */

#define ATTN_REAL double
#define ATTN_NAME(x) x
#define ATTN_GEMM dgemm_
#define ATTN_GEMV dgemv_
#define ATTN_TRMM dtrmm_
#define EXP exp
#define LOG log
#define SQRT sqrt
#include "attention_core_real.inc"
#undef ATTN_REAL
#undef ATTN_NAME
#undef ATTN_GEMM
#undef ATTN_GEMV
#undef ATTN_TRMM
#undef EXP
#undef LOG
#undef SQRT

#define ATTN_REAL float
#define ATTN_NAME(x) x##_f
#define ATTN_GEMM sgemm_
#define ATTN_GEMV sgemv_
#define ATTN_TRMM strmm_
#define EXP expf
#define LOG logf
#define SQRT sqrtf
#include "attention_core_real.inc"
