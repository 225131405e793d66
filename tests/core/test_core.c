/* test_core.c: unit tests of the C core (src/attention_core.c), no Octave.
 *
 * Every result of the core is compared with a plain triple-loop reference
 * written here (no BLAS, no tiling), and the reference backward passes are
 * themselves checked against central finite differences of the reference
 * forward passes.  Arrays handed to the core are allocated with their exact
 * sizes (workspaces too) so that valgrind and ASan see any overrun; outputs
 * are prefilled with NaN so that an unwritten entry shows.
 *
 * Prints "N passed, N failed" and exits 1 on any failure.
 */
#include "attention_core.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- bookkeeping ------------------------------------------------------- */

static int n_passed, n_failed;

static void check(int ok, const char *fmt, ...)
{
    if (ok) {
        n_passed++;
        return;
    }
    n_failed++;
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL: ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

static const double TOL = 1e-12;    /* core vs reference, relative */
static const double FD_TOL = 1e-7;  /* finite differences, relative */
static const double PAD = 12345.678;  /* sentinel in leading-dim padding */

static uint64_t rng = 0x2545F4914F6CDD1DULL;

/* uniform on [-1, 1) */
static double urand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double) (rng >> 11) / 4503599627370496.0 - 1.0;
}

static double *dalloc(size_t count)
{
    double *p = malloc(count ? count * sizeof(double) : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < count; i++)
        p[i] = NAN;
    return p;
}

static double *drand(size_t count)
{
    double *p = dalloc(count);
    for (size_t i = 0; i < count; i++)
        p[i] = urand();
    return p;
}

static double *dcopy(const double *a, size_t count)
{
    double *p = dalloc(count);
    memcpy(p, a, count * sizeof(double));
    return p;
}

/* A rows x cols matrix with leading dimension ld >= rows: random entries,
 * PAD in the rows between rows and ld. */
static double *dpadded(attn_int rows, attn_int cols, attn_int ld)
{
    double *p = dalloc((size_t) (ld * cols));
    for (attn_int j = 0; j < cols; j++)
        for (attn_int i = 0; i < ld; i++)
            p[i + j * ld] = i < rows ? urand() : PAD;
    return p;
}

/* Relative distance of a (ld lda) from the reference b (ld ldb), both
 * rows x cols: max |a - b| / (1 + |b|); equal infinities count as 0,
 * anything else non-finite as Inf. */
static double rel_err(attn_int rows, attn_int cols, const double *a,
                      attn_int lda, const double *b, attn_int ldb)
{
    double worst = 0.0;
    for (attn_int j = 0; j < cols; j++)
        for (attn_int i = 0; i < rows; i++) {
            double x = a[i + j * lda], y = b[i + j * ldb], e;
            if (x == y)
                e = 0.0;
            else if (!isfinite(x) || !isfinite(y))
                e = INFINITY;
            else
                e = fabs(x - y) / (1.0 + fabs(y));
            if (!(e <= worst))
                worst = e;
        }
    return worst;
}

/* 1 when the padding rows (rows .. ld-1) of a still hold PAD. */
static int pad_intact(attn_int rows, attn_int cols, const double *a,
                      attn_int ld)
{
    for (attn_int j = 0; j < cols; j++)
        for (attn_int i = rows; i < ld; i++)
            if (a[i + j * ld] != PAD)
                return 0;
    return 1;
}

/* check that a (ld lda) matches the reference b (ld ldb) to TOL */
static void check_close(attn_int rows, attn_int cols, const double *a,
                        attn_int lda, const double *b, attn_int ldb,
                        const char *tag, const char *what)
{
    double e = rel_err(rows, cols, a, lda, b, ldb);
    check(e <= TOL, "%s: %s err %g", tag, what, e);
}

static int all_finite(size_t count, const double *a)
{
    for (size_t i = 0; i < count; i++)
        if (!isfinite(a[i]))
            return 0;
    return 1;
}

/* ---- reference: naive loops -------------------------------------------- */

/* C (rows x cols, ld ldc) = op(A) * op(B) + beta*C; op(A) rows x inner. */
static void ref_gemm(int ta, int tb, attn_int rows, attn_int cols,
                     attn_int inner, const double *A, attn_int lda,
                     const double *B, attn_int ldb, double beta, double *C,
                     attn_int ldc)
{
    for (attn_int i = 0; i < rows; i++)
        for (attn_int j = 0; j < cols; j++) {
            double s = 0.0;
            for (attn_int k = 0; k < inner; k++) {
                double a = ta ? A[k + i * lda] : A[i + k * lda];
                double b = tb ? B[j + k * ldb] : B[k + j * ldb];
                s += a * b;
            }
            C[i + j * ldc] = (beta == 0.0 ? 0.0 : beta * C[i + j * ldc]) + s;
        }
}

static int ref_allowed(const attn_mask *mask, attn_int n, attn_int m,
                       attn_int i, attn_int j)
{
    if (!mask)
        return 1;
    if (mask->causal && j > (m - n) + i)
        return 0;
    if (mask->keys && !mask->keys[j])
        return 0;
    if (mask->pairs && !mask->pairs[i + j * n])
        return 0;
    return 1;
}

/* S, A n x m (ld n); M n x dv (ld n).  Returns 1 if an allowed score is
 * not finite. */
static int ref_sdpa_forward(attn_int n, attn_int m, attn_int dk, attn_int dv,
                            const double *Q, attn_int ldq, const double *K,
                            attn_int ldk, const double *V, attn_int ldv,
                            const attn_mask *mask, double *S, double *A,
                            double *M)
{
    int overflow = 0;
    for (attn_int i = 0; i < n; i++) {
        double mx = -INFINITY, sum = 0.0;
        for (attn_int j = 0; j < m; j++) {
            double s = 0.0;
            for (attn_int k = 0; k < dk; k++)
                s += Q[i + k * ldq] * K[j + k * ldk];
            s /= sqrt((double) dk);
            if (!ref_allowed(mask, n, m, i, j))
                s = -INFINITY;
            else if (!isfinite(s))
                overflow = 1;
            S[i + j * n] = s;
            if (s > mx)
                mx = s;
        }
        for (attn_int j = 0; j < m; j++) {
            double s = S[i + j * n];
            A[i + j * n] = s == -INFINITY ? 0.0 : exp(s - mx);
            sum += A[i + j * n];
        }
        for (attn_int j = 0; j < m; j++)
            A[i + j * n] = sum > 0.0 ? A[i + j * n] / sum : 0.0;
        for (attn_int c = 0; c < dv; c++) {
            double s = 0.0;
            for (attn_int j = 0; j < m; j++)
                s += A[i + j * n] * V[j + c * ldv];
            M[i + c * n] = s;
        }
    }
    return overflow;
}

/* dQ n x dk, dK m x dk, dV m x dv, all with ld = rows (overwritten). */
static void ref_sdpa_backward(attn_int n, attn_int m, attn_int dk,
                              attn_int dv, const double *dM, attn_int lddm,
                              const double *Q, attn_int ldq, const double *K,
                              attn_int ldk, const double *V, attn_int ldv,
                              const double *A, double *dQ, double *dK,
                              double *dV)
{
    double *dS = dalloc((size_t) (n * m));
    const double c = 1.0 / sqrt((double) dk);
    for (attn_int i = 0; i < n; i++) {
        double dot = 0.0;
        for (attn_int j = 0; j < m; j++) {
            double dA = 0.0;
            for (attn_int k = 0; k < dv; k++)
                dA += dM[i + k * lddm] * V[j + k * ldv];
            dS[i + j * n] = dA;
            dot += A[i + j * n] * dA;
        }
        for (attn_int j = 0; j < m; j++)
            dS[i + j * n] = A[i + j * n] * (dS[i + j * n] - dot);
    }
    for (attn_int i = 0; i < n; i++)
        for (attn_int k = 0; k < dk; k++) {
            double s = 0.0;
            for (attn_int j = 0; j < m; j++)
                s += dS[i + j * n] * K[j + k * ldk];
            dQ[i + k * n] = c * s;
        }
    for (attn_int j = 0; j < m; j++) {
        for (attn_int k = 0; k < dk; k++) {
            double s = 0.0;
            for (attn_int i = 0; i < n; i++)
                s += dS[i + j * n] * Q[i + k * ldq];
            dK[j + k * m] = c * s;
        }
        for (attn_int k = 0; k < dv; k++) {
            double s = 0.0;
            for (attn_int i = 0; i < n; i++)
                s += A[i + j * n] * dM[i + k * lddm];
            dV[j + k * m] = s;
        }
    }
    free(dS);
}

/* Block sizes of one trace and its gradients. */
typedef struct {
    size_t Xq, Xkv, W_Q, W_K, W_V, W_O, Q, K, V, S, msg, out;
} block_sizes;

static block_sizes sizes_of(const attn_shape *s)
{
    const size_t n = s->n, m = s->m, d = s->d, ds = s->d_src;
    const size_t hk = s->heads * s->dk, hv = s->heads * s->dv, B = s->batch;
    block_sizes z = { n * d * B, m * ds * B, d * hk, ds * hk, ds * hv, hv * d,
                      n * hk * B, m * hk * B, m * hv * B,
                      n * m * s->heads * B, n * hv * B, n * d * B };
    return z;
}

static attn_trace trace_alloc(const attn_shape *s)
{
    block_sizes z = sizes_of(s);
    attn_trace t = { dalloc(z.Q), dalloc(z.K), dalloc(z.V), dalloc(z.S),
                     dalloc(z.S), dalloc(z.msg), dalloc(z.out),
                     dalloc(z.out) };
    return t;
}

static void trace_free(attn_trace *t)
{
    free(t->Q); free(t->K); free(t->V); free(t->scores); free(t->A);
    free(t->message); free(t->delta); free(t->out);
}

