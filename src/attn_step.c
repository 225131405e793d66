/* attn_step: MEX gateway for one fused optimiser step; help in attn_step.m.
 *   m = attn_step (m, G, lr)                                     SGD
 *   [m, mom, vel] = attn_step (m, G, lr, mom, vel, beta1, beta2, epsilon, t)
 * The learned arrays are the numeric leaves of the gradient struct G, depth
 * first in field order (struct arrays element by element): the order of
 * mom and vel.  Each leaf is read, updated and written in one pass; the
 * rest of m (config, vocabularies, arrays without a gradient) is kept as
 * it is, shared with m. */
#include "gateway.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The arithmetic is the core's: attn_sgd_step and attn_adam_step. */

/* ---- the walk over m and G ----------------------------------------- */

typedef struct {
    int adam;
    gw_real cls;             /* the class of every gradient, array and moment */
    attn_adam_hyper h;
    double lr;
    const void *mo, *ve;     /* total entries each, NULL for zeros */
    void *mo_out, *ve_out;   /* total entries each */
    attn_int at;             /* leaves done so far: the offset in mo, ve */
    attn_int total;          /* numel of mo and vel (Adam) */
} step_state;

/* path grows as the walk descends: "decoder(1).cross.W_Q" */
enum { PATH_LEN = 256 };

static int same_size(const mxArray *a, const mxArray *b)
{
    const mwSize na = mxGetNumberOfDimensions(a);
    if (na != mxGetNumberOfDimensions(b))
        return 0;
    return memcmp(mxGetDimensions(a), mxGetDimensions(b),
                  (size_t) na * sizeof(mwSize)) == 0;
}

static int real_double(const mxArray *a)
{
    return mxIsDouble(a) && !mxIsComplex(a) && !mxIsSparse(a);
}

/* A real full array of the class cls. */
static int real_of(const mxArray *a, gw_real cls)
{
    return (cls == GW_SINGLE ? mxIsSingle(a) : mxIsDouble(a))
           && !mxIsComplex(a) && !mxIsSparse(a);
}


/* An array without a gradient (config, vocabularies, a block's heads), as
 * it is: arrays of Octave's own classes and structs come back from
 * Octave's builtin of their class (double, char, struct, ...) sharing
 * their data (copy-on-write), where a copy made here would be copied once
 * more when the function returns (the vocabularies' words: 0.8 of 2.4 ms
 * a train-demo step); a cell's contents are kept one by one, anything
 * else copied. */
static mxArray *keep_plain(const mxArray *a)
{
    if (mxIsCell(a)) {
        const size_t n = mxGetNumberOfElements(a);
        if (n > 0)
            (void) mxGetCell(a, 0);   /* the contents first (see step_leaf) */
        mxArray *c = mxCreateCellArray(mxGetNumberOfDimensions(a),
                                       mxGetDimensions(a));
        for (size_t k = 0; k < n; k++) {
            const mxArray *x = mxGetCell(a, k);
            if (x != NULL)
                mxSetCell(c, k, keep_plain(x));
        }
        return c;
    }
    if (mxIsNumeric(a) || mxIsChar(a) || mxIsLogical(a) || mxIsStruct(a))
        return gw_share(a);
    return mxDuplicateArray(a);
}

