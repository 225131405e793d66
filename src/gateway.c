/* gateway.c: argument checking and packing shared by the MEX gateways, and
 * the one gateway body behind attn_self, attn_masked and attn_cross. */
#define _DEFAULT_SOURCE  /* madvise (huge_pages.h) */
#include "gateway.h"
#include "huge_pages.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>  /* mallopt */
#endif

/* "4x3x2": the dimensions, trailing singletons past the second dropped. */
static const char *dims_text(const gw_dims *dims, char *buf, size_t size)
{
    int last = GW_MAX_DIMS - 1;
    while (last > 1 && dims->dim[last] == 1)
        last--;
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k <= last && used < size; k++)
        used += (size_t) snprintf(buf + used, size - used, k ? "x%ld" : "%ld",
                                  (long) dims->dim[k]);
    return buf;
}

/* What an argument is, for messages: "a 2x3 single array". */
static const char *describe(const mxArray *a, char *buf, size_t size)
{
    char shape[96];
    gw_dims dims = { 2, { 1, 1, 1, 1, 1, 1, 1, 1 } };
    int nd = (int) mxGetNumberOfDimensions(a);
    const mwSize *dv = mxGetDimensions(a);
    for (int k = 0; k < nd && k < GW_MAX_DIMS; k++)
        dims.dim[k] = (attn_int) dv[k];
    if (nd > GW_MAX_DIMS)
        snprintf(shape, sizeof shape, "%d-dimensional", nd);
    else
        dims_text(&dims, shape, sizeof shape);
    snprintf(buf, size, "a %s %s%s%s", shape,
             mxIsSparse(a) ? "sparse " : "",
             mxIsComplex(a) ? "complex " : "", mxGetClassName(a));
    return buf;
}

static void read_dims(const mxArray *a, const char *name, int max_ndims,
                      gw_dims *dims)
{
    int nd = (int) mxGetNumberOfDimensions(a);
    if (nd > max_ndims) {
        char got[160];
        mexErrMsgIdAndTxt("attention:size",
                          "%s must have at most %d dimensions; got %s",
                          name, max_ndims, describe(a, got, sizeof got));
    }
    const mwSize *dv = mxGetDimensions(a);
    dims->ndims = nd;
    for (int k = 0; k < GW_MAX_DIMS; k++)
        dims->dim[k] = k < nd ? (attn_int) dv[k] : 1;
}

void gw_nargs(int nlhs, int nrhs, int min_in, int max_in, int max_out)
{
    if (nrhs < min_in || nrhs > max_in) {
        if (min_in == max_in)
            mexErrMsgIdAndTxt("attention:nargin",
                              "expects %d input arguments; got %d",
                              min_in, nrhs);
        mexErrMsgIdAndTxt("attention:nargin",
                          "expects %d to %d input arguments; got %d",
                          min_in, max_in, nrhs);
    }
    if (nlhs > max_out)
        mexErrMsgIdAndTxt("attention:nargout",
                          "returns at most %d outputs; %d were requested",
                          max_out, nlhs);
}

const char *gw_class_name(gw_real cls)
{
    return cls == GW_SINGLE ? "single" : "double";
}

gw_real gw_class_of(const mxArray *a, const char *name)
{
    if ((!mxIsDouble(a) && !mxIsSingle(a)) || mxIsComplex(a)
        || mxIsSparse(a)) {
        char got[160];
        mexErrMsgIdAndTxt("attention:type",
                          "%s must be a real full double or single array; "
                          "got %s", name, describe(a, got, sizeof got));
    }
    return mxIsSingle(a) ? GW_SINGLE : GW_DOUBLE;
}

size_t gw_size(gw_real cls)
{
    return cls == GW_SINGLE ? sizeof(float) : sizeof(double);
}

const void *gw_at(const void *base, attn_int offset, gw_real cls)
{
    return (const char *) base + (size_t) offset * gw_size(cls);
}

void *gw_at_out(void *base, attn_int offset, gw_real cls)
{
    return (char *) base + (size_t) offset * gw_size(cls);
}

void *gw_data(const mxArray *a)
{
    return mxIsSingle(a) ? (void *) mxGetSingles(a)
                         : (void *) mxGetDoubles(a);
}

const void *gw_rows_arg(const mxArray *a, const char *name, int max_ndims,
                        gw_dims *dims, gw_real cls)
{
    if ((cls == GW_SINGLE ? !mxIsSingle(a) : !mxIsDouble(a))
        || mxIsComplex(a) || mxIsSparse(a)) {
        char got[160];
        mexErrMsgIdAndTxt("attention:type",
                          "%s must be a real full %s array (the arrays of "
                          "one call are all double or all single); got %s",
                          name, gw_class_name(cls),
                          describe(a, got, sizeof got));
    }
    /* Data before dimensions: Octave 7 leaks the dimensions it cached for
     * an input when its data is fetched afterwards. */
    const void *p = gw_data(a);
    read_dims(a, name, max_ndims, dims);
    return p;
}