static void ref_block_forward(const attn_shape *s, const attn_weights *w,
                              const double *Xq, const double *Xkv,
                              const unsigned char *key_allow, attn_trace *t)
{
    const attn_int n = s->n, m = s->m, d = s->d, ds = s->d_src;
    const attn_int dk = s->dk, dv = s->dv, h = s->heads;
    for (attn_int b = 0; b < s->batch; b++) {
        const double *xq = Xq + b * n * d, *xkv = Xkv + b * m * ds;
        double *Q = t->Q + b * n * h * dk, *K = t->K + b * m * h * dk;
        double *V = t->V + b * m * h * dv, *msg = t->message + b * n * h * dv;
        double *delta = t->delta + b * n * d, *out = t->out + b * n * d;
        attn_mask mask = { s->causal, key_allow ? key_allow + b * m : NULL,
                           NULL };
        ref_gemm(0, 0, n, h * dk, d, xq, n, w->W_Q, d, 0.0, Q, n);
        ref_gemm(0, 0, m, h * dk, ds, xkv, m, w->W_K, ds, 0.0, K, m);
        ref_gemm(0, 0, m, h * dv, ds, xkv, m, w->W_V, ds, 0.0, V, m);
        for (attn_int j = 0; j < h; j++)
            ref_sdpa_forward(n, m, dk, dv, Q + j * dk * n, n, K + j * dk * m,
                             m, V + j * dv * m, m, &mask,
                             t->scores + (b * h + j) * n * m,
                             t->A + (b * h + j) * n * m, msg + j * dv * n);
        ref_gemm(0, 0, n, d, h * dv, msg, n, w->W_O, h * dv, 0.0, delta, n);
        for (attn_int i = 0; i < n * d; i++)
            out[i] = xq[i] + delta[i];
    }
}

/* Gradients of sum(out .* dY); dXkv NULL means self (add into dXq). */
static void ref_block_backward(const attn_shape *s, const attn_weights *w,
                               const double *Xq, const double *Xkv,
                               const attn_trace *t, const double *dY,
                               attn_grads *g)
{
    const attn_int n = s->n, m = s->m, d = s->d, ds = s->d_src;
    const attn_int dk = s->dk, dv = s->dv, h = s->heads;
    double *dmsg = dalloc((size_t) (n * h * dv));
    double *dQ = dalloc((size_t) (n * h * dk)), *dK = dalloc((size_t) (m * h * dk));
    double *dV = dalloc((size_t) (m * h * dv));
    block_sizes z = sizes_of(s);
    memset(g->W_Q, 0, z.W_Q * sizeof(double));
    memset(g->W_K, 0, z.W_K * sizeof(double));
    memset(g->W_V, 0, z.W_V * sizeof(double));
    memset(g->W_O, 0, z.W_O * sizeof(double));
    for (attn_int b = 0; b < s->batch; b++) {
        const double *xq = Xq + b * n * d, *xkv = Xkv + b * m * ds;
        const double *dy = dY + b * n * d;
        const double *Q = t->Q + b * n * h * dk, *K = t->K + b * m * h * dk;
        const double *V = t->V + b * m * h * dv;
        const double *msg = t->message + b * n * h * dv;
        double *dxq = g->dXq + b * n * d;
        ref_gemm(1, 0, h * dv, d, n, msg, n, dy, n, 1.0, g->W_O, h * dv);
        ref_gemm(0, 1, n, h * dv, d, dy, n, w->W_O, h * dv, 0.0, dmsg, n);
        for (attn_int j = 0; j < h; j++)
            ref_sdpa_backward(n, m, dk, dv, dmsg + j * dv * n, n,
                              Q + j * dk * n, n, K + j * dk * m, m,
                              V + j * dv * m, m, t->A + (b * h + j) * n * m,
                              dQ + j * dk * n, dK + j * dk * m,
                              dV + j * dv * m);
        ref_gemm(1, 0, d, h * dk, n, xq, n, dQ, n, 1.0, g->W_Q, d);
        ref_gemm(1, 0, ds, h * dk, m, xkv, m, dK, m, 1.0, g->W_K, ds);
        ref_gemm(1, 0, ds, h * dv, m, xkv, m, dV, m, 1.0, g->W_V, ds);
        memcpy(dxq, dy, (size_t) (n * d) * sizeof(double));
        ref_gemm(0, 1, n, d, h * dk, dQ, n, w->W_Q, d, 1.0, dxq, n);
        double *dxkv = g->dXkv ? g->dXkv + b * m * ds : dxq;
        if (g->dXkv)
            ref_gemm(0, 1, m, ds, h * dk, dK, m, w->W_K, ds, 0.0, dxkv, m);
        else
            ref_gemm(0, 1, m, ds, h * dk, dK, m, w->W_K, ds, 1.0, dxkv, m);
        ref_gemm(0, 1, m, ds, h * dv, dV, m, w->W_V, ds, 1.0, dxkv, m);
    }
    free(dmsg); free(dQ); free(dK); free(dV);
}

/* ---- finite-difference checks of the references ------------------------ */

/* sum(M .* R) by the reference forward */
static double sdpa_loss(attn_int n, attn_int m, attn_int dk, attn_int dv,
                        const double *Q, const double *K, const double *V,
                        const attn_mask *mask, const double *R)
{
    double *S = dalloc((size_t) (n * m)), *A = dalloc((size_t) (n * m));
    double *M = dalloc((size_t) (n * dv)), L = 0.0;
    ref_sdpa_forward(n, m, dk, dv, Q, n, K, m, V, m, mask, S, A, M);
    for (attn_int i = 0; i < n * dv; i++)
        L += M[i] * R[i];
    free(S); free(A); free(M);
    return L;
}

/* Worst relative gap between grad and central differences of f over
 * every entry of x (count entries). */
typedef double (*loss_fn)(void *ctx);

static double fd_gap(double *x, size_t count, const double *grad, loss_fn f,
                     void *ctx)
{
    const double h = 1e-5;
    double worst = 0.0;
    for (size_t i = 0; i < count; i++) {
        double x0 = x[i];
        x[i] = x0 + h;
        double up = f(ctx);
        x[i] = x0 - h;
        double down = f(ctx);
        x[i] = x0;
        double fd = (up - down) / (2 * h);
        double e = fabs(fd - grad[i]) / fmax(1.0, fabs(grad[i]));
        if (!(e <= worst))
            worst = e;
    }
    return worst;
}

typedef struct {
    attn_int n, m, dk, dv;
    double *Q, *K, *V, *R;
    const attn_mask *mask;
} sdpa_ctx;

static double sdpa_loss_ctx(void *p)
{
    sdpa_ctx *c = p;
    return sdpa_loss(c->n, c->m, c->dk, c->dv, c->Q, c->K, c->V, c->mask,
                     c->R);
}

typedef struct {
    const attn_shape *s;
    attn_weights w;
    double *Xq, *Xkv, *R;
    const unsigned char *key_allow;
} block_ctx;

static double block_loss_ctx(void *p)
{
    block_ctx *c = p;
    attn_trace t = trace_alloc(c->s);
    /* self-attention reads its keys from the (perturbed) query rows */
    ref_block_forward(c->s, &c->w, c->Xq, c->Xkv ? c->Xkv : c->Xq,
                      c->key_allow, &t);
    double L = 0.0;
    for (size_t i = 0; i < sizes_of(c->s).out; i++)
        L += t.out[i] * c->R[i];
    trace_free(&t);
    return L;
}

/* ---- tests: scaled dot-product attention ------------------------------- */

typedef struct {
    const char *name;
    int causal, use_keys, use_pairs;
} mask_kind;

static const mask_kind MASKS[] = {
    { "none", 0, 0, 0 },  { "keys", 0, 1, 0 },  { "pairs", 0, 0, 1 },
    { "causal", 1, 0, 0 }, { "causal+keys", 1, 1, 0 },
    { "all", 1, 1, 1 },
};
enum { N_MASKS = sizeof MASKS / sizeof MASKS[0] };

/* Random key and pair masks, mostly true, with key 0 and row 0 masked out
 * completely (so a fully masked row occurs whenever pairs are used). */
static void random_masks(attn_int n, attn_int m, unsigned char *keys,
                         unsigned char *pairs)
{
    for (attn_int j = 0; j < m; j++)
        keys[j] = j > 0 && urand() > -0.6;
    for (attn_int k = 0; k < n * m; k++)
        pairs[k] = k % n != 0 && urand() > -0.6;
}