/* The new value of a leaf w of m with gradient g at path. */
static mxArray *step_leaf(const mxArray *w, const mxArray *g,
                          const char *path, step_state *st)
{
    const gw_real cls = st->cls;
    if (!real_of(g, cls))
        mexErrMsgIdAndTxt("attention:type",
                          "G.%s must be a real %s array (a gradient; the "
                          "gradients of one step are all double or all "
                          "single)", path, gw_class_name(cls));
    /* the data first, then the sizes: Octave 7 loses an input's cached
     * dimensions when reaching the contents converts the input
     * (tests/valgrind/octave.supp) */
    const void *gd = gw_data(g);
    const void *wd = w != NULL && real_of(w, cls) ? gw_data(w) : NULL;
    if (wd == NULL || !same_size(w, g))
        mexErrMsgIdAndTxt("attention:type",
                          "G.%s must be the gradient of an array M.%s of "
                          "its size and class (real %s)", path, path,
                          gw_class_name(cls));
    const attn_int n = (attn_int) mxGetNumberOfElements(g);
    mxArray *out = mxCreateUninitNumericArray(
        mxGetNumberOfDimensions(w), (mwSize *) mxGetDimensions(w),
        mxGetClassID(w), mxREAL);
    void *wo = gw_data(out);
    if (n == 0)
        return out;
    if (!st->adam) {
        if (cls == GW_SINGLE)
            attn_sgd_step_f(n, wd, gd, st->lr, wo);
        else
            attn_sgd_step(n, wd, gd, st->lr, wo);
        return out;
    }
    if (st->at + n > st->total)
        mexErrMsgIdAndTxt("attention:size",
                          "mom and vel must hold one entry per gradient "
                          "entry (%ld); G has more", (long) st->total);
    void *mo_out = gw_at_out(st->mo_out, st->at, cls);
    void *ve_out = gw_at_out(st->ve_out, st->at, cls);
    const void *mo = mo_out, *ve = ve_out;
    if (st->mo == NULL) {
        /* first step: the moments start at zero */
        memset(mo_out, 0, (size_t) n * gw_size(cls));
        memset(ve_out, 0, (size_t) n * gw_size(cls));
    } else {
        mo = gw_at(st->mo, st->at, cls);
        ve = gw_at(st->ve, st->at, cls);
    }
    if (cls == GW_SINGLE)
        attn_adam_step_f(n, wd, mo, ve, gd, &st->h, wo, mo_out, ve_out);
    else
        attn_adam_step(n, wd, mo, ve, gd, &st->h, wo, mo_out, ve_out);
    st->at += n;
    return out;
}

/* m's struct (array) ms after the step with the gradient struct gs: the
 * same fields and size; fields G has are stepped, the others kept. */
static mxArray *step_struct(const mxArray *ms, const mxArray *gs,
                            char *path, step_state *st);

static mxArray *step_value(const mxArray *w, const mxArray *g, char *path,
                           step_state *st)
{
    if (mxIsStruct(g))
        return step_struct(w, g, path, st);
    return step_leaf(w, g, path, st);
}

static mxArray *step_struct(const mxArray *ms, const mxArray *gs,
                            char *path, step_state *st)
{
    const size_t len = strlen(path);
    const size_t count = mxGetNumberOfElements(gs);
    if (ms == NULL || !mxIsStruct(ms) || mxGetNumberOfElements(ms) != count)
        mexErrMsgIdAndTxt("attention:type",
                          "G.%s must be the gradient of a struct M.%s of %ld "
                          "elements", path, path, (long) count);
    const int nf = mxGetNumberOfFields(ms), ng = mxGetNumberOfFields(gs);
    for (int j = 0; j < ng; j++)
        if (mxGetFieldNumber(ms, mxGetFieldNameByNumber(gs, j)) < 0)
            mexErrMsgIdAndTxt("attention:type",
                              "G.%s%s%s has no array in M", path,
                              len ? "." : "", mxGetFieldNameByNumber(gs, j));
    const char **names = mxCalloc((size_t) nf + 1, sizeof *names);
    for (int i = 0; i < nf; i++)
        names[i] = mxGetFieldNameByNumber(ms, i);
    mxArray *out = mxCreateStructArray(mxGetNumberOfDimensions(ms),
                                       mxGetDimensions(ms), nf, names);
    /* elements, then fields in G's order: the order of mom and vel */
    for (size_t k = 0; k < count; k++) {
        for (int j = 0; j < ng; j++) {
            const char *name = mxGetFieldNameByNumber(gs, j);
            if (count > 1)
                snprintf(path + len, PATH_LEN - len, "(%ld).%s",
                         (long) k + 1, name);
            else
                snprintf(path + len, PATH_LEN - len, "%s%s",
                         len ? "." : "", name);
            mxSetField(out, k, name,
                       step_value(mxGetField(ms, k, name),
                                  mxGetField(gs, k, name), path, st));
            path[len] = '\0';
        }
        for (int i = 0; i < nf; i++)
            if (mxGetFieldNumber(gs, names[i]) < 0) {
                const mxArray *x = mxGetFieldByNumber(ms, k, i);
                if (x != NULL)
                    mxSetFieldByNumber(out, k, i, keep_plain(x));
            }
    }
    mxFree(names);
    return out;
}

static double scalar_arg(const mxArray *a, const char *name)
{
    if (!real_double(a) || mxGetNumberOfElements(a) != 1)
        mexErrMsgIdAndTxt("attention:type", "%s must be a real scalar",
                          name);
    return mxGetScalar(a);
}