const void *gw_finite(const mxArray *a, const char *name, int max_ndims,
                      gw_dims *dims, gw_real cls)
{
    const void *p = gw_rows_arg(a, name, max_ndims, dims, cls);
    const size_t numel = mxGetNumberOfElements(a);
    size_t i = 0;
    if (cls == GW_SINGLE)
        while (i < numel && isfinite(((const float *) p)[i]))
            i++;
    else
        while (i < numel && isfinite(((const double *) p)[i]))
            i++;
    if (i < numel)
        mexErrMsgIdAndTxt("attention:nonfinite",
                          "%s must be finite; element %lu is %g",
                          name, (unsigned long) i + 1,
                          cls == GW_SINGLE ? (double) ((const float *) p)[i]
                                           : ((const double *) p)[i]);
    return p;
}

const unsigned char *gw_logical(const mxArray *a, const char *name,
                                int max_ndims, gw_dims *dims)
{
    if (!mxIsLogical(a) || mxIsSparse(a)) {
        char got[160];
        mexErrMsgIdAndTxt("attention:type",
                          "%s must be a full logical array (true = may "
                          "attend); got %s", name,
                          describe(a, got, sizeof got));
    }
    const unsigned char *p = (const unsigned char *) mxGetLogicals(a);
    read_dims(a, name, max_ndims, dims);
    return p;
}

void gw_expect_as(const char *id, const char *name, const gw_dims *got,
                  const gw_dims *want, const char *what)
{
    for (int k = 0; k < GW_MAX_DIMS; k++) {
        if (got->dim[k] != want->dim[k]) {
            char g[96], w[96];
            mexErrMsgIdAndTxt(id, "%s must be %s (%s); got %s",
                              name, what, dims_text(want, w, sizeof w),
                              dims_text(got, g, sizeof g));
        }
    }
}

void gw_expect(const char *name, const gw_dims *got, const gw_dims *want,
               const char *what)
{
    gw_expect_as("attention:size", name, got, want, what);
}

attn_int gw_pages(const gw_dims *dims, int from)
{
    attn_int pages = 1;
    for (int k = from; k < GW_MAX_DIMS; k++)
        pages *= dims->dim[k];
    return pages;
}

void gw_fits_blas(const char *name, attn_int value)
{
    if (value > 2147483647)
        mexErrMsgIdAndTxt("attention:toolarge",
                          "%s is %ld, more than the 2^31-1 BLAS can index",
                          name, (long) value);
}

void gw_fits_memory(double total, gw_real cls)
{
    static double machine = -1;  /* bytes; asking the kernel is slow */
    const double bytes = (double) gw_size(cls) * total;
    if (machine < 0)
        machine = (double) sysconf(_SC_PHYS_PAGES)
                  * (double) sysconf(_SC_PAGESIZE);
    if (machine > 0 && bytes > machine)
        mexErrMsgIdAndTxt("attention:toolarge",
                          "the result needs %.3g GiB, more than the %.3g GiB "
                          "of memory of this machine", bytes / 1073741824.0,
                          machine / 1073741824.0);
}

void gw_status(int status)
{
    if (status != ATTN_OK)
        mexErrMsgIdAndTxt("attention:overflow",
                          "a result overflowed the range of its type (Inf or "
                          "NaN from finite inputs); scale the inputs down");
}

/* Results from this size on are arrays that Octave makes (gw_new_double):
 * Octave's zeros writes such an array once, where returning one made here
 * would write it twice (here, then Octave's copy) and read it once.  At
 * n = d = 512, h = 8 (scores and A of 16 MiB each) this made the causal block with
 * its trace 11% faster; below 1 MiB the call into Octave costs more than
 * the copy. */
#define OCTAVE_MADE_BYTES ((size_t) 1 << 20)

/* glibc's malloc gives blocks from 128 KiB on (or, once such a block was
 * freed, from its size on up to 32 MiB) pages of their own, and returns
 * the pages to the kernel when they are freed or once 2x that much lies
 * free at the top of the heap.  A training step of the causal block at
 * n = d = 512 then faulted in all of its ~70 MiB of results and
 * workspaces afresh on every call (about 12,000 page faults a step).
 * From the first kernel call on, every block comes from the heap and up
 * to 256 MiB of freed heap stays mapped, so that the next step reuses the
 * pages of the last (no faults after the first step).  Blocks beyond 32
 * MiB (mmap's largest threshold) too: a GPT-2-sized forward pass made its
 * logits and their probabilities (52 MB each) on fresh pages every call,
 * about 25,000 faults.  A process-wide setting of Octave's malloc, made
 * once; freed memory above 256 MiB at the top of the heap still goes back
 * to the kernel. */