static void test_sdpa(attn_int n, attn_int m, attn_int dk, attn_int dv,
                      const mask_kind *mk)
{
    const attn_int ldq = n + 2, ldk = m + 1, ldv = m + 3, ldm = n + 1;
    double *Q = dpadded(n, dk, ldq), *K = dpadded(m, dk, ldk);
    double *V = dpadded(m, dv, ldv);
    double *Q0 = dcopy(Q, (size_t) (ldq * dk)), *K0 = dcopy(K, (size_t) (ldk * dk));
    double *V0 = dcopy(V, (size_t) (ldv * dv));
    unsigned char *keys = malloc((size_t) m + 1), *pairs = malloc((size_t) (n * m) + 1);
    random_masks(n, m, keys, pairs);
    attn_mask mask = { mk->causal, mk->use_keys ? keys : NULL,
                       mk->use_pairs ? pairs : NULL };

    double *S = dalloc((size_t) (n * m)), *A = dalloc((size_t) (n * m));
    double *M = dalloc((size_t) (ldm * dv));
    double *work = dalloc(attn_sdpa_forward_work(n, m));
    double *rS = dalloc((size_t) (n * m)), *rA = dalloc((size_t) (n * m));
    double *rM = dalloc((size_t) (n * dv));

    for (attn_int k = 0; k < ldm * dv; k++)
        M[k] = k % ldm < n ? NAN : PAD;
    int st = attn_sdpa_forward(n, m, dk, dv, Q, ldq, K, ldk, V, ldv, &mask,
                               S, A, M, ldm, work);
    ref_sdpa_forward(n, m, dk, dv, Q, ldq, K, ldk, V, ldv, &mask, rS, rA, rM);

    char tag[96], btag[128];
    snprintf(tag, sizeof tag, "sdpa n=%ld m=%ld dk=%ld dv=%ld mask=%s",
             (long) n, (long) m, (long) dk, (long) dv, mk->name);
    check(st == ATTN_OK, "%s: status %d", tag, st);
    check_close(n, m, S, n, rS, n, tag, "scores");
    check_close(n, m, A, n, rA, n, tag, "A");
    check_close(n, dv, M, ldm, rM, n, tag, "M");
    check(pad_intact(n, dv, M, ldm), "%s: M padding overwritten", tag);
    check(!memcmp(Q, Q0, (size_t) (ldq * dk) * sizeof(double))
          && !memcmp(K, K0, (size_t) (ldk * dk) * sizeof(double))
          && !memcmp(V, V0, (size_t) (ldv * dv) * sizeof(double)),
          "%s: inputs modified", tag);

    /* rows: weights >= 0 summing to 1, or all 0 when nothing is allowed */
    int rows_ok = 1;
    for (attn_int i = 0; i < n; i++) {
        double sum = 0.0;
        int any = 0;
        for (attn_int j = 0; j < m; j++) {
            sum += A[i + j * n];
            any |= ref_allowed(&mask, n, m, i, j);
            if (A[i + j * n] < 0 || (!ref_allowed(&mask, n, m, i, j)
                                     && (A[i + j * n] != 0
                                         || S[i + j * n] != -INFINITY)))
                rows_ok = 0;
        }
        if (any ? fabs(sum - 1.0) > 1e-12 : sum != 0.0)
            rows_ok = 0;
        if (!any)
            for (attn_int c = 0; c < dv; c++)
                if (M[i + c * ldm] != 0.0)
                    rows_ok = 0;
    }
    check(rows_ok, "%s: weight rows not a distribution / masked row not 0",
          tag);

    /* backward, with the causal flag matching the mask (and, for a causal
     * A, also without the flag: the result must not depend on it) */
    const attn_int lddm = n + 1, lddq = n + 2, lddk = m + 2, lddv = m + 1;
    double *dM = dpadded(n, dv, lddm);
    double *dQ = dalloc((size_t) (lddq * dk)), *dK = dalloc((size_t) (lddk * dk));
    double *dV = dalloc((size_t) (lddv * dv));
    double *rdQ = dalloc((size_t) (n * dk)), *rdK = dalloc((size_t) (m * dk));
    double *rdV = dalloc((size_t) (m * dv));
    double *bwork = dalloc(attn_sdpa_backward_work(n, m));
    ref_sdpa_backward(n, m, dk, dv, dM, lddm, Q, ldq, K, ldk, V, ldv, rA,
                      rdQ, rdK, rdV);
    for (int flag = mk->causal; flag >= 0; flag--) {
        for (attn_int k = 0; k < lddq * dk; k++)
            dQ[k] = k % lddq < n ? NAN : PAD;
        for (attn_int k = 0; k < lddk * dk; k++)
            dK[k] = k % lddk < m ? NAN : PAD;
        for (attn_int k = 0; k < lddv * dv; k++)
            dV[k] = k % lddv < m ? NAN : PAD;
        int bst = attn_sdpa_backward(n, m, dk, dv, dM, lddm, Q, ldq, K, ldk,
                                     V, ldv, A, flag, dQ, lddq, dK, lddk, dV,
                                     lddv, bwork);
        check(bst == ATTN_OK, "%s causal-flag=%d: backward status %d", tag,
              flag, bst);
        snprintf(btag, sizeof btag, "%s causal-flag=%d", tag, flag);
        check_close(n, dk, dQ, lddq, rdQ, n, btag, "dQ");
        check_close(m, dk, dK, lddk, rdK, m, btag, "dK");
        check_close(m, dv, dV, lddv, rdV, m, btag, "dV");
        check(pad_intact(n, dk, dQ, lddq) && pad_intact(m, dk, dK, lddk)
              && pad_intact(m, dv, dV, lddv),
              "%s causal-flag=%d: gradient padding overwritten", tag, flag);
    }

    free(Q); free(K); free(V); free(Q0); free(K0); free(V0);
    free(keys); free(pairs); free(S); free(A); free(M); free(work);
    free(rS); free(rA); free(rM); free(dM); free(dQ); free(dK); free(dV);
    free(rdQ); free(rdK); free(rdV); free(bwork);
}

/* The reference backward agrees with finite differences of the reference
 * forward (what makes the reference a reference). */
static void test_sdpa_reference_fd(attn_int n, attn_int m, attn_int dk,
                                   attn_int dv, const mask_kind *mk)
{
    double *Q = drand((size_t) (n * dk)), *K = drand((size_t) (m * dk));
    double *V = drand((size_t) (m * dv)), *R = drand((size_t) (n * dv));
    unsigned char *keys = malloc((size_t) m), *pairs = malloc((size_t) (n * m));
    random_masks(n, m, keys, pairs);
    attn_mask mask = { mk->causal, mk->use_keys ? keys : NULL,
                       mk->use_pairs ? pairs : NULL };
    double *S = dalloc((size_t) (n * m)), *A = dalloc((size_t) (n * m));
    double *M = dalloc((size_t) (n * dv));
    double *dQ = dalloc((size_t) (n * dk)), *dK = dalloc((size_t) (m * dk));
    double *dV = dalloc((size_t) (m * dv));
    ref_sdpa_forward(n, m, dk, dv, Q, n, K, m, V, m, &mask, S, A, M);
    ref_sdpa_backward(n, m, dk, dv, R, n, Q, n, K, m, V, m, A, dQ, dK, dV);
    sdpa_ctx c = { n, m, dk, dv, Q, K, V, R, &mask };
    double e = fmax(fd_gap(Q, (size_t) (n * dk), dQ, sdpa_loss_ctx, &c),
                    fmax(fd_gap(K, (size_t) (m * dk), dK, sdpa_loss_ctx, &c),
                         fd_gap(V, (size_t) (m * dv), dV, sdpa_loss_ctx, &c)));
    check(e <= FD_TOL, "reference sdpa backward vs finite differences "
          "(n=%ld m=%ld mask=%s): %g", (long) n, (long) m, mk->name, e);
    free(Q); free(K); free(V); free(R); free(keys); free(pairs);
    free(S); free(A); free(M); free(dQ); free(dK); free(dV);
}

/* Scores far out of exp's range but finite; all-equal scores; one key;
 * no key at all. */
static void test_sdpa_extremes(void)
{
    /* n = 4 queries, m = 3 keys, dk = 1: scores = q * k */
    const double big = 1e150;
    double Q[4] = { big, -big, 0.0, big };
    double K[3] = { big, -big, big };
    double V[6] = { 1, 2, 3, 10, 20, 30 };  /* 3 x 2 */
    double S[12], A[12], M[8], work[16];
    attn_mask none = { 0, NULL, NULL };
    int st = attn_sdpa_forward(4, 3, 1, 2, Q, 4, K, 3, V, 3, &none, S, A, M,
                               4, work);
    check(st == ATTN_OK, "+-1e300 scores: status %d", st);
    check(S[0] == big * big && S[4] == -big * big && fabs(S[0] / 1e300 - 1) < 1e-15,
          "+-1e300 scores: S(1,:) = %g %g", S[0], S[4]);
    check(all_finite(12, A) && all_finite(8, M), "+-1e300 scores: NaN/Inf");
    /* row 1: scores [1e300 -1e300 1e300] -> [1/2 0 1/2] */
    check(A[0] == 0.5 && A[4] == 0.0 && A[8] == 0.5,
          "+-1e300 scores: row 1 = %g %g %g", A[0], A[4], A[8]);
    /* row 2: scores [-1e300 1e300 -1e300] -> [0 1 0], M = V(2,:) */
    check(A[1] == 0.0 && A[5] == 1.0 && A[9] == 0.0 && M[1] == 2 && M[5] == 20,
          "+-1e300 scores: row 2 = %g %g %g", A[1], A[5], A[9]);
    /* row 3: all scores 0 -> uniform, M = column means of V */
    check(fabs(A[2] - 1.0 / 3) < 1e-16 && fabs(A[6] - 1.0 / 3) < 1e-16
          && fabs(M[2] - 2.0) < 1e-14 && fabs(M[6] - 20.0) < 1e-13,
          "all-equal scores: row 3 = %g %g %g", A[2], A[6], A[10]);

    /* the backward pass of such a forward pass stays finite */
    double dM[8] = { 1, -2, 3, 0.5, 2, 1, -1, 4 }, dQ[4], dK[3], dV[6];
    double bwork[32];
    check(attn_sdpa_backward_work(4, 3) <= 32, "backward workspace size");
    st = attn_sdpa_backward(4, 3, 1, 2, dM, 4, Q, 4, K, 3, V, 3, A, 0, dQ, 4,
                            dK, 3, dV, 3, bwork);
    check(st == ATTN_OK && all_finite(4, dQ) && all_finite(3, dK)
          && all_finite(6, dV), "+-1e300 scores: backward status %d", st);

    /* a single key: weight 1, message = that value */
    double q1[3] = { 0.3, -7, 2 }, k1[1] = { 5 }, v1[2] = { 4, -1 };
    double s1[3], a1[3], m1[6];
    st = attn_sdpa_forward(3, 1, 1, 2, q1, 3, k1, 1, v1, 1, &none, s1, a1, m1,
                           3, work);
    check(st == ATTN_OK && a1[0] == 1 && a1[1] == 1 && a1[2] == 1
          && m1[0] == 4 && m1[2] == 4 && m1[3] == -1 && m1[5] == -1,
          "single key: A or M wrong");

    /* no key at all (m = 0): every row is fully masked, M = 0 */
    double m0[6] = { NAN, NAN, NAN, NAN, NAN, NAN };
    st = attn_sdpa_forward(3, 0, 1, 2, q1, 3, k1, 1, v1, 1, &none, s1, a1, m0,
                           3, work);
    check(st == ATTN_OK && m0[0] == 0 && m0[2] == 0 && m0[3] == 0 && m0[5] == 0,
          "m = 0: M not zero (status %d)", st);

    /* causal with n > m: the first n - m queries read no key */
    double q5[5] = { 1, 2, 3, 4, 5 }, k2[2] = { 1, -1 }, v2[2] = { 7, 9 };
    double s5[10], a5[10], m5[5];
    attn_mask causal = { 1, NULL, NULL };
    st = attn_sdpa_forward(5, 2, 1, 1, q5, 5, k2, 2, v2, 2, &causal, s5, a5,
                           m5, 5, work);
    check(st == ATTN_OK && m5[0] == 0 && m5[1] == 0 && m5[2] == 0
          && a5[0] == 0 && a5[5] == 0 && s5[0] == -INFINITY
          && m5[3] == 7 && a5[3] == 1 && a5[8] == 0 && all_finite(5, m5),
          "causal n=5 m=2: rows 1-3 must be empty, row 4 reads key 1");
}

