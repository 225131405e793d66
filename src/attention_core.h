/* attention_core.h: the attention kernels on plain column-major double or
 * single arrays.  No Octave or MEX types here: the MEX gateways (attn_*.c)
 * validate and unpack their arguments, then call these functions.
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

/* Workspace, in entries of the arrays' type, for attn_sdpa_forward. */
size_t attn_sdpa_forward_work(attn_int n, attn_int m);

/* Workspace, in entries of the arrays' type, for attn_sdpa_backward. */
size_t attn_sdpa_backward_work(attn_int n, attn_int m);

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

size_t attn_block_forward_work(const attn_shape *s);

size_t attn_block_backward_work(const attn_shape *s);

/* ---- rows times a matrix (attn_rows) ------------------------------------ */

/* Workspace, in entries of the arrays' type, for attn_rows_forward /
 * attn_rows_backward. */
size_t attn_rows_forward_work(attn_int n, attn_int a, attn_int c,
                              attn_int pages);
size_t attn_rows_backward_work(attn_int n, attn_int a, attn_int c,
                               attn_int pages);

/* Workspace, in entries of the arrays' type, for attn_layernorm_backward
 * on rows of n x d x pages. */
size_t attn_layernorm_backward_work(attn_int n);

/* ---- optimiser steps (attn_step) ---------------------------------------- */

/* Adam's hyperparameters at step t (t >= 1): bias1 = 1 - beta1^t,
 * bias2 = 1 - beta2^t. */
typedef struct {
    double lr, beta1, beta2, epsilon;
    double bias1, bias2;
} attn_adam_hyper;

attn_adam_hyper attn_adam_at(double lr, double beta1, double beta2,
                             double epsilon, double t);

/* The kernels on double arrays (attn_sdpa_forward, ...) and on single
 * arrays (attn_sdpa_forward_f, ...): one declaration of each. */
#define ATTN_REAL double
#define ATTN_NAME(x) x
#include "attention_core_real.h"
#undef ATTN_REAL
#undef ATTN_NAME
#define ATTN_REAL float
#define ATTN_NAME(x) x##_f
#include "attention_core_real.h"
#undef ATTN_REAL
#undef ATTN_NAME

#endif
