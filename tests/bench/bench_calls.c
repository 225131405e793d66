/* bench_calls: how many dgemm calls the C core makes for one block
 * forward + backward, and how long they take, on the train-demo shape
 * (d = 64, 4 heads, batch 64, n = 10) and on the long causal block
 * (n = d = 512, h = 8, batch 1).  Every dgemm_ call of the core lands in
 * the counting dgemm_ below, which times it and passes it on to the BLAS
 * the program is linked with.  Built and run by `make bench`. */
#define _GNU_SOURCE  /* RTLD_NEXT, clock_gettime */
#include "attention_core.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef void gemm_fn(const char *, const char *, const int *, const int *,
                     const int *, const double *, const double *, const int *,
                     const double *, const int *, const double *, double *,
                     const int *);

static long calls;
static double gemm_time;

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

void dgemm_(const char *ta, const char *tb, const int *m, const int *n,
            const int *k, const double *alpha, const double *a,
            const int *lda, const double *b, const int *ldb,
            const double *beta, double *c, const int *ldc)
{
    static gemm_fn *blas = NULL;
    if (blas == NULL) {
        blas = (gemm_fn *) dlsym(RTLD_NEXT, "dgemm_");
        if (blas == NULL) {
            fprintf(stderr, "bench_calls: no dgemm_ in the BLAS\n");
            exit(1);
        }
    }
    const double t0 = seconds();
    blas(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    gemm_time += seconds() - t0;
    calls++;
}

/* n doubles, uniform in [-0.05, 0.05] */
static double *filled(size_t n)
{
    double *p = malloc((n > 0 ? n : 1) * sizeof(double));
    if (p == NULL) {
        fprintf(stderr, "bench_calls: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        p[i] = 0.1 * ((double) rand() / RAND_MAX - 0.5);
    return p;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

/* One block, forward + backward, `runs` times: self-attention (causal or
 * not) when m = 0, else cross-attention from m key/value rows of width d.
 * Prints the median time of one pass and the dgemm calls and time of one
 * pass. */
static void run(const char *what, attn_int n, attn_int m, attn_int d,
                attn_int h, attn_int batch, int causal, int runs)
{
    const attn_int dk = d / h, hk = d, keys = m > 0 ? m : n;
    attn_shape s = { n, keys, d, d, dk, dk, h, batch, causal, 0, 0, 0.0 };
    attn_weights w = { filled(d * hk), filled(d * hk), filled(d * hk),
                       filled(hk * d), NULL, NULL, NULL, NULL };
    const size_t rows = (size_t) n * batch;
    const size_t kv_rows = (size_t) keys * batch;
    double *X = filled(rows * d), *dY = filled(rows * d);
    double *E = m > 0 ? filled(kv_rows * d) : X;
    attn_trace t = { filled(rows * hk), filled(kv_rows * hk),
                     filled(kv_rows * hk), filled(rows * keys * h),
                     filled(rows * keys * h), filled(rows * hk),
                     filled(rows * d), filled(rows * d) };
    attn_grads g = { filled(d * hk), filled(d * hk), filled(d * hk),
                     filled(hk * d), filled(rows * d), NULL, NULL, NULL,
                     NULL, NULL };
    g.dXkv = m > 0 ? filled(kv_rows * d) : g.dXq;
    double *work_f = filled(attn_block_forward_work(&s));
    double *work_b = filled(attn_block_backward_work(&s));
    double *times = malloc((size_t) runs * sizeof(double));

    long calls_one = 0;
    double gemm_one = 0.0;
    for (int r = 0; r < runs; r++) {
        calls = 0;
        gemm_time = 0.0;
        const double t0 = seconds();
        if (attn_block_forward(&s, &w, X, E, NULL, &t, work_f) != ATTN_OK
            || attn_block_backward(&s, &w, X, E, &t, dY, &g, work_b)
               != ATTN_OK) {
            fprintf(stderr, "bench_calls: overflow\n");
            exit(1);
        }
        times[r] = seconds() - t0;
        calls_one = calls;
        gemm_one = r == 0 || gemm_time < gemm_one ? gemm_time : gemm_one;
    }
    qsort(times, (size_t) runs, sizeof(double), by_value);
    printf("%-34s fwd+bwd %8.3f ms (median of %d); %5ld dgemm calls, "
           "%7.3f ms in dgemm (fastest), %6.2f us a call\n", what,
           1e3 * times[runs / 2], runs, calls_one, 1e3 * gemm_one,
           1e6 * gemm_one / (double) calls_one);

    free((void *) w.W_Q); free((void *) w.W_K); free((void *) w.W_V);
    free((void *) w.W_O);
    if (m > 0) {
        free(E);
        free(g.dXkv);
    }
    free(X); free(dY);
    free(t.Q); free(t.K); free(t.V); free(t.scores); free(t.A);
    free(t.message); free(t.delta); free(t.out);
    free(g.W_Q); free(g.W_K); free(g.W_V); free(g.W_O); free(g.dXq);
    free(work_f); free(work_b); free(times);
}

int main(int argc, char **argv)
{
    /* bench_calls [RUNS [small]]: "small" skips the long block (for
     * valgrind --tool=callgrind) */
    const int runs = argc > 1 && atoi(argv[1]) > 0 ? atoi(argv[1]) : 21;
    run("train-demo self n 10 d 64 h 4 B 64", 10, 0, 64, 4, 64, 0, runs);
    run("train-demo masked n 10 d 64 h 4 B 64", 10, 0, 64, 4, 64, 1, runs);
    run("train-demo cross n 10 m 12 ...", 10, 12, 64, 4, 64, 0, runs);
    if (argc < 3)
        run("causal n = d = 512, h = 8, B 1", 512, 0, 512, 8, 1, 1,
            runs > 5 ? 5 : runs);
    return 0;
}