static void reuse_freed_pages(void)
{
#ifdef __GLIBC__
    static int done = 0;
    if (done)
        return;
    done = 1;
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

void *gw_workspace(size_t count, gw_real cls)
{
    reuse_freed_pages();
    const size_t bytes = (count > 0 ? count : 1) * gw_size(cls);
    void *work = mxMalloc(bytes);
    advise_huge_pages(work, bytes);
    return work;
}

/* Octave 7 copies every array a MEX function creates, element by element,
 * when the function returns it.  For a long sequence that copy doubled
 * the memory of the trace and, on fresh pages, took most of the time.  An
 * array that Octave made itself (the builtin zeros, through mexCallMATLAB)
 * is returned as it is, so the large results are made that way and
 * filled in place.  Smaller ones are created here and advised onto huge
 * pages: Octave's copy of them mostly lands on reused memory. */
mxArray *gw_new_real(gw_real cls, int ndims, const attn_int *dims)
{
    reuse_freed_pages();
    mwSize d[GW_MAX_DIMS];
    size_t bytes = gw_size(cls);
    for (int k = 0; k < ndims; k++) {
        d[k] = (mwSize) dims[k];
        bytes *= (size_t) dims[k];
    }
    if (bytes < OCTAVE_MADE_BYTES) {
        mxArray *a = mxCreateUninitNumericArray(
            (mwSize) ndims, d, cls == GW_SINGLE ? mxSINGLE_CLASS
                                                : mxDOUBLE_CLASS, mxREAL);
        advise_huge_pages(gw_data(a), bytes);
        return a;
    }
    /* zeros (d1, ..., dn, "double" or "single") */
    mxArray *args[GW_MAX_DIMS + 2], *a = NULL;
    args[0] = mxCreateString("zeros");
    for (int k = 0; k < ndims; k++)
        args[k + 1] = mxCreateDoubleScalar((double) d[k]);
    args[ndims + 1] = mxCreateString(gw_class_name(cls));
    mexCallMATLAB(1, &a, ndims + 2, args, "builtin");
    for (int k = 0; k <= ndims + 1; k++)
        mxDestroyArray(args[k]);
    if ((cls == GW_SINGLE ? !mxIsSingle(a) : !mxIsDouble(a))
        || mxIsComplex(a)
        || mxGetNumberOfElements(a) * gw_size(cls) != bytes)
        mexErrMsgIdAndTxt("attention:internal",
                          "zeros did not return a real %s array of %lu "
                          "bytes", gw_class_name(cls), (unsigned long) bytes);
    return a;
}

/* Octave's copies of arrays are shared until written (copy-on-write), but
 * mxDuplicateArray copies the data here, and Octave copies it once more
 * when the function returns it.  An array that Octave's builtin of its
 * class (double, single, logical, char, struct, ...) returns for itself is
 * Octave's own array, sharing the data of a; a trace that holds the inputs,
 * or a model stepped with the parts it has no gradient for, so costs no
 * copy. */
mxArray *gw_share(const mxArray *a)
{
    mxArray *in[1] = { (mxArray *) a }, *out = NULL;
    mexCallMATLAB(1, &out, 1, in, mxGetClassName(a));
    return out;
}

const mxArray *gw_field(const mxArray *s, const char *sname,
                        const char *field)
{
    const mxArray *f = mxGetField(s, 0, field);
    if (f == NULL)
        mexErrMsgIdAndTxt("attention:field", "%s has no field '%s'",
                          sname, field);
    return f;
}

/* ---- attn_sdpa operands ------------------------------------------------ */

gw_dims gw_sdpa_shape(const gw_sdpa *op, attn_int cols)
{
    gw_dims dims = op->q_dims;
    dims.dim[0] = op->n;
    dims.dim[1] = cols;
    return dims;
}

void gw_sdpa_operands(const mxArray *Q, const mxArray *K, const mxArray *V,
                      gw_real cls, gw_sdpa *op)
{
    gw_dims dk, dv, want;
    op->cls = cls;
    op->Q = gw_finite(Q, "Q", GW_MAX_DIMS, &op->q_dims, op->cls);
    op->K = gw_finite(K, "K", GW_MAX_DIMS, &dk, op->cls);
    op->V = gw_finite(V, "V", GW_MAX_DIMS, &dv, op->cls);
    op->n = op->q_dims.dim[0];
    op->dk = op->q_dims.dim[1];
    op->m = dk.dim[0];
    op->dv = dv.dim[1];
    op->pages = gw_pages(&op->q_dims, 2);

    /* tokens are rows: a width that disagrees is named in plain words,
     * and a query given as a column is told so */
    if (dk.dim[1] != op->dk) {
        char q[96], k[96];
        dims_text(&op->q_dims, q, sizeof q);
        dims_text(&dk, k, sizeof k);
        if (op->dk == 1 && op->n == dk.dim[1])
            mexErrMsgIdAndTxt("attention:size",
                              "Q is a column (%s), but queries are rows: one "
                              "query of width %ld is a 1x%ld row (Q = q'), to "
                              "match the keys, the rows of K (%s)", q,
                              (long) op->n, (long) op->n, k);
        mexErrMsgIdAndTxt("attention:size",
                          "Q and K must have the same number of columns (dk, "
                          "the width of a query and of a key; tokens are "
                          "rows); Q is %s, K is %s", q, k);
    }
    want = op->q_dims;
    want.dim[0] = op->m;
    gw_expect("K", &dk, &want,
              "m x dk with the trailing dimensions of Q (one page per "
              "head and batch item)");
    want.dim[1] = op->dv;
    gw_expect("V", &dv, &want,
              "m x dv, as many rows as K, with the trailing dimensions of Q");
    if (op->dk == 0)
        mexErrMsgIdAndTxt("attention:size", "Q and K must have at least one "
                          "column (dk >= 1: scores are scaled by 1/sqrt(dk))");
    gw_fits_blas("n", op->n);
    gw_fits_blas("m", op->m);
    gw_fits_blas("dk", op->dk);
    gw_fits_blas("dv", op->dv);
}

void gw_return(int nlhs, mxArray *plhs[], int n, mxArray *results[])
{
    for (int k = 0; k < n; k++) {
        if (k < nlhs || k == 0)
            plhs[k] = results[k];
        else
            mxDestroyArray(results[k]);
    }
}

/* ---- the row-wise maps ------------------------------------------------- */


const void *gw_width_row(const mxArray *a, const char *name, attn_int d,
                         gw_real cls)
{
    gw_dims got;
    const void *p = gw_rows_arg(a, name, 2, &got, cls);
    const gw_dims want = { 2, { 1, d, 1, 1, 1, 1, 1, 1 } };
    gw_expect(name, &got, &want, "1 x d, d the columns of the rows");
    return p;
}

gw_dims gw_with_cols(const gw_dims *rows, attn_int cols)
{
    gw_dims d = *rows;
    if (d.ndims < 2)
        d.ndims = 2;
    d.dim[1] = cols;
    return d;
}

void gw_product_shape(const gw_dims *dw, attn_int a, attn_int c,
                      attn_int rows, const char *what)
{
    const gw_dims want_w = { 2, { a, c, 1, 1, 1, 1, 1, 1 } };
    gw_expect("W", dw, &want_w, what);
    gw_fits_blas("rows", rows);
    gw_fits_blas("a", a);
    gw_fits_blas("c", c);
}

/* ---- the block struct -------------------------------------------------- */

static void expect_2d(const char *name, const gw_dims *got, attn_int rows,
                      attn_int cols, const char *what)
{
    gw_dims want = { 2, { rows, cols, 1, 1, 1, 1, 1, 1 } };
    gw_expect(name, got, &want, what);
}

/* Tokens are rows: when the rows of an input X equal the rows of the
 * weight W that multiplies it but its columns do not, X was most likely
 * passed with tokens as columns. */
static void tokens_are_rows(const gw_rows *x, const char *w_name,
                            const gw_dims *wd)
{
    if (x->dims->dim[0] == wd->dim[0] && x->dims->dim[1] != wd->dim[0]) {
        char g[96];
        mexErrMsgIdAndTxt("attention:size",
                          "%s is %s and %s has %ld rows: tokens are rows, so "
                          "%s must be n x %ld (one token of width %ld per "
                          "row); %s looks transposed: pass %s' (for a batch, "
                          "permute (%s, [2 1 3]))",
                          x->name, dims_text(x->dims, g, sizeof g), w_name,
                          (long) wd->dim[0], x->name, (long) wd->dim[0],
                          (long) wd->dim[0], x->name, x->name, x->name);
    }
}

/* [] (double or logical) stands for "none" in the optional arguments */
static int given(const mxArray *a)
{
    return a != NULL && !(mxIsEmpty(a) && (mxIsDouble(a) || mxIsLogical(a)));
}

/* A count of B (heads, kv_heads): a positive integer scalar, or an
 * attention:heads error. */
static attn_int head_count(const mxArray *a, const char *name)
{
    char got[160];
    const double h = mxIsNumeric(a) && !mxIsComplex(a) && !mxIsSparse(a)
                     && mxGetNumberOfElements(a) == 1 ? mxGetScalar(a) : 0.0;
    if (!(h >= 1 && h <= 2147483647.0 && h == floor(h))) {
        if (mxIsDouble(a) && !mxIsComplex(a) && !mxIsSparse(a)
            && mxGetNumberOfElements(a) == 1)
            snprintf(got, sizeof got, "%.15g", mxGetScalar(a));
        else
            describe(a, got, sizeof got);
        mexErrMsgIdAndTxt("attention:heads",
                          "%s must be a positive integer scalar; got %s",
                          name, got);
    }
    return (attn_int) h;
}

/* An optional bias of B: NULL when the field is absent or [], else a
 * finite 1 x cols row. */
static const void *block_bias(const mxArray *B, const char *field,
                              attn_int cols, const char *what, gw_real cls)
{
    const mxArray *f = mxGetField(B, 0, field);
    if (!given(f))
        return NULL;
    char name[16];
    gw_dims got;
    snprintf(name, sizeof name, "B.%s", field);
    const void *p = gw_finite(f, name, 2, &got, cls);
    expect_2d(name, &got, 1, cols, what);
    return p;
}

/* B.rope_base: 0 when absent or [], else a finite scalar > 0 on a self
 * or masked block whose dk is even (attention:rope otherwise). */
static double rope_base(const mxArray *B, int cross, attn_int dk)
{
    const mxArray *f = mxGetField(B, 0, "rope_base");
    if (!given(f))
        return 0.0;
    char got[160];
    const double base = mxIsDouble(f) && !mxIsComplex(f) && !mxIsSparse(f)
                        && mxGetNumberOfElements(f) == 1 ? mxGetScalar(f)
                                                         : 0.0;
    if (!(base > 0 && isfinite(base))) {
        if (mxIsDouble(f) && !mxIsComplex(f) && !mxIsSparse(f)
            && mxGetNumberOfElements(f) == 1)
            snprintf(got, sizeof got, "%.15g", base);
        else
            describe(f, got, sizeof got);
        mexErrMsgIdAndTxt("attention:rope",
                          "B.rope_base must be a finite double scalar > 0 "
                          "(e.g. 10000), or [] for no rotary positions; "
                          "got %s", got);
    }
    if (cross)
        mexErrMsgIdAndTxt("attention:rope",
                          "B.rope_base is for self and masked blocks: a "
                          "cross block's keys are source rows, not "
                          "positions of the queries' sequence (remove the "
                          "field or set it to [])");
    if (dk % 2 != 0)
        mexErrMsgIdAndTxt("attention:rope",
                          "B.rope_base turns pairs of entries of each head: "
                          "dk (the columns of B.W_Q per head) must be even; "
                          "got dk = %ld", (long) dk);
    return base;
}

void gw_block(const mxArray *B, const gw_rows *q, const gw_rows *kv,
              int cross, gw_real cls, gw_weights *w, attn_shape *s)
{
    const attn_int d = q->dims->dim[1], d_src = kv->dims->dim[1];
    char got[160];
    if (!mxIsStruct(B) || mxGetNumberOfElements(B) != 1)
        mexErrMsgIdAndTxt("attention:type",
                          "block B must be a 1x1 struct with fields W_Q, W_K, "
                          "W_V, W_O, heads; got %s",
                          describe(B, got, sizeof got));

    s->heads = head_count(gw_field(B, "block B", "heads"), "B.heads");
    const mxArray *kv_field = mxGetField(B, 0, "kv_heads");
    const int grouped = given(kv_field);
    s->kv_heads = grouped ? head_count(kv_field, "B.kv_heads") : s->heads;
    if (s->heads % s->kv_heads != 0)
        mexErrMsgIdAndTxt("attention:heads",
                          "B.kv_heads = %ld must divide B.heads = %ld (each "
                          "K/V head serves heads/kv_heads query heads)",
                          (long) s->kv_heads, (long) s->heads);

    /* The weights are not scanned here: a weight holding NaN or Inf makes
     * every row of Q, K, V or out non-finite (IEEE: NaN and Inf survive a
     * product even by 0), which the core checks, and gw_block_status then
     * names the weight.  The scan read as much memory as the products
     * themselves: for one row of a d = 768 model, 15% of a decoding step. */
    gw_dims dq, dk, dv, dout;
    const void **p = w->array;
    p[0] = gw_rows_arg(gw_field(B, "block B", "W_Q"), "B.W_Q", 2, &dq, cls);
    p[1] = gw_rows_arg(gw_field(B, "block B", "W_K"), "B.W_K", 2, &dk, cls);
    p[2] = gw_rows_arg(gw_field(B, "block B", "W_V"), "B.W_V", 2, &dv, cls);
    p[3] = gw_rows_arg(gw_field(B, "block B", "W_O"), "B.W_O", 2, &dout, cls);

    const attn_int hk = dq.dim[1], hv_kv = dv.dim[1];
    tokens_are_rows(q, "B.W_Q", &dq);
    tokens_are_rows(kv, "B.W_K", &dk);
    tokens_are_rows(kv, "B.W_V", &dv);
    expect_2d("B.W_Q", &dq, d, hk, "d x h*dk, d the width of the query rows");
    if (hk == 0)
        mexErrMsgIdAndTxt("attention:size", "B.W_Q and B.W_K must have at "
                          "least one column per head (dk >= 1: scores are "
                          "scaled by 1/sqrt(dk))");
    if (hk % s->heads != 0 || hv_kv % s->kv_heads != 0)
        mexErrMsgIdAndTxt("attention:heads",
                          grouped ? "B.heads = %ld must divide the %ld "
                                    "columns of B.W_Q and B.kv_heads = %ld "
                                    "the %ld columns of B.W_V"
                                  : "B.heads = %ld must divide the %ld "
                                    "columns of B.W_Q and the %ld columns "
                                    "of B.W_V",
                          (long) s->heads, (long) hk,
                          grouped ? (long) s->kv_heads : (long) hv_kv,
                          (long) hv_kv);
    s->dk = hk / s->heads;
    s->dv = hv_kv / s->kv_heads;
    const attn_int hk_kv = s->kv_heads * s->dk, hv = s->heads * s->dv;
    expect_2d("B.W_K", &dk, d_src, hk_kv, grouped
              ? "d_src x kv_heads*dk, d_src the width of the key/value rows "
                "and dk the columns of B.W_Q per head"
              : "d_src x h*dk, d_src the width of the key/value rows and "
                "h*dk the columns of B.W_Q");
    expect_2d("B.W_V", &dv, d_src, hv_kv,
              "d_src x h*dv, d_src the width of the key/value rows");
    expect_2d("B.W_O", &dout, hv, d, grouped
              ? "h*dv x d, dv the columns of B.W_V per K/V head and d the "
                "width of the query rows"
              : "h*dv x d, h*dv the columns of B.W_V and d the width of the "
                "query rows");
    p[4] = block_bias(B, "b_Q", hk, "1 x h*dk, a row as wide as B.W_Q",
                      cls);
    p[5] = block_bias(B, "b_K", hk_kv, "1 x h_kv*dk, a row as wide as "
                      "B.W_K", cls);
    p[6] = block_bias(B, "b_V", hv_kv, "1 x h_kv*dv, a row as wide as "
                      "B.W_V", cls);
    p[7] = block_bias(B, "b_O", d, "1 x d, a row as wide as B.W_O", cls);
    if (cls == GW_SINGLE) {
        const attn_weights_f typed = { p[0], p[1], p[2], p[3],
                                       p[4], p[5], p[6], p[7] };
        w->f = typed;
    } else {
        const attn_weights typed = { p[0], p[1], p[2], p[3],
                                     p[4], p[5], p[6], p[7] };
        w->d = typed;
    }
    s->rope_base = rope_base(B, cross, s->dk);
    s->d = d;
    s->d_src = d_src;
    gw_fits_blas("h*dk", hk);
    gw_fits_blas("h*dv", hv);
    gw_fits_blas("d", d);
    gw_fits_blas("d_src", d_src);
}

void gw_block_status(int status, const gw_input *inputs, int count,
                     const mxArray *B, const mxArray *cache, gw_real cls)
{
    static const char *weights[4] = { "W_Q", "W_K", "W_V", "W_O" };
    if (status == ATTN_OK)
        return;
    gw_dims got;
    for (int i = 0; i < count; i++)
        if (inputs[i].array != NULL)
            gw_finite(inputs[i].array, inputs[i].name, GW_MAX_DIMS, &got,
                      cls);
    for (int i = 0; i < 4; i++) {
        char name[8];
        snprintf(name, sizeof name, "B.%s", weights[i]);
        gw_finite(mxGetField(B, 0, weights[i]), name, 2, &got, cls);
    }
    if (given(cache)) {
        gw_finite(mxGetField(cache, 0, "K"), "cache.K", 3, &got, cls);
        gw_finite(mxGetField(cache, 0, "V"), "cache.V", 3, &got, cls);
    }
    gw_status(status);
}

/* ---- attn_self, attn_masked, attn_cross ---------------------------------- */

static const char *kind_name(block_kind kind)
{
    return kind == BLOCK_SELF ? "self" : kind == BLOCK_MASKED ? "masked"
                                                              : "cross";
}

/* The trace a block call returns, chosen by the optional mode after
 * key_allow. */
typedef enum {
    TRACE_FULL,   /* "full" (the default): every array, out shared with Y */
    TRACE_LEAN,   /* "lean": what attn_backward reads, and delta */
    TRACE_STEP    /* "step": K, V (the next step's cache) and delta */
} trace_kind;

static trace_kind trace_mode(const mxArray *a)
{
    static const char *names[3] = { "full", "lean", "step" };
    char word[16] = "";
    if (mxIsChar(a) && mxGetNumberOfElements(a) < sizeof word
        && mxGetString(a, word, sizeof word) == 0)
        for (int k = 0; k < 3; k++)
            if (strcmp(word, names[k]) == 0)
                return (trace_kind) k;
    char got[160];
    if (mxIsChar(a) && mxGetNumberOfElements(a) < 64) {
        char text[64];
        mxGetString(a, text, sizeof text);
        snprintf(got, sizeof got, "\"%s\"", text);
    } else
        describe(a, got, sizeof got);
    mexErrMsgIdAndTxt("attention:option",
                      "the trace mode after key_allow must be \"full\", "
                      "\"lean\" or \"step\"; got %s", got);
    return TRACE_FULL;
}

/* The optional K/V cache after the mode: [] or a struct with K (past x
 * h_kv*dk x Bt) and V (past x h_kv*dv x Bt), the keys and values of the rows
 * before the key rows given (the trace T of the call before will do).
 * Sets s->past (0 without a cache). */
static void kv_cache(const mxArray *a, attn_shape *s, gw_real cls,
                     const void **K, const void **V)
{
    *K = *V = NULL;
    s->past = 0;
    if (!given(a))
        return;
    if (!mxIsStruct(a) || mxGetNumberOfElements(a) != 1) {
        char got[160];
        mexErrMsgIdAndTxt("attention:type",
                          "the K/V cache after the mode must be [] or a 1x1 "
                          "struct with fields K and V; got %s",
                          describe(a, got, sizeof got));
    }
    gw_dims dk, dv;     /* NaN and Inf: the core checks K and V, past rows too */
    *K = gw_rows_arg(gw_field(a, "the K/V cache", "K"), "cache.K", 3, &dk,
                     cls);
    *V = gw_rows_arg(gw_field(a, "the K/V cache", "V"), "cache.V", 3, &dv,
                     cls);
    s->past = dk.dim[0];
    gw_dims want = { 3, { s->past, s->kv_heads * s->dk, s->batch,
                          1, 1, 1, 1, 1 } };
    gw_expect("cache.K", &dk, &want,
              "past x h_kv*dk x Bt, h_kv*dk the columns of B.W_K and Bt "
              "the batch size");
    want.dim[1] = s->kv_heads * s->dv;
    gw_expect("cache.V", &dv, &want,
              "past x h_kv*dv x Bt, past the rows of cache.K");
}

/* A block's trace for the core of the call's type. */
typedef union {
    attn_trace d;    /* GW_DOUBLE */
    attn_trace_f f;  /* GW_SINGLE */
} block_trace;

/* The trace arrays of a block call, in the order of attn_trace. */
enum { BLOCK_PARTS = 7, P_K = 1, P_V = 2, P_SCORES = 3, P_WEIGHTS = 4,
       P_DELTA = 6 };
static const char *part_names[BLOCK_PARTS] = {
    "Q", "K", "V", "scores", "A", "message", "delta" };

/* Whether a trace of the given mode returns part i. */
static int returns_part(trace_kind mode, int i)
{
    switch (mode) {
    case TRACE_LEAN:
        return i != P_SCORES;
    case TRACE_STEP:
        return i == P_K || i == P_V || i == P_DELTA;
    default:
        return 1;
    }
}

/* The memory policy of a block call, in one place.  Checks the total
 * against the machine's memory, then: the parts the trace T returns
 * (want_trace; returns_part of its mode) are result
 * arrays (gw_new_double, so large ones are made by Octave and filled in
 * place), and so is Y; the parts T does not return live in the call's one
 * workspace, after the kernel's own part; the scores share the weights'
 * array when T has no scores (the softmax then runs in place).  Sets
 * parts[i] (NULL for a part T does not return), *Y and every pointer of
 * t; returns the workspace (mxFree it after the kernel). */
static void *block_memory(const attn_shape *s, gw_real cls, int cross,
                          int want_trace, trace_kind mode,
                          const mxArray *cache_kv,
                          mxArray *parts[BLOCK_PARTS], mxArray **Y,
                          block_trace *t)
{
    const attn_int n = s->n, m = s->m, h = s->heads, Bt = s->batch;
    const attn_int hk = h * s->dk, hv = h * s->dv, d = s->d;
    const attn_int hk_kv = s->kv_heads * s->dk, hv_kv = s->kv_heads * s->dv;
    const size_t kernel_work = attn_block_forward_work(s);
    gw_fits_memory((double) Bt * ((double) n * hk + (double) m * hk_kv
                                  + (double) m * hv_kv + 2.0 * n * m * h
                                  + (double) n * hv + 3.0 * n * d
                                  + (cross ? (double) m * s->d_src : 0.0))
                   + (double) kernel_work, cls);
    const attn_int part_dims[BLOCK_PARTS][4] = {
        { n, hk, Bt }, { m, hk_kv, Bt }, { m, hv_kv, Bt }, { n, m, h, Bt },
        { n, m, h, Bt }, { n, hv, Bt }, { n, d, Bt } };
    void *buf[BLOCK_PARTS + 1];   /* the parts, then out (Y) */
    size_t numel[BLOCK_PARTS], in_work = 0;
    int placed[BLOCK_PARTS] = { 0 };
    for (int i = 0; i < BLOCK_PARTS; i++) {
        const int nd = i == P_SCORES || i == P_WEIGHTS ? 4 : 3;
        numel[i] = 1;
        for (int k = 0; k < nd; k++)
            numel[i] *= (size_t) part_dims[i][k];
        parts[i] = NULL;
        if (cache_kv != NULL && (i == P_K || i == P_V)) {
            /* read only: the core writes no K or V row when none is new */
            const mxArray *a = mxGetField(cache_kv, 0, i == P_K ? "K" : "V");
            buf[i] = gw_data(a);
            if (want_trace)
                parts[i] = gw_share(a);
            placed[i] = 1;
        } else if (want_trace && returns_part(mode, i)) {
            parts[i] = gw_new_real(cls, nd, part_dims[i]);
            buf[i] = gw_data(parts[i]);
            placed[i] = 1;
        } else if (i != P_SCORES)
            in_work += numel[i];
    }
    void *work = gw_workspace(kernel_work + in_work, cls);
    attn_int next = (attn_int) kernel_work;  /* entries into work */
    for (int i = 0; i < BLOCK_PARTS; i++)
        if (!placed[i] && i != P_SCORES) {
            buf[i] = gw_at_out(work, next, cls);
            next += (attn_int) numel[i];
        }
    if (parts[P_SCORES] == NULL)
        buf[P_SCORES] = buf[P_WEIGHTS];
    *Y = gw_new_real(cls, 3, part_dims[P_DELTA]);
    buf[BLOCK_PARTS] = gw_data(*Y);
    if (cls == GW_SINGLE) {
        const attn_trace_f f = { buf[0], buf[1], buf[2], buf[3], buf[4],
                                 buf[5], buf[6], buf[7] };
        t->f = f;
    } else {
        const attn_trace d = { buf[0], buf[1], buf[2], buf[3], buf[4],
                               buf[5], buf[6], buf[7] };
        t->d = d;
    }
    return work;
}

void gw_block_forward(block_kind kind, int nlhs, mxArray *plhs[],
                      int nrhs, const mxArray *prhs[])
{
    const int cross = kind == BLOCK_CROSS;
    const int b_arg = cross ? 2 : 1;  /* position of B, then key_allow */
    gw_nargs(nlhs, nrhs, b_arg + 1, b_arg + 4, 2);
    const trace_kind mode = nrhs > b_arg + 2 ? trace_mode(prhs[b_arg + 2])
                                             : TRACE_FULL;
    gw_dims dq, dkv, dmask;
    const char *q_name = cross ? "D" : "X";
    const gw_real cls = gw_class_of(prhs[0], q_name);
    const void *Xq = gw_rows_arg(prhs[0], q_name, 3, &dq, cls);
    const void *Xkv = Xq;
    dkv = dq;
    if (cross) {
        Xkv = gw_rows_arg(prhs[1], "E", 3, &dkv, cls);
        gw_dims want = dkv;
        want.dim[2] = dq.dim[2];
        gw_expect("E", &dkv, &want, "m x d_src x Bt, Bt the batch size of D");
    }

    attn_shape s;
    gw_weights w;
    const gw_rows q_rows = { q_name, &dq }, kv_rows = { cross ? "E" : "X",
                                                       &dkv };
    gw_block(prhs[b_arg], &q_rows, &kv_rows, cross, cls, &w, &s);
    s.n = dq.dim[0];
    s.batch = dq.dim[2];
    s.causal = kind == BLOCK_MASKED;
    const void *past_K, *past_V;
    const mxArray *cache = nrhs > b_arg + 3 ? prhs[b_arg + 3] : NULL;
    kv_cache(cache, &s, cls, &past_K, &past_V);
    s.m = s.past + dkv.dim[0];
    gw_fits_blas("n", s.n);
    gw_fits_blas("m", s.m);

    const unsigned char *key_allow = NULL;
    const mxArray *mask_arg = nrhs > b_arg + 1 ? prhs[b_arg + 1] : NULL;
    const int has_mask = given(mask_arg);
    if (has_mask) {
        key_allow = gw_logical(mask_arg, "key_allow", 2, &dmask);
        gw_dims want = { 2, { s.m, s.batch, 1, 1, 1, 1, 1, 1 } };
        gw_expect_as("attention:mask", "key_allow", &dmask, &want,
                     "m x Bt, one column per batch item (true = real "
                     "token)");
    }

    const attn_int m = s.m, h = s.heads, Bt = s.batch;
    const attn_int hk_kv = s.kv_heads * s.dk, hv_kv = s.kv_heads * s.dv;
    const int want_trace = nlhs > 1;
    mxArray *parts[BLOCK_PARTS] = { NULL }, *Y;
    block_trace t;
    /* no key rows besides the cache's (a cross-attention step after the
     * first): K and V are the cache's arrays, not copies */
    const int cache_is_kv = s.past > 0 && dkv.dim[0] == 0;
    void *work = block_memory(&s, cls, cross, want_trace, mode,
                              cache_is_kv ? cache : NULL, parts, &Y, &t);
    if (s.past > 0 && !cache_is_kv && cls == GW_SINGLE) {
        attn_put_past_f(s.past, m, hk_kv, Bt, past_K, t.f.K);
        attn_put_past_f(s.past, m, hv_kv, Bt, past_V, t.f.V);
    } else if (s.past > 0 && !cache_is_kv) {
        attn_put_past(s.past, m, hk_kv, Bt, past_K, t.d.K);
        attn_put_past(s.past, m, hv_kv, Bt, past_V, t.d.V);
    }

    const int status =
        cls == GW_SINGLE
            ? attn_block_forward_f(&s, &w.f, Xq, Xkv, key_allow, &t.f, work)
            : attn_block_forward(&s, &w.d, Xq, Xkv, key_allow, &t.d, work);
    mxFree(work);
    const gw_input inputs[2] = { { prhs[0], q_name }, { prhs[1], "E" } };
    gw_block_status(status, inputs, cross ? 2 : 1, prhs[b_arg], cache, cls);

    plhs[0] = Y;
    if (!want_trace)
        return;

    /* kind, heads, the inputs, key_allow, then the parts T holds and out
     * (only the full trace has out) */
    const char *fields[16];
    int nf = 0;
    fields[nf++] = "kind";
    fields[nf++] = "heads";
    fields[nf++] = q_name;
    if (cross)
        fields[nf++] = "E";
    fields[nf++] = "key_allow";
    for (int i = 0; i < BLOCK_PARTS; i++)
        if (parts[i] != NULL)
            fields[nf++] = part_names[i];
    if (mode == TRACE_FULL)
        fields[nf++] = "out";
    mxArray *T = mxCreateStructMatrix(1, 1, nf, fields);
    mxSetField(T, 0, "kind", mxCreateString(kind_name(kind)));
    mxSetField(T, 0, "heads", mxCreateDoubleScalar((double) h));
    mxSetField(T, 0, q_name, gw_share(prhs[0]));
    if (cross)
        mxSetField(T, 0, "E", gw_share(prhs[1]));
    mxSetField(T, 0, "key_allow",
               has_mask ? gw_share(mask_arg) : mxCreateLogicalMatrix(0, 0));
    for (int i = 0; i < BLOCK_PARTS; i++)
        if (parts[i] != NULL)
            mxSetField(T, 0, part_names[i], parts[i]);
    if (mode == TRACE_FULL)
        mxSetField(T, 0, "out", gw_share(Y));
    plhs[1] = T;
}