static void test_sdpa_overflow(void)
{
    double work[8], S[4], A[4], M[4];
    attn_mask none = { 0, NULL, NULL };

    /* Q*K' = 1e400 overflows to Inf */
    double q[2] = { 1e200, 1 }, k[2] = { 1e200, 1 }, v[2] = { 1, 2 };
    int st = attn_sdpa_forward(2, 2, 1, 1, q, 2, k, 2, v, 2, &none, S, A, M,
                               2, work);
    check(st == ATTN_ERR_OVERFLOW, "Inf score: status %d, want overflow", st);

    /* dk = 2: 1e308^2 - 1e308^2 = Inf - Inf = NaN */
    double q2[2] = { 1e308, 1e308 }, k2[2] = { 1e308, -1e308 };
    st = attn_sdpa_forward(1, 1, 2, 1, q2, 1, k2, 1, v, 1, &none, S, A, M, 1,
                           work);
    check(st == ATTN_ERR_OVERFLOW, "NaN score: status %d, want overflow", st);

    /* -Inf score (q*k = -1e400) is an overflow too, not a mask */
    double k3[2] = { -1e200, 1 };
    st = attn_sdpa_forward(2, 2, 1, 1, q, 2, k3, 2, v, 2, &none, S, A, M, 2,
                           work);
    check(st == ATTN_ERR_OVERFLOW, "-Inf score: status %d, want overflow", st);

    /* the overflowing pair masked out: only allowed scores count */
    unsigned char pairs[4] = { 0, 1, 1, 1 };  /* (1,1) disallowed */
    attn_mask pm = { 0, NULL, pairs };
    st = attn_sdpa_forward(2, 2, 1, 1, q, 2, k, 2, v, 2, &pm, S, A, M, 2,
                           work);
    check(st == ATTN_OK && all_finite(4, A) && all_finite(2, M),
          "overflow in a masked pair: status %d", st);

    /* no false alarm: M = A*V, equal weights on two values of 1e308 */
    double z[2] = { 0, 0 }, vbig[2] = { 1e308, 1e308 };
    st = attn_sdpa_forward(1, 2, 1, 1, z, 1, z, 2, vbig, 2, &none, S, A, M,
                           1, work);
    check(st == ATTN_OK && M[0] == 1e308, "M = 1e308: status %d, M %g", st,
          M[0]);

    /* gradients past the double range: dA = dM*V' = 1e300*1e300 */
    double q4[2] = { 1, 2 }, k4[2] = { 1, -1 }, v4[2] = { 1e300, 1e300 };
    double dM4[2] = { 1e300, 1e300 }, dQ4[2], dK4[2], dV4[2], bwork[16];
    st = attn_sdpa_forward(2, 2, 1, 1, q4, 2, k4, 2, v4, 2, &none, S, A, M, 2,
                           work);
    check(st == ATTN_OK, "forward before gradient overflow: status %d", st);
    st = attn_sdpa_backward(2, 2, 1, 1, dM4, 2, q4, 2, k4, 2, v4, 2, A, 0,
                            dQ4, 2, dK4, 2, dV4, 2, bwork);
    check(st == ATTN_ERR_OVERFLOW, "gradient overflow: status %d", st);
}

/* ---- tests: blocks ----------------------------------------------------- */

typedef struct {
    attn_int n, m, d, d_src, dk, dv, heads, batch;
    int causal, self, keys;
} block_case;

