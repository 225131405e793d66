/* __model_fits__: whether a model (and a gradient) passes check_model, in
 * one pass over its arrays in place.
 *   ok = __model_fits__ (m, names, parts, nodes, ref)
 *   ok = __model_fits__ (m, names, parts, nodes, ref, G)
 * Called only by inst/private/check_model.m, which builds the schema's
 * description (fits_spec there) once per config and, on false, runs its
 * own checks, which raise the errors: this function answers yes or no and
 * raises none but for a malformed description (attention:internal).
 *
 * names  the field names of the paths, one char row, separated by spaces
 * parts  one column a part of the schema:
 *        [kind; learned; rows; cols; value; sub; sub; ...]
 *        kind 1: a real full array of the model's class (that of the
 *        first kind-1 part: double or single), 2: a config number (a real
 *        double rows×cols array equal to value); learned 1: G holds its
 *        gradient (G given); a sub > 0 is the field names{sub}, < 0 the
 *        element -sub of the struct array reached, 0 ends the path
 * nodes  one column a struct on the learned parts' paths (the top first):
 *        [count; fields; sub; ...]: in G it has count elements and,
 *        unless fields is -1, that many fields; fields -1 marks a stack
 *        of layers, which m holds with count elements too
 * ref    [] or a model that passed before (its config, src_vocab,
 *        tgt_vocab, and maybe its arrays): with ref, m's config must equal
 *        ref's (the same field names in order, each value of the same
 *        class, size and bytes) and its vocabularies have ref's specials
 *        and word counts; an array of m that is ref's own (the same class,
 *        size and data: the same memory, which ref, kept by the caller,
 *        holds, so that copy-on-write kept it unchanged) is not read again
 * G      the gradient: every learned part there, of the model's class and
 *        the part's size, all finite, and no struct of more fields or
 *        elements than nodes says
 * ok is true when every part is in m as described and every number of m
 * (and G) is finite: NaN and Inf fail.
 *
 * Data before dimensions, as in the gateways: Octave 7 leaks the
 * dimensions it cached for an input whose data it converts afterwards. */
#include "mex.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_NAMES = 4096, MAX_TEXT = 1 << 16, FIRST_SUB = 5, NODE_SUB = 2 };

typedef struct {
    char text[MAX_TEXT];        /* the names row, split in place */
    const char *name[MAX_NAMES];
    int count;
} names_t;

static void bad_spec(const char *what)
{
    mexErrMsgIdAndTxt("attention:internal", "malformed schema description: %s",
                      what);
}

/* A real full double matrix of at least min_rows rows. */
static const double *spec_matrix(const mxArray *a, mwSize min_rows,
                                 mwSize *rows, mwSize *cols, const char *what)
{
    if (!mxIsDouble(a) || mxIsComplex(a) || mxIsSparse(a))
        bad_spec(what);
    const double *p = mxGetDoubles(a);
    if (mxGetNumberOfDimensions(a) != 2)
        bad_spec(what);
    *rows = mxGetM(a);
    *cols = mxGetN(a);
    if (*cols > 0 && *rows < min_rows)
        bad_spec(what);
    return p;
}

/* An integer in lo..2^53. */
static int integer(double x, double lo)
{
    return x >= lo && x <= 9007199254740992.0 && x == (double) (long long) x;
}

/* The subs of a path (n entries, 0 ends them early): fields within
 * names, an element only after a field, the last a field unless
 * may_end_indexed. */
static void check_path(const double *sub, mwSize n, const names_t *nm,
                       int may_end_indexed, const char *what)
{
    mwSize len = 0;
    while (len < n && sub[len] != 0)
        len++;
    for (mwSize i = len; i < n; i++)
        if (sub[i] != 0)
            bad_spec(what);
    for (mwSize i = 0; i < len; i++)
        if (!integer(sub[i], -2147483648.0) || sub[i] > nm->count
            || (sub[i] < 0 && (i == 0 || sub[i - 1] < 0)))
            bad_spec(what);
    if (len > 0 && sub[len - 1] < 0 && !may_end_indexed)
        bad_spec(what);
}

