/* attention_core.c: scaled dot-product attention and the three attention
 * blocks, forward and backward, on column-major double arrays.
 *
 * One kernel, attn_sdpa_forward / attn_sdpa_backward, does the attention of
 * one head of one batch item.  The block functions only project the rows
 * into Q, K, V, call that kernel once per head and batch item, and project
 * the message back: encoder self-attention, masked decoder self-attention
 * and cross-attention are the same code with different rows and masks.
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
extern void dtrmm_(const char *side, const char *uplo, const char *transa,
                   const char *diag, const int *m, const int *n,
                   const double *alpha, const double *a, const int *lda,
                   double *b, const int *ldb);

/* C = 0, C rows x cols (ld ldc) */
static void zero(attn_int rows, attn_int cols, double *C, attn_int ldc)
{
    for (attn_int j = 0; j < cols; j++)
        memset(C + j * ldc, 0, (size_t) rows * sizeof(double));
}

/* C = alpha * op(A) * op(B) + beta * C, with op(A) rows x inner and
 * op(B) inner x cols. */
static void gemm(char ta, char tb, attn_int rows, attn_int cols,
                 attn_int inner, double alpha, const double *A, attn_int lda,
                 const double *B, attn_int ldb, double beta, double *C,
                 attn_int ldc)
{
    int m = (int) rows, n = (int) cols, k = (int) inner;
    int ia = (int) lda, ib = (int) ldb, ic = (int) ldc;
    if (m == 0 || n == 0)
        return;
    if (k == 0) {  /* an empty sum; BLAS may not touch C then */
        if (beta == 1.0)
            return;
        if (beta == 0.0)
            zero(rows, cols, C, ldc);
        else
            for (attn_int j = 0; j < cols; j++)
                for (attn_int i = 0; i < rows; i++)
                    C[i + j * ldc] *= beta;
        return;
    }
    dgemm_(&ta, &tb, &m, &n, &k, &alpha, A, &ia, B, &ib, &beta, C, &ic);
}

/* 1 when every entry of the rows x cols matrix x (ld ldx) is finite. */
static int all_finite(attn_int rows, attn_int cols, const double *x,
                      attn_int ldx)
{
    for (attn_int j = 0; j < cols; j++)
        for (attn_int i = 0; i < rows; i++)
            if (!isfinite(x[i + j * ldx]))
                return 0;
    return 1;
}

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

/* C (n x cols, ld ldc) = alpha * L * B for the n x m matrix L (ld ldl,
 * m >= n) that is zero right of the causal boundary (L(i, j) = 0 for
 * j > m-n+i: m - n full columns, then a lower triangle) and B m x cols
 * (ld ldb); only the causal part of L is read.  C must not overlap B. */
static void causal_times(attn_int n, attn_int m, attn_int cols, double alpha,
                         const double *L, attn_int ldl, const double *B,
                         attn_int ldb, double *C, attn_int ldc)
{
    const attn_int off = m - n;
    int rows = (int) n, c = (int) cols, il = (int) ldl, ic = (int) ldc;
    if (n == 0 || cols == 0)
        return;
    for (attn_int j = 0; j < cols; j++)
        memcpy(C + j * ldc, B + off + j * ldb, (size_t) n * sizeof(double));
    dtrmm_("L", "L", "N", "N", &rows, &c, &alpha, L + off * ldl, &il, C, &ic);
    gemm('N', 'N', n, cols, off, alpha, L, ldl, B, ldb, 1.0, C, ldc);
}

/* C (m x cols, ld ldc) = alpha * L' * B for L as in causal_times and
 * B n x cols (ld ldb).  C must not overlap B. */
