/* bench_core: the C core alone (no Octave, no MEX interface) on the large
 * case of bench_kernels.m, a causal masked block with n = 512, d = 512,
 * h = 8, dk = dv = 64, forward + backward, against the dgemm rate of the
 * same BLAS in the same run.  Built and run by `make bench`; the gap to
 * the MEX figures of bench_kernels.m is what Octave's interface costs. */
#define _POSIX_C_SOURCE 199309L  /* clock_gettime */
#include "attention_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

extern void dgemm_(const char *transa, const char *transb,
                   const int *m, const int *n, const int *k,
                   const double *alpha, const double *a, const int *lda,
                   const double *b, const int *ldb,
                   const double *beta, double *c, const int *ldc);

enum { RUNS = 15 };

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

/* n doubles, uniform in [-0.05, 0.05], every page touched */
static double *filled(size_t n)
{
    double *p = malloc(n * sizeof(double));
    if (p == NULL) {
        fprintf(stderr, "bench_core: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        p[i] = 0.1 * ((double) rand() / RAND_MAX - 0.5);
    return p;
}

/* Fastest of RUNS products C = A*B of rows x inner times inner x cols. */
static double gemm_seconds(int rows, int cols, int inner)
{
    double *A = filled((size_t) rows * inner), *B = filled((size_t) inner * cols);
    double *C = filled((size_t) rows * cols), best = 1e30;
    const double one = 1.0, zero = 0.0;
    for (int r = 0; r < RUNS; r++) {
        double t0 = seconds();
        dgemm_("N", "N", &rows, &cols, &inner, &one, A, &rows, B, &inner,
               &zero, C, &rows);
        double t = seconds() - t0;
        best = t < best ? t : best;
    }
    free(A);
    free(B);
    free(C);
    return best;
}

int main(void)
{
    const attn_int n = 512, d = 512, h = 8, dk = 64;
    attn_shape s = { n, n, d, d, dk, dk, h, 1, 1, 0, 0, 0.0 };
    double *W_Q = filled(d * h * dk), *W_K = filled(d * h * dk);
    double *W_V = filled(d * h * dk), *W_O = filled(h * dk * d);
    attn_weights w = { W_Q, W_K, W_V, W_O, NULL, NULL, NULL, NULL };
    double *X = filled(n * d), *dY = filled(n * d);
    attn_trace t = { filled(n * h * dk), filled(n * h * dk),
                     filled(n * h * dk), filled(n * n * h), filled(n * n * h),
                     filled(n * h * dk), filled(n * d), filled(n * d) };
    attn_grads g = { filled(d * h * dk), filled(d * h * dk),
                     filled(d * h * dk), filled(h * dk * d), filled(n * d),
                     NULL, NULL, NULL, NULL, NULL };
    g.dXkv = g.dXq;
    double *work_f = filled(attn_block_forward_work(&s));
    double *work_b = filled(attn_block_backward_work(&s));

    /* the flop count of bench_kernels.m: d-sized products in full, the
     * per-head products over the causal half */
    const double P = 2.0 * n * d * h * dk, pairs = n * (n + 1) / 2.0;
    const double flops_big = 12 * P, flops_head = 6 * 2 * pairs * dk * h;
    const double flops = flops_big + flops_head;

    double best_f = 1e30, best_b = 1e30;
    for (int r = 0; r < RUNS; r++) {
        double t0 = seconds();
        if (attn_block_forward(&s, &w, X, X, NULL, &t, work_f) != ATTN_OK)
            return 1;
        double t1 = seconds();
        if (attn_block_backward(&s, &w, X, X, &t, dY, &g, work_b) != ATTN_OK)
            return 1;
        double t2 = seconds();
        best_f = t1 - t0 < best_f ? t1 - t0 : best_f;
        best_b = t2 - t1 < best_b ? t2 - t1 : best_b;
    }
    const double rate_big = 2.0 * 512 * 512 * 512 / gemm_seconds(512, 512, 512);
    const double rate_head = 2.0 * 512 * 64 * 512 / gemm_seconds(512, 512, 64);
    const double ideal = flops_big / rate_big + flops_head / rate_head;
    const double total = best_f + best_b;

    printf("C core alone, causal masked block n = 512, d = 512, h = 8, "
           "dk = dv = 64 (fastest of %d)\n", RUNS);
    printf("dgemm: 512x512x512 %.1f GFLOP/s, 512x512x64 %.1f GFLOP/s\n",
           rate_big / 1e9, rate_head / 1e9);
    printf("forward %.4f s, backward %.4f s, total %.4f s: %.2f GFLOP/s, "
           "%.0f%% of dgemm 512^3, %.0f%% of the mixed dgemm ideal\n",
           best_f, best_b, total, flops / total / 1e9,
           100 * flops / total / rate_big, 100 * ideal / total);

    free(W_Q); free(W_K); free(W_V); free(W_O);
    free(X); free(dY);
    free(t.Q); free(t.K); free(t.V); free(t.scores); free(t.A);
    free(t.message); free(t.delta); free(t.out);
    free(g.W_Q); free(g.W_K); free(g.W_V); free(g.W_O); free(g.dXq);
    free(work_f); free(work_b);
    return 0;
}