/* Where a path leads in s: the struct array *at and its element *k (a
 * field's value is element 0 of a 1×1 "array" of its own: *k = -1);
 * 0 when the path is not there. */
static int reach(const mxArray *s, const double *sub, mwSize n,
                 const names_t *nm, const mxArray **at, mwIndex *k)
{
    mwIndex e = 0;
    int indexed = 0;
    for (mwSize i = 0; i < n && sub[i] != 0; i++) {
        if (s == NULL || !mxIsStruct(s))
            return 0;
        if (sub[i] < 0) {
            e = (mwIndex) (-sub[i]) - 1;
            if ((size_t) e >= mxGetNumberOfElements(s))
                return 0;
            indexed = 1;
        } else {
            if (!indexed && mxGetNumberOfElements(s) != 1)
                return 0;
            s = mxGetField(s, indexed ? e : 0, nm->name[(int) sub[i] - 1]);
            e = 0;
            indexed = 0;
        }
    }
    if (s == NULL)
        return 0;
    *at = s;
    *k = indexed ? e : (mwIndex) -1;
    return 1;
}

/* The array at a part's path, when it is a real full array of class
 * cls (mxDOUBLE_CLASS or mxSINGLE_CLASS) of rows×cols: its data, with
 * *there 1; else NULL (*there 0).  An empty array has data NULL. */
static const void *part_array(const mxArray *s, const double *sub, mwSize n,
                              const names_t *nm, mxClassID cls, double rows,
                              double cols, int *there)
{
    const mxArray *a;
    mwIndex k;
    *there = 0;
    if (!reach(s, sub, n, nm, &a, &k) || k != (mwIndex) -1
        || mxGetClassID(a) != cls || mxIsComplex(a) || mxIsSparse(a))
        return NULL;
    const void *p = cls == mxSINGLE_CLASS ? (const void *) mxGetSingles(a)
                                          : (const void *) mxGetDoubles(a);
    if (mxGetNumberOfDimensions(a) != 2 || (double) mxGetM(a) != rows
        || (double) mxGetN(a) != cols || (p == NULL && rows * cols > 0))
        return NULL;
    *there = 1;
    return p;
}

/* 1 when no element is NaN or Inf: x - x is 0 for a finite x and NaN
 * otherwise, summed in four chains and looked at every block. */
#define FINITE_FN(NAME, T)                                                   \
    static int NAME(const T *x, size_t n)                                    \
    {                                                                        \
        enum { BLOCK = 4096 };                                               \
        for (size_t i = 0; i < n;) {                                         \
            const size_t end = n - i < BLOCK ? n : i + BLOCK;                \
            T s0 = 0, s1 = 0, s2 = 0, s3 = 0;                                \
            for (; i + 4 <= end; i += 4) {                                   \
                s0 += x[i] - x[i];                                           \
                s1 += x[i + 1] - x[i + 1];                                   \
                s2 += x[i + 2] - x[i + 2];                                   \
                s3 += x[i + 3] - x[i + 3];                                   \
            }                                                                \
            for (; i < end; i++)                                             \
                s0 += x[i] - x[i];                                           \
            if (!(s0 + s1 + s2 + s3 == 0))                                   \
                return 0;                                                    \
        }                                                                    \
        return 1;                                                            \
    }
FINITE_FN(finite_double, double)
FINITE_FN(finite_single, float)

static int finite(const void *p, size_t n, mxClassID cls)
{
    return n == 0 || (cls == mxSINGLE_CLASS ? finite_single(p, n)
                                            : finite_double(p, n));
}

/* The same value: both plain arrays (char, logical, double or single,
 * real, full) of one class, size and bytes. */