static void causal_times_t(attn_int n, attn_int m, attn_int cols,
                           double alpha, const double *L, attn_int ldl,
                           const double *B, attn_int ldb, double *C,
                           attn_int ldc)
{
    const attn_int off = m - n;
    int rows = (int) n, c = (int) cols, il = (int) ldl, ic = (int) ldc;
    if (n == 0 || cols == 0)
        return;
    for (attn_int j = 0; j < cols; j++)
        memcpy(C + off + j * ldc, B + j * ldb, (size_t) n * sizeof(double));
    dtrmm_("L", "L", "T", "N", &rows, &c, &alpha, L + off * ldl, &il,
           C + off, &ic);
    gemm('T', 'N', off, cols, n, alpha, L, ldl, B, ldb, 0.0, C, ldc);
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

/* Rows r0 .. r1-1 of the softmax, on the n x m scores and A (ld n):
 * scores(i, j) = -Inf for every key j row i may not read (keys past `reach`
 * were not computed), then A = exp(scores - row max), normalised per row.
 * Entries no row may read get A = 0 without an exp; a row with no allowed
 * key keeps A = 0.  The row sums are compensated (Kahan) so that rows of
 * many keys still sum to 1 within a few ulps.  work: 3 * (r1 - r0).
 * Returns ATTN_ERR_OVERFLOW if an allowed score is not finite. */
static int softmax_rows(const attn_mask *mask, attn_int n, attn_int m,
                        attn_int r0, attn_int r1, attn_int reach,
                        double *scores, double *A, double *work)
{
    const attn_int rows = r1 - r0;
    double *row_max = work;             /* rows: entry i - r0 for row i */
    double *row_sum = work + rows;      /* rows */
    double *row_carry = work + 2 * rows;  /* rows: rounding lost from sum */
    int status = ATTN_OK;

    for (attn_int i = r0; i < r1; i++) {
        row_max[i - r0] = -INFINITY;
        row_sum[i - r0] = row_carry[i - r0] = 0.0;
    }
    for (attn_int j = 0; j < m; j++) {
        double *s = scores + j * n;
        const attn_int first = first_reader(mask, n, m, r0, r1, reach, j);
        for (attn_int i = r0; i < first; i++)
            s[i] = -INFINITY;
        const unsigned char *pairs = mask && mask->pairs ? mask->pairs + j * n
                                                         : NULL;
        for (attn_int i = first; i < r1; i++) {
            if (pairs && !pairs[i])
                s[i] = -INFINITY;
            else if (!isfinite(s[i]))
                status = ATTN_ERR_OVERFLOW;
            else if (s[i] > row_max[i - r0])
                row_max[i - r0] = s[i];
        }
    }
    for (attn_int j = 0; j < m; j++) {
        const double *s = scores + j * n;
        double *a = A + j * n;
        const attn_int first = first_reader(mask, n, m, r0, r1, reach, j);
        for (attn_int i = r0; i < first; i++)
            a[i] = 0.0;
        for (attn_int i = first; i < r1; i++) {
            double w = s[i] == -INFINITY ? 0.0 : exp(s[i] - row_max[i - r0]);
            double y = w - row_carry[i - r0], t = row_sum[i - r0] + y;
            row_carry[i - r0] = (t - row_sum[i - r0]) - y;
            row_sum[i - r0] = t;
            a[i] = w;
        }
    }
    for (attn_int i = r0; i < r1; i++)
        if (row_sum[i - r0] == 0.0)  /* no allowed key: 0 / 1 keeps A = 0 */
            row_sum[i - r0] = 1.0;
    for (attn_int j = 0; j < m; j++) {
        double *a = A + j * n;
        const attn_int first = first_reader(mask, n, m, r0, r1, reach, j);
        for (attn_int i = first; i < r1; i++)
            a[i] /= row_sum[i - r0];
    }
    return status;
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

int attn_sdpa_forward(attn_int n, attn_int m, attn_int dk, attn_int dv,
                      const double *Q, attn_int ldq,
                      const double *K, attn_int ldk,
                      const double *V, attn_int ldv,
                      const attn_mask *mask,
                      double *scores, double *A,
                      double *M, attn_int ldm,
                      double *work)
{
    const int causal = mask != NULL && mask->causal;
    const double scale = dk > 0 ? 1.0 / sqrt((double) dk) : 1.0;
    int status = ATTN_OK;

    const int tri = triangular(n, m, causal);
    const attn_int tile = tile_rows(n, m, causal);
    for (attn_int r0 = 0; r0 < n; r0 += tile) {
        const attn_int r1 = r0 + tile < n ? r0 + tile : n;
        const attn_int rows = r1 - r0;
        const attn_int reach = keys_in_reach(n, m, causal, r1);

        /* scores(r0:r1, 0:reach) = Q(r0:r1, :) * K(0:reach, :)' * scale */
        gemm('N', 'T', rows, reach, dk, scale, Q + r0, ldq, K, ldk,
             0.0, scores + r0, n);

        for (attn_int b0 = r0; b0 < r1; b0 += SOFTMAX_ROWS)
            if (softmax_rows(mask, n, m, b0,
                             b0 + SOFTMAX_ROWS < r1 ? b0 + SOFTMAX_ROWS : r1,
                             reach, scores, A, work) != ATTN_OK)
                status = ATTN_ERR_OVERFLOW;

        /* M(r0:r1, :) = A(r0:r1, 0:reach) * V(0:reach, :) */
        if (!tri)
            gemm('N', 'N', rows, dv, reach, 1.0, A + r0, n, V, ldv,
                 0.0, M + r0, ldm);
    }
    if (tri)  /* M = A*V, A zero right of the causal boundary */
        causal_times(n, m, dv, 1.0, A, n, V, ldv, M, ldm);
    if (!all_finite(n, dv, M, ldm))
        status = ATTN_ERR_OVERFLOW;
    return status;
}

size_t attn_sdpa_backward_work(attn_int n, attn_int m)
{
    return (size_t) (n > 0 ? n : 1) * (size_t) (m > 0 ? m : 1)
           + (size_t) (n > 0 ? n : 1);
}

int attn_sdpa_backward(attn_int n, attn_int m, attn_int dk, attn_int dv,
                        const double *dM, attn_int lddm,
                        const double *Q, attn_int ldq,
                        const double *K, attn_int ldk,
                        const double *V, attn_int ldv,
                        const double *A, int causal,
                        double *dQ, attn_int lddq,
                        double *dK, attn_int lddk,
                        double *dV, attn_int lddv,
                        double *work)
{
    const double scale = dk > 0 ? 1.0 / sqrt((double) dk) : 1.0;
    double *dS = work;              /* n x m (ld n): dA, then dscores */
    double *row_dot = work + n * m; /* n: sum_j A(i,j) * dA(i,j) */

    /* Without triangular products, dK and dV collect one term per row
     * tile. */
    const int tri = triangular(n, m, causal);
    if (!tri) {
        zero(m, dk, dK, lddk);
        zero(m, dv, dV, lddv);
    }

    const attn_int tile = tile_rows(n, m, causal);
    for (attn_int r0 = 0; r0 < n; r0 += tile) {
        const attn_int r1 = r0 + tile < n ? r0 + tile : n;
        const attn_int rows = r1 - r0;
        const attn_int reach = keys_in_reach(n, m, causal, r1);

        /* M = A*V:  dV += A(r0:r1, 0:reach)' * dM(r0:r1, :) */
        if (!tri)
            gemm('T', 'N', reach, dv, rows, 1.0, A + r0, n, dM + r0, lddm,
                 1.0, dV, lddv);
        /*           dA = dM(r0:r1, :) * V(0:reach, :)' */
        gemm('N', 'T', rows, reach, dv, 1.0, dM + r0, lddm, V, ldv,
             0.0, dS + r0, n);

        /* A = softmax(scores) by rows: dscores = A .* (dA - sum_j A.*dA);
         * the triangular products read dscores only where a row may read
         * key j (rows i >= j - (m - n)), where A may be nonzero */
        for (attn_int i = r0; i < r1; i++)
            row_dot[i] = 0.0;
        for (attn_int j = 0; j < reach; j++) {
            const double *a = A + j * n;
            const double *g = dS + j * n;
            const attn_int first = tri && j - (m - n) > r0 ? j - (m - n) : r0;
            for (attn_int i = first; i < r1; i++)
                row_dot[i] += a[i] * g[i];
        }
        for (attn_int j = 0; j < reach; j++) {
            const double *a = A + j * n;
            double *g = dS + j * n;
            const attn_int first = tri && j - (m - n) > r0 ? j - (m - n) : r0;
            for (attn_int i = first; i < r1; i++)
                g[i] = a[i] * (g[i] - row_dot[i]);
        }

        /* scores = Q*K'*scale:  dQ = dscores * K * scale,
         *                       dK += dscores' * Q * scale */
        if (!tri) {
            gemm('N', 'N', rows, dk, reach, scale, dS + r0, n, K, ldk,
                 0.0, dQ + r0, lddq);
            gemm('T', 'N', reach, dk, rows, scale, dS + r0, n, Q + r0, ldq,
                 1.0, dK, lddk);
        }
    }
    if (tri) {  /* A and dscores are zero right of the causal boundary */
        causal_times_t(n, m, dv, 1.0, A, n, dM, lddm, dV, lddv);
        causal_times(n, m, dk, scale, dS, n, K, ldk, dQ, lddq);
        causal_times_t(n, m, dk, scale, dS, n, Q, ldq, dK, lddk);
    }
    return all_finite(n, dk, dQ, lddq) && all_finite(m, dk, dK, lddk)
           && all_finite(m, dv, dV, lddv) ? ATTN_OK : ATTN_ERR_OVERFLOW;
}

/* ---- blocks ------------------------------------------------------------ */

/* The projections and the gradient products of a block act on every row
 * of the batch alike, so each runs as one product over all n*batch rows:
 * the rows of the n x cols x batch layout are stacked into an
 * (n*batch) x cols matrix (item b in rows b*n .. b*n+n-1) in the
 * workspace, and the results are laid back out.  With one batch item the
 * layout is already stacked and nothing is copied. */

/* P (n*batch x cols, ld n*batch) = the items of X (n x cols x batch). */
static void stack_rows(attn_int n, attn_int cols, attn_int batch,
                       const double *X, double *P)
{
    for (attn_int b = 0; b < batch; b++)
        for (attn_int c = 0; c < cols; c++)
            memcpy(P + b * n + c * n * batch, X + (b * cols + c) * n,
                   (size_t) n * sizeof(double));
}

/* Rows first .. first+n-1 of X (rows_x x cols x batch) = P (n*batch x
 * cols): the inverse of stack_rows when first = 0 and rows_x = n. */
static void unstack_rows_at(attn_int n, attn_int cols, attn_int batch,
                            const double *P, double *X, attn_int rows_x,
                            attn_int first)
{
    for (attn_int b = 0; b < batch; b++)
        for (attn_int c = 0; c < cols; c++)
            memcpy(X + (b * cols + c) * rows_x + first,
                   P + b * n + c * n * batch, (size_t) n * sizeof(double));
}

/* X (n x cols x batch) = P (n*batch x cols), the inverse of stack_rows. */
static void unstack_rows(attn_int n, attn_int cols, attn_int batch,
                         const double *P, double *X)
{
    unstack_rows_at(n, cols, batch, P, X, n, 0);
}

/* Y (rows x cols x items) = the items of X_s (rows*items x inner, stacked)
 * times W (inner x cols), as one product.  With several items the product
 * goes to buf (rows*items x cols) and is laid out in Y; with one it goes
 * to Y itself. */
static void rows_times(attn_int rows, attn_int cols, attn_int inner,
                       attn_int items, const double *X_s, const double *W,
                       double *buf, double *Y)
{
    double *P = items > 1 ? buf : Y;
    gemm('N', 'N', rows * items, cols, inner, 1.0, X_s, rows * items, W,
         inner, 0.0, P, rows * items);
    if (items > 1)
        unstack_rows(rows, cols, items, P, Y);
}

/* The same for keys and values after `past` given rows: rows past ..
 * past+rows-1 of each item of Y ((past+rows) x cols x items) = the items
 * of X_s times W; the first past rows are left as they are. */
static void rows_times_after(attn_int past, attn_int rows, attn_int cols,
                             attn_int inner, attn_int items,
                             const double *X_s, const double *W,
                             double *buf, double *Y)
{
    if (past == 0) {
        rows_times(rows, cols, inner, items, X_s, W, buf, Y);
        return;
    }
    gemm('N', 'N', rows * items, cols, inner, 1.0, X_s, rows * items, W,
         inner, 0.0, buf, rows * items);
    unstack_rows_at(rows, cols, items, buf, Y, past + rows, past);
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

/* Adds the row b (1 x cols) to rows first .. first+rows-1 of each item
 * of Y (item k at Y + k*step, column stride ld); nothing when b is NULL. */
static void add_bias(attn_int rows, attn_int cols, attn_int items,
                     attn_int step, attn_int ld, attn_int first,
                     const double *b, double *Y)
{
    if (b == NULL)
        return;
    for (attn_int k = 0; k < items; k++)
        for (attn_int c = 0; c < cols; c++) {
            double *y = Y + k * step + c * ld + first;
            for (attn_int i = 0; i < rows; i++)
                y[i] += b[c];
        }
}

/* sums (1 x cols) = the column sums of P (rows x cols, ld rows), row
 * after row; nothing when sums is NULL. */
static void column_sums(attn_int rows, attn_int cols, const double *P,
                        double *sums)
{
    if (sums == NULL)
        return;
    for (attn_int c = 0; c < cols; c++) {
        double total = 0.0;
        for (attn_int i = 0; i < rows; i++)
            total += P[i + c * rows];
        sums[c] = total;
    }
}

/* Rotary positions, rotate-half layout: within a head of width dk (even)
 * entry i < dk/2 pairs with entry i + dk/2, and the pair turns by the
 * angle p * base^(-2i/dk), p the row's position:
 *   [x_i, x_(i+dk/2)] -> [x_i cos - x_(i+dk/2) sin, x_(i+dk/2) cos + x_i sin].
 * The table for positions pos0 .. pos0+rows-1:
 *   cs  rows x dk/2 cosines, then rows x dk/2 sines  (rows*dk doubles) */
static void rope_table(attn_int rows, attn_int pos0, attn_int dk, double base,
                       double *cs)
{
    const attn_int half = dk / 2;
    double *cosines = cs, *sines = cs + rows * half;
    for (attn_int i = 0; i < half; i++) {
        const double freq = pow(base, -2.0 * (double) i / (double) dk);
        for (attn_int r = 0; r < rows; r++) {
            const double angle = (double) (pos0 + r) * freq;
            cosines[r + i * rows] = cos(angle);
            sines[r + i * rows] = sin(angle);
        }
    }
}

/* Turns the first `rows` rows of each item of P (item k at P + k*step,
 * column stride ld, heads*dk columns) by the table cs of rope_table:
 * sign +1 turns forward, sign -1 back (the transpose: a gradient). */
static void rope_turn(attn_int rows, attn_int heads, attn_int dk,
                      attn_int items, attn_int step, attn_int ld,
                      const double *cs, double sign, double *P)
{
    const attn_int half = dk / 2;
    for (attn_int k = 0; k < items; k++)
        for (attn_int j = 0; j < heads; j++)
            for (attn_int i = 0; i < half; i++) {
                double *x1 = P + k * step + (j * dk + i) * ld;
                double *x2 = x1 + half * ld;
                const double *c = cs + i * rows;
                const double *sn = cs + (half + i) * rows;
                for (attn_int r = 0; r < rows; r++) {
                    const double a = x1[r], e = x2[r], sr = sign * sn[r];
                    x1[r] = a * c[r] - e * sr;
                    x2[r] = e * c[r] + a * sr;
                }
            }
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

int attn_block_forward(const attn_shape *s, const attn_weights *w,
                       const double *Xq, const double *Xkv,
                       const unsigned char *key_allow,
                       attn_trace *t, double *work)
{
    const attn_int n = s->n, m = s->m, d = s->d, d_src = s->d_src;
    const attn_int dk = s->dk, dv = s->dv, h = s->heads, hk = h * dk;
    const attn_int hv = h * dv, items = batch_items(s);
    const attn_int h_kv = kv_heads_of(s), group = h / h_kv;
    const attn_int hkk = h_kv * dk, hkv = h_kv * dv;  /* K, V columns */
    const attn_int past = s->past, mk = m - past;   /* key rows of Xkv */
    const attn_int nB = n * items, mB = m * items;  /* stacked rows */
    const attn_int kB = mk * items;
    const int stacked = items > 1, self = Xkv == Xq;
    int status = ATTN_OK;
    if (items == 0)
        return ATTN_OK;

    /* Stacked operands (one item: the arrays themselves). */
    double *Xq_s = NULL, *Xkv_s = NULL, *proj = NULL, *delta_s = NULL;
    double *next = work;
    const double *X_q = Xq, *X_kv = Xkv;
    if (stacked) {
        Xq_s = next;                                /* nB x d            */
        Xkv_s = Xq_s + nB * d;                      /* kB x d_src        */
        next = Xkv_s + kB * d_src;
    }
    if (stacked || past > 0) {
        proj = next;                                /* nB|kB x hk|hv     */
        next = proj + (nB > kB ? nB : kB) * max3(hk, hv, 1);
    }
    if (stacked) {
        delta_s = next;                             /* nB x d            */
        next = delta_s + nB * d;
        stack_rows(n, d, items, Xq, Xq_s);
        X_q = Xq_s;
        if (self)
            X_kv = Xq_s;
        else {
            stack_rows(mk, d_src, items, Xkv, Xkv_s);
            X_kv = Xkv_s;
        }
    }
    double *cs = NULL;
    if (s->rope_base > 0) {
        cs = next;                                  /* n x dk (cos, sin) */
        next = cs + n * dk;
    }
    double *sdpa_work = next;

    /* Q = X_q*W_Q + b_Q, K = X_kv*W_K + b_K, V = X_kv*W_V + b_V over
     * every row at once (K and V after the past rows given) */
    rows_times(n, hk, d, items, X_q, w->W_Q, proj, t->Q);
    rows_times_after(past, mk, hkk, d_src, items, X_kv, w->W_K, proj, t->K);
    rows_times_after(past, mk, hkv, d_src, items, X_kv, w->W_V, proj, t->V);
    add_bias(n, hk, items, n * hk, n, 0, w->b_Q, t->Q);
    add_bias(mk, hkk, items, m * hkk, m, past, w->b_K, t->K);
    add_bias(mk, hkv, items, m * hkv, m, past, w->b_V, t->V);
    /* Q, K = rotated by position (self, masked: the key rows are the query
     * rows, both at positions past .. past+n-1) */
    if (cs != NULL) {
        rope_table(n, past, dk, s->rope_base, cs);
        rope_turn(n, h, dk, items, n * hk, n, cs, 1.0, t->Q);
        rope_turn(n, h_kv, dk, items, m * hkk, m, cs, 1.0, t->K + past);
    }
    if (!all_finite(nB, hk, t->Q, nB) || !all_finite(mB, hkk, t->K, mB)
        || !all_finite(mB, hkv, t->V, mB))
        status = ATTN_ERR_OVERFLOW;

    /* message(:, head j) = sdpa(Q_j, K_g, V_g), g = j / group the K/V
     * head, item by item, into the stacked message (nB x hv) */
    double *message = stacked ? proj : t->message;
    for (attn_int b = 0; b < items; b++) {
        attn_mask mask = { s->causal, key_allow ? key_allow + b * m : NULL,
                           NULL };
        for (attn_int j = 0; j < h; j++) {
            const attn_int page = b * h + j, g = j / group;
            if (attn_sdpa_forward(n, m, dk, dv, t->Q + b * n * hk + j * dk * n,
                                  n, t->K + b * m * hkk + g * dk * m, m,
                                  t->V + b * m * hkv + g * dv * m, m, &mask,
                                  t->scores + page * n * m,
                                  t->A + page * n * m,
                                  message + b * n + j * dv * nB, nB,
                                  sdpa_work) != ATTN_OK)
                status = ATTN_ERR_OVERFLOW;
        }
    }
    if (stacked)
        unstack_rows(n, hv, items, message, t->message);

    /* delta = message * W_O + b_O;  out = X_q + delta (the residual
     * stream) */
    rows_times(n, d, hv, items, message, w->W_O, delta_s, t->delta);
    add_bias(n, d, items, n * d, n, 0, w->b_O, t->delta);
    for (attn_int i = 0; i < nB * d; i++)
        t->out[i] = Xq[i] + t->delta[i];
    if (!all_finite(nB, d, t->out, nB))
        status = ATTN_ERR_OVERFLOW;
    return status;
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

int attn_block_backward(const attn_shape *s, const attn_weights *w,
                         const double *Xq, const double *Xkv,
                         const attn_trace *t, const double *dY,
                         attn_grads *g, double *work)
{
    const attn_int n = s->n, m = s->m, d = s->d, d_src = s->d_src;
    const attn_int dk = s->dk, dv = s->dv, h = s->heads, hk = h * dk;
    const attn_int hv = h * dv, items = batch_items(s);
    const attn_int h_kv = kv_heads_of(s), group = h / h_kv;
    const attn_int hkk = h_kv * dk, hkv = h_kv * dv;  /* K, V columns */
    const int stacked = items > 1, self = g->dXkv == g->dXq;
    const attn_int nB = n * (stacked ? items : 1);  /* stacked rows */
    const attn_int mB = m * (stacked ? items : 1);
    double *dmessage = work;              /* nB x hv  */
    double *dQ = dmessage + nB * hv;      /* nB x hk  */
    double *dK = dQ + nB * hk;            /* mB x hkk */
    double *dV = dK + mB * hkk;           /* mB x hkv */
    double *next = dV + mB * hkv;
    double *dK_j = NULL, *dV_j = NULL, *cs = NULL;
    if (group > 1) {
        dK_j = next;                      /* m x dk: one query head's dK */
        dV_j = dK_j + m * dk;             /* m x dv                      */
        next = dV_j + m * dv;
    }
    if (s->rope_base > 0) {
        cs = next;                        /* n x dk (cos, sin)           */
        next = cs + n * dk;
    }
    double *sdpa_work = next;
    int status = ATTN_OK;

    if (items == 0) {  /* the weight gradients are sums of no terms */
        zero(d, hk, g->W_Q, d);
        zero(d_src, hkk, g->W_K, d_src);
        zero(d_src, hkv, g->W_V, d_src);
        zero(hv, d, g->W_O, hv);
        if (g->b_Q)
            zero(1, hk, g->b_Q, 1);
        if (g->b_K)
            zero(1, hkk, g->b_K, 1);
        if (g->b_V)
            zero(1, hkv, g->b_V, 1);
        if (g->b_O)
            zero(1, d, g->b_O, 1);
        return ATTN_OK;
    }

    /* Stacked operands (one item: the arrays themselves). */
    double *Xq_s = NULL, *Xkv_s = NULL;
    const double *X_q = Xq, *X_kv = Xkv, *message = t->message;
    double *dX_q = g->dXq;
    if (stacked) {
        Xq_s = sdpa_work + attn_sdpa_backward_work(n, m);  /* nB x d      */
        Xkv_s = Xq_s + nB * d;      /* mB x d_src, later dX_kv           */
        double *dXq_s = Xkv_s + mB * d_src;  /* nB x d: dY, then dX_q     */
        double *msg_s = dXq_s + nB * d;      /* nB x hv                   */
        stack_rows(n, hv, items, t->message, msg_s);
        message = msg_s;
        dX_q = dXq_s;
        stack_rows(n, d, items, dY, dX_q);
    } else
        memcpy(dX_q, dY, (size_t) (n * d) * sizeof(double));
    /* dX_q holds dY until the residual path adds to it */

    /* delta = message * W_O + b_O */
    gemm('T', 'N', hv, d, nB, 1.0, message, nB, dX_q, nB, 0.0, g->W_O, hv);
    gemm('N', 'T', nB, hv, d, 1.0, dX_q, nB, w->W_O, hv, 0.0, dmessage, nB);
    column_sums(nB, d, dX_q, g->b_O);

    /* message(:, head j) = sdpa(Q_j, K_g, V_g), g = j / group, item by
     * item; the first query head of a group writes dK_g, dV_g, the others
     * add theirs (through dK_j, dV_j) */
    for (attn_int b = 0; b < items; b++)
        for (attn_int j = 0; j < h; j++) {
            const attn_int page = b * h + j, gk = j / group;
            const int first = j % group == 0;
            double *dK_g = dK + b * m + gk * dk * mB;   /* m x dk, ld mB */
            double *dV_g = dV + b * m + gk * dv * mB;   /* m x dv, ld mB */
            if (attn_sdpa_backward(n, m, dk, dv, dmessage + b * n + j * dv * nB,
                                   nB, t->Q + b * n * hk + j * dk * n, n,
                                   t->K + b * m * hkk + gk * dk * m, m,
                                   t->V + b * m * hkv + gk * dv * m, m,
                                   t->A + page * n * m, s->causal,
                                   dQ + b * n + j * dk * nB, nB,
                                   first ? dK_g : dK_j, first ? mB : m,
                                   first ? dV_g : dV_j, first ? mB : m,
                                   sdpa_work) != ATTN_OK)
                status = ATTN_ERR_OVERFLOW;
            if (!first)
                for (attn_int c = 0; c < dk + dv; c++) {
                    double *to = c < dk ? dK_g + c * mB : dV_g + (c - dk) * mB;
                    const double *from = c < dk ? dK_j + c * m
                                                : dV_j + (c - dk) * m;
                    for (attn_int i = 0; i < m; i++)
                        to[i] += from[i];
                }
        }

    /* Q, K = rotated by position: dQ, dK turn back (positions 0 .. n-1;
     * self, masked: m = n) */
    if (cs != NULL) {
        rope_table(n, 0, dk, s->rope_base, cs);
        rope_turn(n, h, dk, items, n, nB, cs, -1.0, dQ);
        rope_turn(n, h_kv, dk, items, m, mB, cs, -1.0, dK);
    }
    /* Q = X_q*W_Q + b_Q, K = X_kv*W_K + b_K, V = X_kv*W_V + b_V */
    column_sums(nB, hk, dQ, g->b_Q);
    column_sums(mB, hkk, dK, g->b_K);
    column_sums(mB, hkv, dV, g->b_V);

    if (stacked) {
        stack_rows(n, d, items, Xq, Xq_s);
        X_q = Xq_s;
        if (Xkv == Xq)
            X_kv = Xq_s;
        else {
            stack_rows(m, d_src, items, Xkv, Xkv_s);
            X_kv = Xkv_s;
        }
    }
    gemm('T', 'N', d, hk, nB, 1.0, X_q, nB, dQ, nB, 0.0, g->W_Q, d);
    gemm('T', 'N', d_src, hkk, mB, 1.0, X_kv, mB, dK, mB, 0.0, g->W_K, d_src);
    gemm('T', 'N', d_src, hkv, mB, 1.0, X_kv, mB, dV, mB, 0.0, g->W_V, d_src);

    /* out = X_q + delta: the residual passes dY straight through */
    gemm('N', 'T', nB, d, hk, 1.0, dQ, nB, w->W_Q, d, 1.0, dX_q, nB);
    /* the stacked X_kv is no longer read: it takes dX_kv */
    double *dX_kv = self ? dX_q : stacked ? Xkv_s : g->dXkv;
    gemm('N', 'T', mB, d_src, hkk, 1.0, dK, mB, w->W_K, d_src,
         self ? 1.0 : 0.0, dX_kv, mB);
    gemm('N', 'T', mB, d_src, hkv, 1.0, dV, mB, w->W_V, d_src, 1.0, dX_kv,
         mB);
    if (stacked) {
        unstack_rows(n, d, items, dX_q, g->dXq);
        if (!self)
            unstack_rows(m, d_src, items, dX_kv, g->dXkv);
    }
    if (!all_finite(nB, d, dX_q, nB) || !all_finite(mB, d_src, dX_kv, mB))
        status = ATTN_ERR_OVERFLOW;
    if (!all_finite(d, hk, g->W_Q, d)
        || !all_finite(d_src, hkk, g->W_K, d_src)
        || !all_finite(d_src, hkv, g->W_V, d_src)
        || !all_finite(hv, d, g->W_O, hv))
        status = ATTN_ERR_OVERFLOW;
    if ((g->b_Q && !all_finite(1, hk, g->b_Q, 1))
        || (g->b_K && !all_finite(1, hkk, g->b_K, 1))
        || (g->b_V && !all_finite(1, hkv, g->b_V, 1))
        || (g->b_O && !all_finite(1, d, g->b_O, 1)))
        status = ATTN_ERR_OVERFLOW;
    return status;
}

/* ---- rows times a matrix (attn_rows): the model layer's affine maps ---- */

/* The affine maps of the model layer (FFN, heads, fusion) act on every row
 * of an n x a x pages array alike.  As in the blocks, the rows are stacked
 * into one (n*pages) x a matrix in the workspace, so that each product is
 * one dgemm over all rows; sums over rows run in the order of the stacked
 * rows (item after item). */

size_t attn_rows_forward_work(attn_int n, attn_int a, attn_int c,
                              attn_int pages)
{
    /* stacked X (nP x a) and the stacked product (nP x c) */
    return pages > 1 ? (size_t) (n * pages) * (size_t) (a + c) : 0;
}

void attn_rows_forward(attn_int n, attn_int a, attn_int c, attn_int pages,
                       const double *X, const double *W, const double *b,
                       double *Y, double *work)
{
    const attn_int nP = n * pages;
    const double *X_s = X;
    double *P = Y;
    if (nP == 0 || c == 0)
        return;
    if (pages > 1) {
        double *Xs = work;                   /* nP x a */
        P = Xs + nP * a;                     /* nP x c */
        stack_rows(n, a, pages, X, Xs);
        X_s = Xs;
    }
    gemm('N', 'N', nP, c, a, 1.0, X_s, nP, W, a, 0.0, P, nP);
    if (b)
        for (attn_int j = 0; j < c; j++)
            for (attn_int i = 0; i < nP; i++)
                P[i + j * nP] += b[j];
    if (pages > 1)
        unstack_rows(n, c, pages, P, Y);
}

size_t attn_rows_backward_work(attn_int n, attn_int a, attn_int c,
                               attn_int pages)
{
    /* stacked dY (nP x c), X (nP x a) and dX (nP x a) */
    return pages > 1 ? (size_t) (n * pages) * (size_t) (c + 2 * a) : 0;
}

void attn_rows_backward(attn_int n, attn_int a, attn_int c, attn_int pages,
                        const double *dY, const double *X, const double *W,
                        double *dX, double *dW, double *db, double *work)
{
    const attn_int nP = n * pages;
    const double *dY_s = dY, *X_s = X;
    double *dX_s = dX;
    if (pages > 1 && (X || W)) {
        double *dYs = work;                  /* nP x c */
        double *Xs = dYs + nP * c;           /* nP x a */
        dX_s = Xs + nP * a;                  /* nP x a */
        stack_rows(n, c, pages, dY, dYs);
        dY_s = dYs;
        if (X) {
            stack_rows(n, a, pages, X, Xs);
            X_s = Xs;
        }
    }
    if (db)  /* db(j) = sum of column j of the stacked dY, row after row */
        for (attn_int j = 0; j < c; j++) {
            double s = 0.0;
            for (attn_int p = 0; p < pages; p++)
                for (attn_int i = 0; i < n; i++)
                    s += dY[i + (j + p * c) * n];
            db[j] = s;
        }
    if (X)   /* dW = X_s' * dY_s */
        gemm('T', 'N', a, c, nP, 1.0, X_s, nP, dY_s, nP, 0.0, dW, a);
    if (W && nP > 0) {  /* dX = dY * W' */
        gemm('N', 'T', nP, a, c, 1.0, dY_s, nP, W, a, 0.0, dX_s, nP);
        if (pages > 1)
            unstack_rows(n, a, pages, dX_s, dX);
    }
}

/* LayerNorm of every row over its d entries (attn_rows' "layernorm"), in
 * the order of operations of the model layer's Octave formula, so that the
 * results are those of it bit for bit:
 *   mu = sum (x)/d,  c = x - mu,  sigma = sqrt (sum (c.*c)/d + epsilon),
 *   xhat = c/sigma,  y = xhat*gain + bias
 *   X, Y, xhat  n x d x pages      mu, sigma  n x 1 x pages
 *   gain, bias  1 x d */
void attn_layernorm_forward(attn_int n, attn_int d, attn_int pages,
                            const double *X, const double *gain,
                            const double *bias, double epsilon, double *Y,
                            double *mu, double *sigma, double *xhat)
{
    /* Rows are the inner loop (contiguous in memory); each row's sums still
     * run over its entries k = 1..d in order. */
    for (attn_int p = 0; p < pages; p++) {
        const double *restrict x = X + p * n * d;
        double *restrict y = Y + p * n * d, *restrict xh = xhat + p * n * d;
        double *restrict m = mu + p * n, *restrict sg = sigma + p * n;
        for (attn_int i = 0; i < n; i++)
            m[i] = sg[i] = 0.0;
        for (attn_int k = 0; k < d; k++)
            for (attn_int i = 0; i < n; i++)
                m[i] += x[i + k * n];
        for (attn_int i = 0; i < n; i++)
            m[i] /= (double) d;
        for (attn_int k = 0; k < d; k++)
            for (attn_int i = 0; i < n; i++) {
                const double c = x[i + k * n] - m[i];
                sg[i] += c * c;
            }
        for (attn_int i = 0; i < n; i++)
            sg[i] = sqrt(sg[i] / (double) d + epsilon);
        for (attn_int k = 0; k < d; k++)
            for (attn_int i = 0; i < n; i++) {
                const double h = (x[i + k * n] - m[i]) / sg[i];
                xh[i + k * n] = h;
                y[i + k * n] = h * gain[k] + bias[k];
            }
    }
}

/* Its gradients given dY (n x d x pages), from xhat and sigma:
 *   dgain = sum of the rows of dY.*xhat,  dbias = sum of the rows of dY
 *   (over every row, page after page), and with g = dY.*gain
 *   dX = (g - sum (g)/d - xhat.*(sum (g.*xhat)/d)) / sigma   (per row) */
void attn_layernorm_backward(attn_int n, attn_int d, attn_int pages,
                             const double *dY, const double *xhat,
                             const double *sigma, const double *gain,
                             double *dX, double *dgain, double *dbias,
                             double *work)
{
    for (attn_int k = 0; k < d; k++) {
        double sg = 0.0, sb = 0.0;
        for (attn_int p = 0; p < pages; p++)
            for (attn_int i = 0; i < n; i++) {
                const attn_int at = i + (k + p * d) * n;
                sg += dY[at] * xhat[at];
                sb += dY[at];
            }
        dgain[k] = sg;
        dbias[k] = sb;
    }
    double *restrict s1 = work, *restrict s2 = work + n;  /* n each */
    for (attn_int p = 0; p < pages; p++) {
        const double *restrict dy = dY + p * n * d;
        const double *restrict xh = xhat + p * n * d;
        const double *restrict sg = sigma + p * n;
        double *restrict dx = dX + p * n * d;
        for (attn_int i = 0; i < n; i++)
            s1[i] = s2[i] = 0.0;
        for (attn_int k = 0; k < d; k++)
            for (attn_int i = 0; i < n; i++) {
                const double g = dy[i + k * n] * gain[k];
                s1[i] += g;
                s2[i] += g * xh[i + k * n];
            }
        for (attn_int i = 0; i < n; i++) {
            s1[i] /= (double) d;
            s2[i] /= (double) d;
        }
        for (attn_int k = 0; k < d; k++)
            for (attn_int i = 0; i < n; i++) {
                const double g = dy[i + k * n] * gain[k];
                dx[i + k * n] = (g - s1[i] - xh[i + k * n] * s2[i]) / sg[i];
            }
    }
}

/* ---- optimiser steps ---------------------------------------------------- */

void attn_sgd_step(attn_int n, const double *w, const double *g, double lr,
                   double *w_out)
{
    const double step = -lr;
    for (attn_int i = 0; i < n; i++)
        w_out[i] = w[i] + step * g[i];
}

attn_adam_hyper attn_adam_at(double lr, double beta1, double beta2,
                             double epsilon, double t)
{
    attn_adam_hyper h = { lr, beta1, beta2, epsilon, 1.0 - pow(beta1, t),
                          1.0 - pow(beta2, t) };
    return h;
}

void attn_adam_step(attn_int n, const double *w, const double *mo,
                    const double *ve, const double *g,
                    const attn_adam_hyper *h, double *w_out, double *mo_out,
                    double *ve_out)
{
    const double c1 = 1.0 - h->beta1, c2 = 1.0 - h->beta2, step = -h->lr;
    for (attn_int i = 0; i < n; i++) {
        const double m = h->beta1 * mo[i] + c1 * g[i];
        const double v = h->beta2 * ve[i] + c2 * (g[i] * g[i]);
        mo_out[i] = m;
        ve_out[i] = v;
        w_out[i] = w[i] + (step * (m / h->bias1))
                              / (sqrt(v / h->bias2) + h->epsilon);
    }
}
