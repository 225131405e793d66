/* gateway.h: argument checking and packing shared by the MEX gateways.
 * Every check raises an `attention:<what>` error naming the argument, what
 * was expected and what was given; nothing here does arithmetic on data. */
#ifndef ATTENTION_GATEWAY_H
#define ATTENTION_GATEWAY_H

#include "mex.h"
#include "attention_core.h"

/* The three attention blocks: one gateway serves them all. */
typedef enum { BLOCK_SELF, BLOCK_MASKED, BLOCK_CROSS } block_kind;

/* Most dimensions an array of the package has: rows, columns and up to
 * this many trailing (page or batch) dimensions. */
enum { GW_MAX_DIMS = 8 };

typedef struct {
    int ndims;                    /* >= 2 */
    attn_int dim[GW_MAX_DIMS];    /* dim[k] = 1 past ndims */
} gw_dims;

void gw_nargs(int nlhs, int nrhs, int min_in, int max_in, int max_out);

/* The type of a call's arrays: all double, or all single (the core's
 * kernels with the suffix _f).  Set by the call's first numeric array;
 * any other array of the other class is an attention:type error. */
typedef enum { GW_DOUBLE = 0, GW_SINGLE = 1 } gw_real;

/* The class of a, which must be a real full double or single array
 * (attention:type otherwise). */
gw_real gw_class_of(const mxArray *a, const char *name);

/* "double" or "single", for messages. */
const char *gw_class_name(gw_real cls);

/* Bytes of one entry of the type. */
size_t gw_size(gw_real cls);

/* base + offset entries of the type (pages of an array). */
const void *gw_at(const void *base, attn_int offset, gw_real cls);
void *gw_at_out(void *base, attn_int offset, gw_real cls);

/* The data of a double or single array. */
void *gw_data(const mxArray *a);

/* A real, full, finite array of the call's class cls, of at most
 * max_ndims dimensions. */
const void *gw_finite(const mxArray *a, const char *name, int max_ndims,
                      gw_dims *dims, gw_real cls);

/* A logical array of at most max_ndims dimensions. */
const unsigned char *gw_logical(const mxArray *a, const char *name,
                                int max_ndims, gw_dims *dims);

/* Raise attention:size unless dims match want (ndims entries compared,
 * later entries must be 1). `what` describes the expected shape. */
void gw_expect(const char *name, const gw_dims *got, const gw_dims *want,
               const char *what);
/* The same with another identifier (attention:mask for masks). */
void gw_expect_as(const char *id, const char *name, const gw_dims *got,
                  const gw_dims *want, const char *what);

/* Product of dims[from..GW_MAX_DIMS-1]: the number of pages. */
attn_int gw_pages(const gw_dims *dims, int from);

/* Raise attention:toolarge when a BLAS dimension passes 2^31-1 or the
 * arrays to allocate (total entries of the type) exceed the machine's
 * memory. */
void gw_fits_blas(const char *name, attn_int value);
void gw_fits_memory(double total, gw_real cls);

/* Raise attention:overflow unless status is ATTN_OK. */
void gw_status(int status);

/* The one workspace of a call, count entries of the type long (mxMalloc:
 * freed by Octave if an error unwinds the call). */
void *gw_workspace(size_t count, gw_real cls);

/* An uninitialised array of the type with dims: the core writes every
 * entry. */
mxArray *gw_new_real(gw_real cls, int ndims, const attn_int *dims);

/* An input of rows (tokens) by name, for messages. */
typedef struct {
    const char *name;     /* "X", "D", "E", "T.X", ... */
    const gw_dims *dims;  /* n x width x Bt */
} gw_rows;

/* The block's arrays, and the core's struct of the call's type. */
enum { GW_W_Q, GW_W_K, GW_W_V, GW_W_O, GW_B_Q, GW_B_K, GW_B_V, GW_B_O,
       GW_WEIGHTS };
typedef struct {
    const void *array[GW_WEIGHTS];  /* in that order; NULL: no bias */
    attn_weights d;                 /* GW_DOUBLE */
    attn_weights_f f;               /* GW_SINGLE */
} gw_weights;