static int same_value(const mxArray *a, const mxArray *b)
{
    if (a == NULL || b == NULL)
        return 0;
    const mxClassID c = mxGetClassID(a);
    if (c != mxGetClassID(b) || mxIsComplex(a) || mxIsComplex(b)
        || mxIsSparse(a) || mxIsSparse(b)
        || !(c == mxCHAR_CLASS || c == mxLOGICAL_CLASS || c == mxDOUBLE_CLASS
             || c == mxSINGLE_CLASS))
        return 0;
    const void *pa = mxGetData(a), *pb = mxGetData(b);
    const mwSize nd = mxGetNumberOfDimensions(a);
    if (nd != mxGetNumberOfDimensions(b)
        || memcmp(mxGetDimensions(a), mxGetDimensions(b), nd * sizeof(mwSize)))
        return 0;
    const size_t bytes = mxGetNumberOfElements(a) * mxGetElementSize(a);
    return bytes == 0 || (pa != NULL && pb != NULL && memcmp(pa, pb, bytes) == 0);
}

/* The field name of a scalar struct s, or NULL. */
static const mxArray *field_of(const mxArray *s, const char *name)
{
    return mxIsStruct(s) && mxGetNumberOfElements(s) == 1
               ? mxGetField(s, 0, name) : NULL;
}

/* m's config and vocabularies as ref's: what check_model's memo key
 * says of them (the vocabularies' specials and word counts). */
static int same_config(const mxArray *m, const mxArray *ref)
{
    const mxArray *a = field_of(m, "config"), *b = field_of(ref, "config");
    if (a == NULL || b == NULL || !mxIsStruct(a) || !mxIsStruct(b)
        || mxGetNumberOfElements(a) != 1 || mxGetNumberOfElements(b) != 1)
        return 0;
    const int nf = mxGetNumberOfFields(a);
    if (nf != mxGetNumberOfFields(b))
        return 0;
    for (int f = 0; f < nf; f++)
        if (strcmp(mxGetFieldNameByNumber(a, f), mxGetFieldNameByNumber(b, f))
            || !same_value(mxGetFieldByNumber(a, 0, f),
                           mxGetFieldByNumber(b, 0, f)))
            return 0;
    static const char *const vocab[2] = {"src_vocab", "tgt_vocab"};
    static const char *const special[4] = {"pad", "unk", "bos", "eos"};
    for (int v = 0; v < 2; v++) {
        const mxArray *va = field_of(m, vocab[v]), *vb = field_of(ref, vocab[v]);
        const mxArray *wa = field_of(va, "words"), *wb = field_of(vb, "words");
        if (wa == NULL || wb == NULL
            || mxGetNumberOfElements(wa) != mxGetNumberOfElements(wb))
            return 0;
        for (int s = 0; s < 4; s++)
            if (!same_value(field_of(va, special[s]), field_of(vb, special[s])))
                return 0;
    }
    return 1;
}

/* Whether the struct at a node's path in s has count elements and, with
 * check_fields and unless fields < 0, that many fields. */