static void test_block(const block_case *bc, int check_fd)
{
    attn_shape s = { bc->n, bc->self ? bc->n : bc->m, bc->d,
                     bc->self ? bc->d : bc->d_src, bc->dk, bc->dv, bc->heads,
                     bc->batch, bc->causal, 0, 0, 0.0 };
    block_sizes z = sizes_of(&s);
    char tag[128];
    snprintf(tag, sizeof tag, "block n=%ld m=%ld d=%ld d_src=%ld dk=%ld dv=%ld "
             "h=%ld B=%ld%s%s%s", (long) s.n, (long) s.m, (long) s.d,
             (long) s.d_src, (long) s.dk, (long) s.dv, (long) s.heads,
             (long) s.batch, s.causal ? " causal" : "",
             bc->self ? " self" : " cross", bc->keys ? " keys" : "");

    attn_weights w = { drand(z.W_Q), drand(z.W_K), drand(z.W_V),
                       drand(z.W_O), NULL, NULL, NULL, NULL };
    double *Xq = drand(z.Xq), *Xkv = bc->self ? Xq : drand(z.Xkv);
    unsigned char *key_allow = NULL;
    if (bc->keys) {
        key_allow = malloc((size_t) (s.m * s.batch));
        for (attn_int k = 0; k < s.m * s.batch; k++)
            key_allow[k] = urand() > -0.5;
        key_allow[0] = 0;
        /* last batch item: no real key at all */
        if (s.batch > 1)
            memset(key_allow + (s.batch - 1) * s.m, 0, (size_t) s.m);
    }
    attn_trace t = trace_alloc(&s), r = trace_alloc(&s);
    double *work = dalloc(attn_block_forward_work(&s));
    int st = attn_block_forward(&s, &w, Xq, Xkv, key_allow, &t, work);
    ref_block_forward(&s, &w, Xq, Xkv, key_allow, &r);
    check(st == ATTN_OK, "%s: status %d", tag, st);
#define CMP(field, count) \
    check_close((attn_int) (count), 1, t.field, 1, r.field, 1, tag, #field)
    CMP(Q, z.Q); CMP(K, z.K); CMP(V, z.V); CMP(scores, z.S); CMP(A, z.S);
    CMP(message, z.msg); CMP(delta, z.out); CMP(out, z.out);
#undef CMP

    /* scores sharing the weights' array (the lean trace): the softmax runs
     * in place and every other result is the same, bit for bit */
    {
        attn_trace l = trace_alloc(&s);
        free(l.scores);
        l.scores = l.A;
        st = attn_block_forward(&s, &w, Xq, Xkv, key_allow, &l, work);
        check(st == ATTN_OK
              && !memcmp(l.A, t.A, z.S * sizeof(double))
              && !memcmp(l.message, t.message, z.msg * sizeof(double))
              && !memcmp(l.out, t.out, z.out * sizeof(double)),
              "%s: scores in place of A: status %d, results differ", tag, st);
        l.scores = NULL;
        trace_free(&l);
    }

    /* backward: core vs reference; weights prefilled with NaN to check
     * they are overwritten, not accumulated into */
    double *dY = drand(z.out);
    attn_grads g = { dalloc(z.W_Q), dalloc(z.W_K), dalloc(z.W_V),
                     dalloc(z.W_O), dalloc(z.Xq), NULL, NULL, NULL, NULL,
                     NULL };
    g.dXkv = bc->self ? g.dXq : dalloc(z.Xkv);
    attn_grads rg = { dalloc(z.W_Q), dalloc(z.W_K), dalloc(z.W_V),
                      dalloc(z.W_O), dalloc(z.Xq),
                      bc->self ? NULL : dalloc(z.Xkv), NULL, NULL, NULL,
                      NULL };
    double *bwork = dalloc(attn_block_backward_work(&s));
    st = attn_block_backward(&s, &w, Xq, Xkv, &t, dY, &g, bwork);
    check(st == ATTN_OK, "%s: backward status %d", tag, st);
    ref_block_backward(&s, &w, Xq, Xkv, &r, dY, &rg);
#define CMPG(field, count) \
    check_close((attn_int) (count), 1, g.field, 1, rg.field, 1, tag, \
                "d" #field)
    CMPG(W_Q, z.W_Q); CMPG(W_K, z.W_K); CMPG(W_V, z.W_V); CMPG(W_O, z.W_O);
    CMPG(dXq, z.Xq);
    if (!bc->self)
        CMPG(dXkv, z.Xkv);
#undef CMPG

    if (bc->self) {
        /* the aliased dXkv == dXq equals the sum of separate gradients
         * computed with a copy of X as the key/value rows */
        double *Xc = dcopy(Xq, z.Xq);
        attn_trace t2 = trace_alloc(&s);
        attn_grads g2 = { dalloc(z.W_Q), dalloc(z.W_K), dalloc(z.W_V),
                          dalloc(z.W_O), dalloc(z.Xq), dalloc(z.Xq), NULL,
                          NULL, NULL, NULL };
        attn_block_forward(&s, &w, Xq, Xc, key_allow, &t2, work);
        attn_block_backward(&s, &w, Xq, Xc, &t2, dY, &g2, bwork);
        for (size_t k = 0; k < z.Xq; k++)
            g2.dXq[k] += g2.dXkv[k];
        check_close((attn_int) z.Xq, 1, g.dXq, 1, g2.dXq, 1, tag,
                    "aliased dX vs dXq + dXkv");
        check_close((attn_int) z.W_K, 1, g.W_K, 1, g2.W_K, 1, tag,
                    "aliased dW_K vs separate");
        trace_free(&t2);
        free(Xc); free(g2.W_Q); free(g2.W_K); free(g2.W_V); free(g2.W_O);
        free(g2.dXq); free(g2.dXkv);
    }

    if (check_fd) {
        double e;
        block_ctx c = { &s, w, Xq, bc->self ? NULL : Xkv, dY, key_allow };
        double *wq = (double *) w.W_Q, *wk = (double *) w.W_K;
        double *wv = (double *) w.W_V, *wo = (double *) w.W_O;
        e = fd_gap(wq, z.W_Q, rg.W_Q, block_loss_ctx, &c);
        e = fmax(e, fd_gap(wk, z.W_K, rg.W_K, block_loss_ctx, &c));
        e = fmax(e, fd_gap(wv, z.W_V, rg.W_V, block_loss_ctx, &c));
        e = fmax(e, fd_gap(wo, z.W_O, rg.W_O, block_loss_ctx, &c));
        e = fmax(e, fd_gap(Xq, z.Xq, rg.dXq, block_loss_ctx, &c));
        if (!bc->self)
            e = fmax(e, fd_gap(Xkv, z.Xkv, rg.dXkv, block_loss_ctx, &c));
        check(e <= FD_TOL, "%s: reference gradients vs finite differences %g",
              tag, e);
    }

    free((void *) w.W_Q); free((void *) w.W_K); free((void *) w.W_V);
    free((void *) w.W_O); free(Xq);
    if (!bc->self)
        free(Xkv);
    free(key_allow); trace_free(&t); trace_free(&r); free(work); free(dY);
    free(g.W_Q); free(g.W_K); free(g.W_V); free(g.W_O); free(g.dXq);
    if (!bc->self)
        free(g.dXkv);
    free(rg.W_Q); free(rg.W_K); free(rg.W_V); free(rg.W_O); free(rg.dXq);
    free(rg.dXkv); free(bwork);
}

static void test_block_overflow(void)
{
    /* Q = K = 1e160 (finite), scores = 1e320 = Inf */
    attn_shape s = { 2, 2, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0.0 };
    double X[2] = { 1, 1 }, wq = 1e160, wk = 1e160, wv = 1, wo = 1;
    attn_weights w = { &wq, &wk, &wv, &wo, NULL, NULL, NULL, NULL };
    attn_trace t = trace_alloc(&s);
    double *work = dalloc(attn_block_forward_work(&s));
    int st = attn_block_forward(&s, &w, X, X, NULL, &t, work);
    check(st == ATTN_ERR_OVERFLOW, "block overflow: status %d", st);
    /* batch 2, only the second item overflows */
    attn_shape s2 = { 1, 1, 1, 1, 1, 1, 1, 2, 0, 0, 0, 0.0 };
    double X2[2] = { 1e-300, 1 };
    attn_trace t2 = trace_alloc(&s2);
    double *work2 = dalloc(attn_block_forward_work(&s2));
    st = attn_block_forward(&s2, &w, X2, X2, NULL, &t2, work2);
    check(st == ATTN_ERR_OVERFLOW, "block overflow in batch item 2: status %d",
          st);
    /* same weights, scores of +-1e300 are fine */
    double X3[2] = { 1e-10, -1e-10 };
    st = attn_block_forward(&s, &w, X3, X3, NULL, &t, work);
    check(st == ATTN_OK && all_finite(4, t.A) && all_finite(2, t.out),
          "block with scores 1e300: status %d", st);

    /* finite scores, message*W_O = 1e300*1e300: out would be Inf */
    double one = 1, big = 1e300, Xs[2] = { 1, 2 };
    attn_weights wbig = { &one, &one, &big, &big, NULL, NULL, NULL, NULL };
    st = attn_block_forward(&s, &wbig, Xs, Xs, NULL, &t, work);
    check(st == ATTN_ERR_OVERFLOW, "block output overflow: status %d", st);

    /* finite forward pass, dmessage = dY*W_O' = 1e300*1e300 */
    attn_weights wg = { &one, &one, &one, &big, NULL, NULL, NULL, NULL };
    st = attn_block_forward(&s, &wg, Xs, Xs, NULL, &t, work);
    check(st == ATTN_OK, "block before gradient overflow: status %d", st);
    double dY[2] = { 1e300, 1e300 }, gq, gk, gv, go, dX[2];
    attn_grads g = { &gq, &gk, &gv, &go, dX, dX, NULL, NULL, NULL, NULL };
    double *bwork = dalloc(attn_block_backward_work(&s));
    st = attn_block_backward(&s, &wg, Xs, Xs, &t, dY, &g, bwork);
    check(st == ATTN_ERR_OVERFLOW, "block gradient overflow: status %d", st);
    free(bwork);
    trace_free(&t); trace_free(&t2); free(work); free(work2);
}

/* The K/V cache (attn_shape.past): the last rows of a causal block and of
 * a cross block computed after `past` given key/value rows equal the same
 * rows of the whole pass (the same products, so to rounding only). */
static void test_block_cache(int cross)
{
    const attn_int N = 6, n = 2, past = cross ? 5 : 4, d = 4, ds = 3;
    const attn_int dk = 2, dv = 3, h = 2, B = 3, hk = h * dk, hv = h * dv;
    const attn_int m = cross ? 5 : N;           /* keys of the whole pass */
    attn_shape full = { cross ? n : N, m, d, cross ? ds : d, dk, dv, h, B,
                        !cross, 0, 0, 0.0 };
    block_sizes z = sizes_of(&full);
    attn_weights w = { drand(z.W_Q), drand(z.W_K), drand(z.W_V),
                       drand(z.W_O), NULL, NULL, NULL, NULL };
    double *X = drand(z.Xq), *E = cross ? drand(z.Xkv) : X;
    attn_trace tf = trace_alloc(&full);
    double *work = dalloc(attn_block_forward_work(&full));
    check(attn_block_forward(&full, &w, X, E, NULL, &tf, work) == ATTN_OK,
          "cache: whole pass");
    free(work);

    /* the step: queries the last n rows (self) or all n (cross), keys
     * after the first `past` rows, which come from the whole pass */
    attn_shape step = { n, m, d, full.d_src, dk, dv, h, B, !cross, past, 0,
                        0.0 };
    block_sizes y = sizes_of(&step);
    double *Xs = dalloc(y.Xq), *Es = dalloc((size_t) (m - past) * ds * B + 1);
    for (attn_int b = 0; b < B; b++)
        for (attn_int c = 0; c < d; c++)
            memcpy(Xs + (b * d + c) * n,
                   X + (b * d + c) * full.n + (full.n - n),
                   n * sizeof(double));
    attn_trace ts = trace_alloc(&step);
    for (attn_int b = 0; b < B; b++) {
        for (attn_int c = 0; c < hk; c++)
            memcpy(ts.K + (b * hk + c) * m, tf.K + (b * hk + c) * m,
                   past * sizeof(double));
        for (attn_int c = 0; c < hv; c++)
            memcpy(ts.V + (b * hv + c) * m, tf.V + (b * hv + c) * m,
                   past * sizeof(double));
    }
    work = dalloc(attn_block_forward_work(&step));
    check(attn_block_forward(&step, &w, Xs, cross ? Es : Xs, NULL, &ts, work)
          == ATTN_OK, "cache: step");
    double e = rel_err(m * hk * B, 1, ts.K, m * hk * B, tf.K, m * hk * B);
    e = fmax(e, rel_err(m * hv * B, 1, ts.V, m * hv * B, tf.V, m * hv * B));
    for (attn_int b = 0; b < B; b++) {
        e = fmax(e, rel_err(n, d, ts.out + b * n * d, n,
                            tf.out + b * full.n * d + (full.n - n), full.n));
        for (attn_int j = 0; j < h; j++)
            e = fmax(e, rel_err(n, m, ts.A + (b * h + j) * n * m, n,
                                tf.A + (b * h + j) * full.n * m
                                + (full.n - n), full.n));
    }
    check(e <= TOL, "cache (%s): the step's K, V, A and out against the "
          "whole pass, err %g", cross ? "cross" : "causal", e);
    free(work); free(Xs); free(Es); free(X);
    if (cross)
        free(E);
    free((void *) w.W_Q); free((void *) w.W_K); free((void *) w.W_V);
    free((void *) w.W_O);
    trace_free(&tf);
    trace_free(&ts);
}

/* A step's finite test reads the key and value rows it computes, in any
 * item (the last item's here fall past the test's groups of eight), and
 * not the cache's.  The new key rows and one cache row are masked, so that
 * only that test sees them; W_Q and W_V scale Q and V down so that nothing
 * else overflows. */
static void test_block_new_rows_finite(void)
{
    const attn_int n = 2, past = 3, m = past + n, d = 4, dk = 2, h = 2;
    const attn_int B = 3, hk = h * dk;
    attn_shape s = { n, m, d, d, dk, dk, h, B, 1, past, 0, 0.0 };
    block_sizes z = sizes_of(&s);
    double *W_Q = drand(z.W_Q), *W_K = dalloc(z.W_K), *W_V = drand(z.W_V);
    for (size_t i = 0; i < z.W_Q; i++)
        W_Q[i] *= 1e-10;
    for (size_t i = 0; i < z.W_V; i++)
        W_V[i] *= 1e-10;
    for (size_t i = 0; i < z.W_K; i++)
        W_K[i] = 1.0;               /* a row of 1e308 makes K 4e308 */
    attn_weights w = { W_Q, W_K, W_V, drand(z.W_O), NULL, NULL, NULL,
                       NULL };
    unsigned char key_allow[5 * 3];
    for (attn_int k = 0; k < m * B; k++)
        key_allow[k] = k % m < 2;   /* cache rows 0, 1 */
    attn_trace t = trace_alloc(&s);
    double *X = dalloc(z.Xq), *work = dalloc(attn_block_forward_work(&s));
    const char *what[3] = { "finite", "the last item's new K rows Inf",
                            "a masked cache row of K Inf" };
    const int want[3] = { ATTN_OK, ATTN_ERR_OVERFLOW, ATTN_OK };
    for (int c = 0; c < 3; c++) {
        for (size_t i = 0; i < z.Xq; i++)
            X[i] = c == 1 && i >= (size_t) (n * d * (B - 1)) ? 1e308
                                                             : urand();
        for (attn_int k = 0; k < B * hk; k++)
            for (attn_int r = 0; r < past; r++)
                t.K[k * m + r] = t.V[k * m + r] = urand();
        if (c == 2)
            t.K[2] = INFINITY;      /* item 1, column 1, cache row 2 */
        int st = attn_block_forward(&s, &w, X, X, key_allow, &t, work);
        check(st == want[c], "new rows' finite test, %s: status %d, want %d",
              what[c], st, want[c]);
    }
    free(X); free(work); free(W_Q); free(W_K); free(W_V);
    free((void *) w.W_O);
    trace_free(&t);
}

/* ---- optimiser steps ---------------------------------------------------- */

/* SGD against w - lr*g written out; Adam against its first step, where the
 * bias-corrected moments are g and g.^2 (w - lr*g/(|g| + epsilon)), then
 * against three steps of the formula written out in separate passes; both
 * also in place (outputs on their inputs). */
static void test_optimisers(void)
{
    enum { N = 37 };
    double *w = drand(N), *g = drand(N), *out = dalloc(N);
    attn_sgd_step(N, w, g, 0.125, out);
    int ok = 1;
    for (int i = 0; i < N; i++)
        ok = ok && out[i] == w[i] + (-0.125) * g[i];
    check(ok, "sgd: w + (-lr)*g");
    double *w2 = dcopy(w, N);
    attn_sgd_step(N, w2, g, 0.125, w2);
    check(!memcmp(w2, out, N * sizeof(double)), "sgd in place");

    const double lr = 1e-2, b1 = 0.9, b2 = 0.999, eps = 1e-8;
    double *mo = dalloc(N), *ve = dalloc(N), *mo1 = dalloc(N),
           *ve1 = dalloc(N);
    memset(mo, 0, N * sizeof(double));
    memset(ve, 0, N * sizeof(double));
    attn_adam_hyper h = attn_adam_at(lr, b1, b2, eps, 1);
    check(h.bias1 == 1 - b1 && h.bias2 == 1 - b2, "adam: bias at t = 1");
    attn_adam_step(N, w, mo, ve, g, &h, out, mo1, ve1);
    double e = 0;
    for (int i = 0; i < N; i++) {
        const double want = w[i] - lr * g[i] / (fabs(g[i]) + eps);
        e = fmax(e, fabs(out[i] - want) / fabs(want));
    }
    check(e <= 1e-14, "adam: first step w - lr*g/(|g| + eps), err %g", e);

    double *rw = dcopy(w, N), *rm = dcopy(mo, N), *rv = dcopy(ve, N);
    double *cw = dcopy(w, N), *cm = dcopy(mo, N), *cv = dcopy(ve, N);
    for (int t = 1; t <= 3; t++) {
        for (int i = 0; i < N; i++)
            rm[i] = b1 * rm[i] + (1 - b1) * g[i];
        for (int i = 0; i < N; i++)
            rv[i] = b2 * rv[i] + (1 - b2) * g[i] * g[i];
        for (int i = 0; i < N; i++) {
            const double mhat = rm[i] / (1 - pow(b1, t));
            const double vhat = rv[i] / (1 - pow(b2, t));
            rw[i] -= lr * mhat / (sqrt(vhat) + eps);
        }
        h = attn_adam_at(lr, b1, b2, eps, t);
        attn_adam_step(N, cw, cm, cv, g, &h, cw, cm, cv);
    }
    check(rel_err(N, 1, cw, N, rw, N) <= TOL
          && rel_err(N, 1, cm, N, rm, N) <= TOL
          && rel_err(N, 1, cv, N, rv, N) <= TOL,
          "adam: three steps in place against the formula");
    free(w); free(g); free(out); free(w2); free(mo); free(ve); free(mo1);
    free(ve1); free(rw); free(rm); free(rv); free(cw); free(cm); free(cv);
}

/* ---- tests: the block options (biases, kv_heads, rope_base) ----------- */

/* L = sum (R .* out) by the core's own forward pass: the options have no
 * separate C reference, so the core's backward is checked against finite
 * differences of its forward (and, in tests/test_kernels_options.m, the
 * MEX functions against the plain-Octave reference and python3-torch). */
typedef struct {
    const attn_shape *s;
    const attn_weights *w;
    const double *Xq, *Xkv, *R;
    const unsigned char *key_allow;
} options_ctx;

static double options_loss_ctx(void *p)
{
    options_ctx *c = p;
    attn_trace t = trace_alloc(c->s);
    double *work = dalloc(attn_block_forward_work(c->s));
    attn_block_forward(c->s, c->w, c->Xq, c->Xkv ? c->Xkv : c->Xq,
                       c->key_allow, &t, work);
    double L = 0.0;
    for (size_t i = 0; i < sizes_of(c->s).out; i++)
        L += t.out[i] * c->R[i];
    trace_free(&t);
    free(work);
    return L;
}

/* Every option at once (rope_base on self and masked blocks only), a batch
 * of 2 with key masks: the gradient of every weight, bias and input
 * against central differences; then kv_heads = heads and kv_heads = 0
 * give the same results bit for bit. */
static void test_block_options(int causal, int cross)
{
    const attn_int n = 4, m = cross ? 5 : 4, d = 4, ds = cross ? 3 : 4;
    const attn_int h = 4, h_kv = 2, dk = 2, dv = 3, B = 2;
    attn_shape s = { n, m, d, ds, dk, dv, h, B, causal, 0, h_kv,
                     cross ? 0.0 : 100.0 };
    const size_t nq = (size_t) (d * h * dk), nk = (size_t) (ds * h_kv * dk);
    const size_t nv = (size_t) (ds * h_kv * dv), no = (size_t) (h * dv * d);
    const size_t bq = (size_t) (h * dk), bk = (size_t) (h_kv * dk);
    const size_t bv = (size_t) (h_kv * dv), bo = (size_t) d;
    const size_t xq = (size_t) (n * d * B), xkv = (size_t) (m * ds * B);
    char tag[64];
    snprintf(tag, sizeof tag, "block options %s",
             cross ? "cross" : causal ? "masked" : "self");

    double *W_Q = drand(nq), *W_K = drand(nk), *W_V = drand(nv);
    double *W_O = drand(no), *b_Q = drand(bq), *b_K = drand(bk);
    double *b_V = drand(bv), *b_O = drand(bo);
    attn_weights w = { W_Q, W_K, W_V, W_O, b_Q, b_K, b_V, b_O };
    double *Xq = drand(xq), *Xkv = cross ? drand(xkv) : Xq, *R = drand(xq);
    unsigned char key_allow[10];                       /* m x B */
    for (attn_int k = 0; k < m * B; k++)
        key_allow[k] = k % m == 0 || urand() > -0.4;

    attn_trace t = trace_alloc(&s);
    double *work = dalloc(attn_block_forward_work(&s));
    int st = attn_block_forward(&s, &w, Xq, Xkv, key_allow, &t, work);
    check(st == ATTN_OK, "%s: status %d", tag, st);
    attn_grads g = { dalloc(nq), dalloc(nk), dalloc(nv), dalloc(no),
                     dalloc(xq), NULL, dalloc(bq), dalloc(bk), dalloc(bv),
                     dalloc(bo) };
    g.dXkv = cross ? dalloc(xkv) : g.dXq;
    double *bwork = dalloc(attn_block_backward_work(&s));
    st = attn_block_backward(&s, &w, Xq, Xkv, &t, R, &g, bwork);
    check(st == ATTN_OK, "%s: backward status %d", tag, st);

    options_ctx c = { &s, &w, Xq, cross ? Xkv : NULL, R, key_allow };
    double e = fd_gap(W_Q, nq, g.W_Q, options_loss_ctx, &c);
    e = fmax(e, fd_gap(W_K, nk, g.W_K, options_loss_ctx, &c));
    e = fmax(e, fd_gap(W_V, nv, g.W_V, options_loss_ctx, &c));
    e = fmax(e, fd_gap(W_O, no, g.W_O, options_loss_ctx, &c));
    e = fmax(e, fd_gap(b_Q, bq, g.b_Q, options_loss_ctx, &c));
    e = fmax(e, fd_gap(b_K, bk, g.b_K, options_loss_ctx, &c));
    e = fmax(e, fd_gap(b_V, bv, g.b_V, options_loss_ctx, &c));
    e = fmax(e, fd_gap(b_O, bo, g.b_O, options_loss_ctx, &c));
    e = fmax(e, fd_gap(Xq, xq, g.dXq, options_loss_ctx, &c));
    if (cross)
        e = fmax(e, fd_gap(Xkv, xkv, g.dXkv, options_loss_ctx, &c));
    check(e <= FD_TOL, "%s: gradients vs finite differences %g", tag, e);

    /* one K/V head per query head: kv_heads = h and kv_heads = 0 (as many
     * as heads) are the same block */
    attn_shape s1 = s, s0 = s;
    s1.kv_heads = h;
    s0.kv_heads = 0;
    block_sizes z = sizes_of(&s1);
    double *W_K1 = drand(z.W_K), *W_V1 = drand(z.W_V);
    attn_weights w1 = { W_Q, W_K1, W_V1, W_O, b_Q, NULL, NULL, b_O };
    attn_trace t1 = trace_alloc(&s1), t0 = trace_alloc(&s0);
    double *work1 = dalloc(attn_block_forward_work(&s1));
    attn_block_forward(&s1, &w1, Xq, Xkv, key_allow, &t1, work1);
    attn_block_forward(&s0, &w1, Xq, Xkv, key_allow, &t0, work1);
    check(!memcmp(t1.out, t0.out, z.out * sizeof(double))
          && !memcmp(t1.K, t0.K, z.K * sizeof(double)),
          "%s: kv_heads = heads and kv_heads = 0 differ", tag);

    trace_free(&t); trace_free(&t1); trace_free(&t0);
    free(W_Q); free(W_K); free(W_V); free(W_O); free(b_Q); free(b_K);
    free(b_V); free(b_O); free(W_K1); free(W_V1); free(Xq); free(R);
    if (cross) {
        free(Xkv);
        free(g.dXkv);
    }
    free(work); free(work1); free(bwork);
    free(g.W_Q); free(g.W_K); free(g.W_V); free(g.W_O); free(g.dXq);
    free(g.b_Q); free(g.b_K); free(g.b_V); free(g.b_O);
}

/* ---- tests: the single kernels (the _f names) -------------------------- */

/* The single core against the double core on the same numbers (the
 * double inputs rounded to single): a chain of at most 5 sums of at most
 * 140 terms, each rounding by about eps relative; errors of random sign
 * grow as the square root of the terms, so 64 * FLT_EPSILON (7.6e-6)
 * relative to 1 + |double result| holds with a margin (measured: a few
 * eps).  Arrays are allocated at their exact sizes for valgrind and ASan,
 * outputs prefilled with NaN. */
static const double TOL_F = 64 * 1.1920928955078125e-07;

static float *falloc(size_t count)
{
    float *p = malloc(count ? count * sizeof(float) : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < count; i++)
        p[i] = NAN;
    return p;
}

static float *to_single(const double *a, size_t count)
{
    float *p = falloc(count);
    for (size_t i = 0; i < count; i++)
        p[i] = (float) a[i];
    return p;
}

/* a (single) against b (double), count entries: rel_err on a's doubles */
static void check_single(size_t count, const float *a, const double *b,
                         const char *tag, const char *what)
{
    double *x = dalloc(count);
    for (size_t i = 0; i < count; i++)
        x[i] = a[i];
    double e = rel_err((attn_int) count, 1, x, (attn_int) count, b,
                       (attn_int) count);
    check(e <= TOL_F, "%s: single %s err %g", tag, what, e);
    free(x);
}

static attn_trace_f trace_alloc_f(const attn_shape *s)
{
    block_sizes z = sizes_of(s);
    attn_trace_f t = { falloc(z.Q), falloc(z.K), falloc(z.V), falloc(z.S),
                       falloc(z.S), falloc(z.msg), falloc(z.out),
                       falloc(z.out) };
    return t;
}

static void trace_free_f(attn_trace_f *t)
{
    free(t->Q); free(t->K); free(t->V); free(t->scores); free(t->A);
    free(t->message); free(t->delta); free(t->out);
}

/* attn_sdpa_forward_f / _backward_f against the double kernels on the
 * rounded numbers, every mask kind (the causal tiles from n = 64) */
static void test_sdpa_single(attn_int n, attn_int m, attn_int dk,
                             attn_int dv, const mask_kind *mk)
{
    char tag[96];
    snprintf(tag, sizeof tag, "sdpa_f n=%ld m=%ld dk=%ld dv=%ld %s",
             (long) n, (long) m, (long) dk, (long) dv, mk->name);
    double *Q = drand((size_t) (n * dk)), *K = drand((size_t) (m * dk));
    double *V = drand((size_t) (m * dv)), *dM = drand((size_t) (n * dv));
    for (attn_int i = 0; i < n * dk; i++)  /* the numbers single holds */
        Q[i] = (float) Q[i];
    for (attn_int i = 0; i < m * dk; i++)
        K[i] = (float) K[i];
    for (attn_int i = 0; i < m * dv; i++)
        V[i] = (float) V[i];
    for (attn_int i = 0; i < n * dv; i++)
        dM[i] = (float) dM[i];
    unsigned char *keys = malloc((size_t) m);
    unsigned char *pairs = malloc((size_t) (n * m));
    random_masks(n, m, keys, pairs);
    attn_mask mask = { mk->causal, mk->use_keys ? keys : NULL,
                       mk->use_pairs ? pairs : NULL };
    double *S = dalloc((size_t) (n * m)), *A = dalloc((size_t) (n * m));
    double *M = dalloc((size_t) (n * dv));
    double *work = dalloc(attn_sdpa_forward_work(n, m));
    attn_sdpa_forward(n, m, dk, dv, Q, n, K, m, V, m, &mask, S, A, M, n, work);
    double *dQ = dalloc((size_t) (n * dk)), *dK = dalloc((size_t) (m * dk));
    double *dV = dalloc((size_t) (m * dv));
    double *bwork = dalloc(attn_sdpa_backward_work(n, m));
    attn_sdpa_backward(n, m, dk, dv, dM, n, Q, n, K, m, V, m, A, mk->causal,
                       dQ, n, dK, m, dV, m, bwork);

    float *Qf = to_single(Q, (size_t) (n * dk));
    float *Kf = to_single(K, (size_t) (m * dk));
    float *Vf = to_single(V, (size_t) (m * dv));
    float *dMf = to_single(dM, (size_t) (n * dv));
    float *Sf = falloc((size_t) (n * m)), *Af = falloc((size_t) (n * m));
    float *Mf = falloc((size_t) (n * dv));
    float *workf = falloc(attn_sdpa_forward_work(n, m));
    int st = attn_sdpa_forward_f(n, m, dk, dv, Qf, n, Kf, m, Vf, m, &mask, Sf,
                                 Af, Mf, n, workf);
    check(st == ATTN_OK, "%s: status %d", tag, st);
    check_single((size_t) (n * m), Af, A, tag, "A");
    check_single((size_t) (n * dv), Mf, M, tag, "M");
    float *dQf = falloc((size_t) (n * dk)), *dKf = falloc((size_t) (m * dk));
    float *dVf = falloc((size_t) (m * dv));
    float *bworkf = falloc(attn_sdpa_backward_work(n, m));
    st = attn_sdpa_backward_f(n, m, dk, dv, dMf, n, Qf, n, Kf, m, Vf, m, Af,
                              mk->causal, dQf, n, dKf, m, dVf, m, bworkf);
    check(st == ATTN_OK, "%s: backward status %d", tag, st);
    check_single((size_t) (n * dk), dQf, dQ, tag, "dQ");
    check_single((size_t) (m * dk), dKf, dK, tag, "dK");
    check_single((size_t) (m * dv), dVf, dV, tag, "dV");
    free(Q); free(K); free(V); free(dM); free(keys); free(pairs); free(S);
    free(A); free(M); free(work); free(dQ); free(dK); free(dV); free(bwork);
    free(Qf); free(Kf); free(Vf); free(dMf); free(Sf); free(Af); free(Mf);
    free(workf); free(dQf); free(dKf); free(dVf); free(bworkf);
}

/* a block forward and backward in single against double, with biases */
static void test_block_single(const block_case *bc)
{
    attn_shape s = { bc->n, bc->self ? bc->n : bc->m, bc->d,
                     bc->self ? bc->d : bc->d_src, bc->dk, bc->dv, bc->heads,
                     bc->batch, bc->causal, 0, 0, 0.0 };
    block_sizes z = sizes_of(&s);
    char tag[96];
    snprintf(tag, sizeof tag, "block_f n=%ld m=%ld h=%ld B=%ld%s%s",
             (long) s.n, (long) s.m, (long) s.heads, (long) s.batch,
             s.causal ? " causal" : "", bc->self ? " self" : " cross");
    const size_t sizes[] = { z.W_Q, z.W_K, z.W_V, z.W_O,
                             (size_t) (s.heads * s.dk),
                             (size_t) (s.heads * s.dk),
                             (size_t) (s.heads * s.dv), (size_t) s.d,
                             z.Xq, z.Xkv, z.out };
    enum { N_IN = sizeof sizes / sizeof sizes[0] };
    double *in[N_IN];
    float *in_f[N_IN];
    for (int k = 0; k < N_IN; k++) {
        in[k] = drand(sizes[k]);
        for (size_t i = 0; i < sizes[k]; i++)
            in[k][i] = (float) in[k][i];
        in_f[k] = to_single(in[k], sizes[k]);
    }
    const double *Xkv = bc->self ? in[8] : in[9];
    const float *Xkv_f = bc->self ? in_f[8] : in_f[9];
    attn_weights w = { in[0], in[1], in[2], in[3], in[4], in[5], in[6],
                       in[7] };
    attn_weights_f wf = { in_f[0], in_f[1], in_f[2], in_f[3], in_f[4],
                          in_f[5], in_f[6], in_f[7] };
    attn_trace t = trace_alloc(&s);
    attn_trace_f tf = trace_alloc_f(&s);
    double *work = dalloc(attn_block_forward_work(&s));
    float *work_f = falloc(attn_block_forward_work(&s));
    attn_block_forward(&s, &w, in[8], Xkv, NULL, &t, work);
    int st = attn_block_forward_f(&s, &wf, in_f[8], Xkv_f, NULL, &tf, work_f);
    check(st == ATTN_OK, "%s: status %d", tag, st);
    check_single(z.S, tf.A, t.A, tag, "A");
    check_single(z.out, tf.out, t.out, tag, "out");

    attn_grads g = { dalloc(z.W_Q), dalloc(z.W_K), dalloc(z.W_V),
                     dalloc(z.W_O), dalloc(z.Xq), NULL, dalloc(sizes[4]),
                     dalloc(sizes[5]), dalloc(sizes[6]), dalloc(sizes[7]) };
    attn_grads_f gf = { falloc(z.W_Q), falloc(z.W_K), falloc(z.W_V),
                        falloc(z.W_O), falloc(z.Xq), NULL, falloc(sizes[4]),
                        falloc(sizes[5]), falloc(sizes[6]),
                        falloc(sizes[7]) };
    g.dXkv = bc->self ? g.dXq : dalloc(z.Xkv);
    gf.dXkv = bc->self ? gf.dXq : falloc(z.Xkv);
    double *bwork = dalloc(attn_block_backward_work(&s));
    float *bwork_f = falloc(attn_block_backward_work(&s));
    attn_block_backward(&s, &w, in[8], Xkv, &t, in[10], &g, bwork);
    st = attn_block_backward_f(&s, &wf, in_f[8], Xkv_f, &tf, in_f[10], &gf,
                               bwork_f);
    check(st == ATTN_OK, "%s: backward status %d", tag, st);
    check_single(z.W_Q, gf.W_Q, g.W_Q, tag, "dW_Q");
    check_single(z.W_K, gf.W_K, g.W_K, tag, "dW_K");
    check_single(z.W_V, gf.W_V, g.W_V, tag, "dW_V");
    check_single(z.W_O, gf.W_O, g.W_O, tag, "dW_O");
    check_single(sizes[4], gf.b_Q, g.b_Q, tag, "db_Q");
    check_single(sizes[7], gf.b_O, g.b_O, tag, "db_O");
    check_single(z.Xq, gf.dXq, g.dXq, tag, "dXq");
    if (!bc->self)
        check_single(z.Xkv, gf.dXkv, g.dXkv, tag, "dXkv");

    for (int k = 0; k < N_IN; k++) {
        free(in[k]);
        free(in_f[k]);
    }
    trace_free(&t); trace_free_f(&tf); free(work); free(work_f);
    free(g.W_Q); free(g.W_K); free(g.W_V); free(g.W_O); free(g.dXq);
    free(g.b_Q); free(g.b_K); free(g.b_V); free(g.b_O);
    free(gf.W_Q); free(gf.W_K); free(gf.W_V); free(gf.W_O); free(gf.dXq);
    free(gf.b_Q); free(gf.b_K); free(gf.b_V); free(gf.b_O);
    if (!bc->self) {
        free(g.dXkv);
        free(gf.dXkv);
    }
    free(bwork); free(bwork_f);
}

/* rows times a matrix, LayerNorm and the optimiser steps in single */
static void test_rows_single(void)
{
    enum { n = 5, a = 4, c = 3, P = 3 };
    const char *tag = "rows_f";
    double *X = drand(n * a * P), *W = drand(a * c), *b = drand(c);
    double *dY = drand(n * c * P);
    for (int i = 0; i < n * a * P; i++)
        X[i] = (float) X[i];
    for (int i = 0; i < a * c; i++)
        W[i] = (float) W[i];
    for (int i = 0; i < c; i++)
        b[i] = (float) b[i];
    for (int i = 0; i < n * c * P; i++)
        dY[i] = (float) dY[i];
    float *Xf = to_single(X, n * a * P), *Wf = to_single(W, a * c);
    float *bf = to_single(b, c), *dYf = to_single(dY, n * c * P);
    double *Y = dalloc(n * c * P);
    double *work = dalloc(attn_rows_forward_work(n, a, c, P));
    float *Yf = falloc(n * c * P);
    float *work_f = falloc(attn_rows_forward_work(n, a, c, P));
    attn_rows_forward(n, a, c, P, X, W, b, Y, work);
    attn_rows_forward_f(n, a, c, P, Xf, Wf, bf, Yf, work_f);
    check_single(n * c * P, Yf, Y, tag, "Y");
    double *dX = dalloc(n * a * P), *dW = dalloc(a * c), *db = dalloc(c);
    double *bwork = dalloc(attn_rows_backward_work(n, a, c, P));
    float *dXf = falloc(n * a * P), *dWf = falloc(a * c), *dbf = falloc(c);
    float *bwork_f = falloc(attn_rows_backward_work(n, a, c, P));
    attn_rows_backward(n, a, c, P, dY, X, W, dX, dW, db, bwork);
    attn_rows_backward_f(n, a, c, P, dYf, Xf, Wf, dXf, dWf, dbf, bwork_f);
    check_single(n * a * P, dXf, dX, tag, "dX");
    check_single(a * c, dWf, dW, tag, "dW");
    check_single(c, dbf, db, tag, "db");

    /* LayerNorm of X's rows (width a) with gain W(:,1), bias b */
    double *mu = dalloc(n * P), *sg = dalloc(n * P), *xh = dalloc(n * a * P);
    double *Yn = dalloc(n * a * P);
    float *muf = falloc(n * P), *sgf = falloc(n * P), *xhf = falloc(n * a * P);
    float *Ynf = falloc(n * a * P);
    attn_layernorm_forward(n, a, P, X, W, W + a, 1e-5, Yn, mu, sg, xh);
    attn_layernorm_forward_f(n, a, P, Xf, Wf, Wf + a, 1e-5, Ynf, muf, sgf,
                             xhf);
    check_single(n * a * P, Ynf, Yn, "layernorm_f", "Y");
    check_single(n * P, sgf, sg, "layernorm_f", "sigma");
    double *dXn = dalloc(n * a * P), *dg = dalloc(a), *dbn = dalloc(a);
    double *lwork = dalloc(2 * n);
    float *dXnf = falloc(n * a * P), *dgf = falloc(a), *dbnf = falloc(a);
    float *lwork_f = falloc(2 * n);
    attn_layernorm_backward(n, a, P, X, xh, sg, W, dXn, dg, dbn, lwork);
    attn_layernorm_backward_f(n, a, P, Xf, xhf, sgf, Wf, dXnf, dgf, dbnf,
                              lwork_f);
    check_single(n * a * P, dXnf, dXn, "layernorm_f", "dX");
    check_single(a, dgf, dg, "layernorm_f", "dgain");

    /* Adam, three steps from zero moments, against the double step */
    enum { N = n * a * P };
    double *mo = dalloc(N), *ve = dalloc(N), *w = dcopy(X, N);
    float *mof = falloc(N), *vef = falloc(N), *wf = to_single(X, N);
    memset(mo, 0, N * sizeof(double));
    memset(ve, 0, N * sizeof(double));
    memset(mof, 0, N * sizeof(float));
    memset(vef, 0, N * sizeof(float));
    for (int t = 1; t <= 3; t++) {
        attn_adam_hyper h = attn_adam_at(1e-2, 0.9, 0.999, 1e-8, t);
        attn_adam_step(N, w, mo, ve, dXn, &h, w, mo, ve);
        attn_adam_step_f(N, wf, mof, vef, dXnf, &h, wf, mof, vef);
    }
    check_single(N, wf, w, "adam_f", "w");
    check_single(N, mof, mo, "adam_f", "m");
    attn_sgd_step_f(N, wf, dXnf, 0.5, wf);
    attn_sgd_step(N, w, dXn, 0.5, w);
    check_single(N, wf, w, "sgd_f", "w");

    free(X); free(W); free(b); free(dY); free(Xf); free(Wf); free(bf);
    free(dYf); free(Y); free(work); free(Yf); free(work_f); free(dX);
    free(dW); free(db); free(bwork); free(dXf); free(dWf); free(dbf);
    free(bwork_f); free(mu); free(sg); free(xh); free(Yn); free(muf);
    free(sgf); free(xhf); free(Ynf); free(dXn); free(dg); free(dbn);
    free(lwork); free(dXnf); free(dgf); free(dbnf); free(lwork_f); free(mo);
    free(ve); free(w); free(mof); free(vef); free(wf);
}

int main(void)
{
    /* scaled dot-product attention: shapes x masks (n != m, dk != dv,
     * causal tiles (four of them from n = 2048), n or m or d of 1) */
    static const attn_int shapes[][4] = {
        { 1, 1, 1, 1 }, { 1, 5, 2, 3 }, { 5, 1, 3, 2 }, { 4, 4, 2, 2 },
        { 3, 7, 4, 1 }, { 7, 3, 1, 4 }, { 16, 16, 8, 8 }, { 33, 20, 5, 7 },
        { 200, 260, 3, 2 }, { 300, 150, 2, 3 }, { 260, 260, 4, 4 },
        { 2100, 2100, 2, 1 },
    };
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
        for (int q = 0; q < N_MASKS; q++)
            test_sdpa(shapes[k][0], shapes[k][1], shapes[k][2], shapes[k][3],
                      &MASKS[q]);
    for (int q = 0; q < N_MASKS; q++) {
        test_sdpa_reference_fd(4, 5, 3, 2, &MASKS[q]);
        test_sdpa_reference_fd(5, 3, 2, 3, &MASKS[q]);
    }
    test_sdpa_extremes();
    test_sdpa_overflow();

    /* blocks: n m d d_src dk dv heads batch causal self keys */
    static const block_case blocks[] = {
        { 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0 },
        { 4, 4, 3, 3, 2, 3, 1, 1, 0, 1, 0 },
        { 4, 4, 3, 3, 2, 3, 1, 1, 1, 1, 0 },
        { 5, 5, 4, 4, 2, 1, 2, 3, 1, 1, 1 },
        { 6, 6, 6, 6, 3, 3, 2, 2, 0, 1, 1 },
        { 3, 5, 4, 2, 2, 3, 2, 2, 0, 0, 0 },
        { 3, 5, 4, 2, 2, 3, 2, 2, 0, 0, 1 },
        { 1, 4, 3, 5, 1, 2, 3, 1, 0, 0, 1 },
        { 6, 1, 2, 3, 3, 2, 1, 2, 0, 0, 0 },
        { 2, 3, 1, 1, 1, 1, 1, 4, 0, 0, 1 },
        { 140, 140, 8, 8, 4, 4, 2, 2, 1, 1, 1 },
        { 40, 70, 12, 9, 4, 5, 3, 2, 0, 0, 1 },
        /* batches whose projections run stacked (one product over all
         * rows): self with padding, causal, cross with n != m */
        { 7, 7, 16, 16, 4, 4, 4, 9, 1, 1, 1 },
        { 5, 9, 12, 7, 3, 2, 2, 6, 0, 0, 1 },
        { 10, 10, 64, 64, 16, 16, 4, 64, 0, 1, 0 },
        { 3, 3, 2, 2, 1, 1, 2, 5, 1, 0, 0 },
    };
    for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++)
        test_block(&blocks[k], blocks[k].n * blocks[k].m <= 64);
    test_block_overflow();
    test_block_cache(0);
    test_block_cache(1);
    test_block_new_rows_finite();
    test_block_options(0, 0);
    test_block_options(1, 0);
    test_block_options(0, 1);
    test_optimisers();

    /* the single kernels: sdpa (every mask, the causal tiles), blocks
     * with biases (self, causal, cross, batches), the row-wise maps, the
     * optimiser steps */
    static const attn_int shapes_f[][4] = {
        { 4, 4, 2, 2 }, { 33, 20, 5, 7 }, { 260, 260, 4, 4 },
    };
    for (size_t k = 0; k < sizeof shapes_f / sizeof shapes_f[0]; k++)
        for (int q = 0; q < N_MASKS; q++)
            test_sdpa_single(shapes_f[k][0], shapes_f[k][1], shapes_f[k][2],
                             shapes_f[k][3], &MASKS[q]);
    test_block_single(&blocks[3]);
    test_block_single(&blocks[6]);
    test_block_single(&blocks[10]);
    test_block_single(&blocks[13]);
    test_rows_single();

    printf("%d passed, %d failed\n", n_passed, n_failed);
    return n_failed ? 1 : 0;
}