/* The block struct: checks fields, classes, finiteness (of the biases:
 * the four weights are scanned by gw_block_status, and only when the core
 * failed) and every width against the widths of the query rows q and the
 * key/value rows kv; a weight whose rows match the rows of its input
 * instead of its width is reported as an input given with tokens as
 * columns.  The optional fields (absent or [] = off): biases b_Q, b_K,
 * b_V, b_O, kv_heads, rope_base (refused on a cross block).  Every array
 * has the class cls.  Sets every field of w and the heads, kv_heads, dk,
 * dv, d, d_src and rope_base of s. */
void gw_block(const mxArray *B, const gw_rows *q, const gw_rows *kv,
              int cross, gw_real cls, gw_weights *w, attn_shape *s);

/* An input array of a block kernel and its name in messages. */
typedef struct {
    const mxArray *array;
    const char *name;
} gw_input;

/* After the core ran on a block B read by gw_block: unless status is
 * ATTN_OK, the attention:nonfinite error of the first of the call's
 * inputs (count of them, in the order given; a NULL array is skipped),
 * the weights of B and the arrays of the K/V cache (or NULL) that holds
 * NaN or Inf, else attention:overflow (gw_status).  The inputs (the rows,
 * and for the backward dY and the trace's arrays) are read with
 * gw_rows_arg and scanned only here: the core checks its results, and an
 * entry that is NaN or Inf makes every product it enters NaN or Inf, even
 * a product by 0. */
void gw_block_status(int status, const gw_input *inputs, int count,
                     const mxArray *B, const mxArray *cache, gw_real cls);

/* The array a (numeric, char, logical or struct: a class with a builtin
 * of its name) as a new array sharing its data (copy-on-write), for a
 * result that holds an input as it is. */
mxArray *gw_share(const mxArray *a);

/* A field of a struct, or an attention:field error. */
const mxArray *gw_field(const mxArray *s, const char *sname,
                        const char *field);

/* Q, K, V of attn_sdpa and attn_sdpa_backward: Q n x dk x P..., K m x dk x
 * P..., V m x dv x P..., the same trailing (page) dimensions. */
typedef struct {
    gw_real cls;   /* the call's class, which Q, K and V have */
    const void *Q, *K, *V;
    gw_dims q_dims;
    attn_int n, m, dk, dv, pages;
} gw_sdpa;

void gw_sdpa_operands(const mxArray *Q, const mxArray *K, const mxArray *V,
                      gw_real cls, gw_sdpa *op);

/* dims of an n x cols array with the pages of op: a result of attn_sdpa. */
gw_dims gw_sdpa_shape(const gw_sdpa *op, attn_int cols);

/* Returns the first max(nlhs, 1) of the n results (Octave gives plhs room
 * for those only) and destroys the others. */
void gw_return(int nlhs, mxArray *plhs[], int n, mxArray *results[]);

/* ---- the row-wise maps (attn_rows, attn_layernorm and their backward) */

/* A real full array of the class cls of at most max_ndims dimensions, any
 * values (Inf and NaN pass through the row-wise maps as in X*W). */
const void *gw_rows_arg(const mxArray *a, const char *name, int max_ndims,
                        gw_dims *dims, gw_real cls);

/* A 1 x d row (gain, bias) of the class cls for rows of width d. */
const void *gw_width_row(const mxArray *a, const char *name, attn_int d,
                         gw_real cls);

/* dims of an n x cols x P... array with the pages of `rows` */
gw_dims gw_with_cols(const gw_dims *rows, attn_int cols);

/* W must be a x c (`what` says which side fixes it), and every dimension
 * of the product must fit BLAS's integers. */
void gw_product_shape(const gw_dims *dw, attn_int a, attn_int c,
                      attn_int rows, const char *what);

/* Shared body of attn_self, attn_masked and attn_cross. */
void gw_block_forward(block_kind kind, int nlhs, mxArray *plhs[],
                      int nrhs, const mxArray *prhs[]);

#endif