static int node_fits(const mxArray *s, const double *col, mwSize n,
                     const names_t *nm, int check_fields)
{
    const mxArray *at;
    mwIndex k;
    if (!reach(s, col + NODE_SUB, n, nm, &at, &k) || !mxIsStruct(at))
        return 0;
    const double count = k != (mwIndex) -1 ? 1.0
                                           : (double) mxGetNumberOfElements(at);
    return count == col[0]
           && (!check_fields || col[1] < 0
               || (double) mxGetNumberOfFields(at) == col[1]);
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    if (nrhs < 5 || nrhs > 6 || nlhs > 1)
        mexErrMsgIdAndTxt("attention:internal", "usage: ok = __model_fits__ "
                          "(m, names, parts, nodes, ref [, G])");
    const mxArray *m = prhs[0], *ref = prhs[4];
    const mxArray *G = nrhs == 6 ? prhs[5] : NULL;
    if (!mxIsChar(prhs[1]) || mxGetM(prhs[1]) > 1)
        bad_spec("names must be a char row");
    if (!mxIsStruct(ref) && !mxIsEmpty(ref))
        bad_spec("ref must be [] or a struct");

    /* static: no buffer of ours to free when an error leaves */
    static names_t nm;
    nm.count = 0;
    if (mxGetString(prhs[1], nm.text, MAX_TEXT) != 0)
        bad_spec("names must be a char row shorter than 64 KiB");
    for (char *t = strtok(nm.text, " "); t != NULL; t = strtok(NULL, " ")) {
        if (nm.count == MAX_NAMES)
            bad_spec("too many names");
        nm.name[nm.count++] = t;
    }

    mwSize prow, pcol, nrow, ncol;
    const double *P = spec_matrix(prhs[2], FIRST_SUB + 1, &prow, &pcol, "parts");
    const double *N = spec_matrix(prhs[3], NODE_SUB, &nrow, &ncol, "nodes");
    for (mwSize j = 0; j < pcol; j++) {
        const double *c = P + j * prow;
        if (!(c[0] == 1 || c[0] == 2) || !(c[1] == 0 || c[1] == 1)
            || !integer(c[2], 0) || !integer(c[3], 0) || c[FIRST_SUB] <= 0)
            bad_spec("parts");
        check_path(c + FIRST_SUB, prow - FIRST_SUB, &nm, 0, "parts");
    }
    for (mwSize j = 0; j < ncol; j++) {
        const double *c = N + j * nrow;
        if (!integer(c[0], 1) || !integer(c[1], -1))
            bad_spec("nodes");
        check_path(c + NODE_SUB, nrow - NODE_SUB, &nm, 1, "nodes");
    }

    int ok = mxIsStruct(m) && mxGetNumberOfElements(m) == 1
             && (!mxIsStruct(ref) || same_config(m, ref));
    /* the class of the model: that of its first array */
    mxClassID cls = mxDOUBLE_CLASS;
    for (mwSize j = 0; ok && j < pcol; j++) {
        const double *c = P + j * prow;
        const mxArray *a;
        mwIndex k;
        if (c[0] == 1) {
            if (reach(m, c + FIRST_SUB, prow - FIRST_SUB, &nm, &a, &k)
                && mxIsSingle(a))
                cls = mxSINGLE_CLASS;
            break;
        }
    }
    /* the stacks' sizes, then every array's class and size, the config
     * numbers, and the finite check of what ref does not hold */
    for (mwSize j = 0; ok && j < ncol; j++)
        if (N[j * nrow + 1] < 0)
            ok = node_fits(m, N + j * nrow, nrow - NODE_SUB, &nm, 0);
    for (mwSize j = 0; ok && j < pcol; j++) {
        const double *c = P + j * prow;
        const mwSize n = prow - FIRST_SUB;
        const mxClassID want = c[0] == 2 ? mxDOUBLE_CLASS : cls;
        int there;
        const void *p = part_array(m, c + FIRST_SUB, n, &nm, want, c[2], c[3],
                                   &there);
        const size_t numel = (size_t) c[2] * (size_t) c[3];
        ok = there;
        if (ok && c[0] == 2)
            for (size_t i = 0; ok && i < numel; i++)
                ok = ((const double *) p)[i] == c[4];
        if (ok && mxIsStruct(ref)) {
            int held;
            const void *r = part_array(ref, c + FIRST_SUB, n, &nm, want, c[2],
                                       c[3], &held);
            if (held && r == p && p != NULL)
                continue;
        }
        ok = ok && finite(p, numel, want);
    }
    if (ok && G != NULL) {
        ok = mxIsStruct(G);
        for (mwSize j = 0; ok && j < ncol; j++)
            ok = node_fits(G, N + j * nrow, nrow - NODE_SUB, &nm, 1);
        for (mwSize j = 0; ok && j < pcol; j++) {
            const double *c = P + j * prow;
            if (c[1] != 1)
                continue;
            int there;
            const void *p = part_array(G, c + FIRST_SUB, prow - FIRST_SUB, &nm,
                                       cls, c[2], c[3], &there);
            ok = there && finite(p, (size_t) c[2] * (size_t) c[3], cls);
        }
    }
    plhs[0] = mxCreateLogicalScalar(ok ? 1 : 0);
}