/* mom or vel: [] or a real column of total entries of the class cls */
static const void *moment_arg(const mxArray *a, const char *name,
                              attn_int total, gw_real cls)
{
    if (mxIsEmpty(a) && mxIsDouble(a))
        return NULL;
    if (!real_of(a, cls) || mxGetN(a) != 1
        || (attn_int) mxGetM(a) != total)
        mexErrMsgIdAndTxt("attention:size",
                          "%s must be [] or a real column of %ld entries "
                          "(one per gradient entry; %s, as the gradients)",
                          name, (long) total, gw_class_name(cls));
    return gw_data(a);
}

/* The class of the first numeric leaf of a gradient struct (depth first,
 * as the walk): single makes the step single; double otherwise. */
static gw_real leaf_class(const mxArray *g)
{
    if (!mxIsStruct(g))
        return mxIsSingle(g) ? GW_SINGLE : GW_DOUBLE;
    const size_t count = mxGetNumberOfElements(g);
    const int nf = mxGetNumberOfFields(g);
    for (size_t k = 0; k < count; k++)
        for (int i = 0; i < nf; i++) {
            const mxArray *x = mxGetFieldByNumber(g, k, i);
            if (x != NULL && (!mxIsStruct(x) || mxGetNumberOfElements(x)))
                return leaf_class(x);
        }
    return GW_DOUBLE;
}

/* entries of the numeric leaves of a gradient struct */
static attn_int count_leaves(const mxArray *g)
{
    if (!mxIsStruct(g))
        return (attn_int) mxGetNumberOfElements(g);
    attn_int n = 0;
    const size_t count = mxGetNumberOfElements(g);
    const int nf = mxGetNumberOfFields(g);
    for (size_t k = 0; k < count; k++)
        for (int i = 0; i < nf; i++) {
            const mxArray *x = mxGetFieldByNumber(g, k, i);
            if (x != NULL)
                n += count_leaves(x);
        }
    return n;
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    if (nrhs != 3 && nrhs != 9)
        mexErrMsgIdAndTxt("attention:nargin",
                          "expects 3 (SGD) or 9 (Adam) input arguments; "
                          "got %d", nrhs);
    gw_nargs(nlhs, nrhs, 3, 9, nrhs == 3 ? 1 : 3);
    const mxArray *m = prhs[0], *G = prhs[1];
    if (!mxIsStruct(m) || mxGetNumberOfElements(m) != 1)
        mexErrMsgIdAndTxt("attention:type", "M must be a scalar struct");
    if (!mxIsStruct(G) || mxGetNumberOfElements(G) != 1)
        mexErrMsgIdAndTxt("attention:type",
                          "G must be a scalar struct of gradients");
    step_state st;
    memset(&st, 0, sizeof st);
    mxArray *results[3];   /* m, then Adam's mom and vel */
    st.lr = scalar_arg(prhs[2], "lr");
    st.cls = leaf_class(G);
    if (nrhs == 9) {
        st.adam = 1;
        const double beta1 = scalar_arg(prhs[5], "beta1");
        const double beta2 = scalar_arg(prhs[6], "beta2");
        const double epsilon = scalar_arg(prhs[7], "epsilon");
        const double t = scalar_arg(prhs[8], "t");
        if (!(t >= 1.0) || t != floor(t))
            mexErrMsgIdAndTxt("attention:type",
                              "t must be the step count, an integer >= 1");
        st.h = attn_adam_at(st.lr, beta1, beta2, epsilon, t);
        st.total = count_leaves(G);
        st.mo = moment_arg(prhs[3], "mom", st.total, st.cls);
        st.ve = moment_arg(prhs[4], "vel", st.total, st.cls);
        if ((st.mo == NULL) != (st.ve == NULL))
            mexErrMsgIdAndTxt("attention:size",
                              "mom and vel must both be [] or both hold "
                              "the moments");
        gw_fits_memory(2.0 * (double) st.total, st.cls);
        results[1] = gw_new_real(st.cls, 2, (attn_int[]) { st.total, 1 });
        results[2] = gw_new_real(st.cls, 2, (attn_int[]) { st.total, 1 });
        st.mo_out = gw_data(results[1]);
        st.ve_out = gw_data(results[2]);
    }
    char path[PATH_LEN] = "";
    results[0] = step_struct(m, G, path, &st);
    gw_return(nlhs, plhs, st.adam ? 3 : 1, results);
}
