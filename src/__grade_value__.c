/* __grade_value__: the codec of the grading channel, as a MEX function.
 *   bytes = __grade_value__ ("encode", value)
 *   value = __grade_value__ ("decode", bytes [, max_bytes])
 * Called only by inst/private/grade_value.m, whose help text is the
 * specification of the format, its limits and its errors.  Decoding reads
 * bytes that a student's code may have written: every read is checked
 * against the bytes left, every allocation is charged to max_bytes first,
 * and every failure is an attention:channel error raised after what was
 * built so far has been destroyed.
 *
 * Built with -R2018a, like the package's other MEX files: with the
 * separate complex API, Octave 7.3 converts (copies) every array it owns
 * whose data a MEX function asks for, real ones included (an 8 MB double:
 * 38 ms instead of 15).  Complex data is not read or written here through
 * the interleaved API either: in Octave 7.3, mxGetComplexSingles fails on
 * a single complex input ("mex_get_data: type mismatch"), and a trial that
 * filled a complex array from mxCreateNumericArray through
 * mxGetComplexDoubles aborted with a corrupted heap (not isolated further).
 * Complex values go through the builtins real, imag and complex instead
 * (rare in the channel, and complex also keeps a value whose imaginary
 * parts are all zero complex, which Octave narrows to real when a MEX
 * function returns it).  Octave's mxChar is char (8 bits) and mxLogical
 * unsigned char: both are the format's bytes as they are. */
#define _DEFAULT_SOURCE  /* madvise (huge_pages.h) */
#include "mex.h"
#include "huge_pages.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    MAX_DEPTH = 64,          /* nodes nested at most this deep */
    MAX_DIMS = 32,           /* dimensions of a node: 2 to this */
    MAX_FIELDS = 65535,      /* a struct's field count is a uint16 */
    MAX_NAME = 63,           /* longest field name */
    MIN_NODE = 3 + 2 * 8,    /* fewest bytes of a node: 2 dims, no data */
    HEADER_BYTES = 5,        /* "ATGV", version 1 */
    CODE_LOGICAL = 11,
    CODE_CHAR = 12,
    CODE_CELL = 13,
    CODE_STRUCT = 14,
    NCODES = 14
};
static const uint64_t MAX_DIM = 2147483647u;          /* 2^31 - 1 */
static const uint64_t MAX_ELEMENTS = (uint64_t) 1 << 53;
static const uint8_t MAGIC[HEADER_BYTES] = {'A', 'T', 'G', 'V', 1};

/* The classes by code (code k at index k-1) and the bytes of one element;
 * a cell or struct element counts 8 towards the decoded size. */
static const char *const CLASS_NAME[NCODES] = {
    "double", "single", "int8", "uint8", "int16", "uint16", "int32",
    "uint32", "int64", "uint64", "logical", "char", "cell", "struct"};
static const mxClassID CLASS_ID[NCODES] = {
    mxDOUBLE_CLASS, mxSINGLE_CLASS, mxINT8_CLASS, mxUINT8_CLASS,
    mxINT16_CLASS, mxUINT16_CLASS, mxINT32_CLASS, mxUINT32_CLASS,
    mxINT64_CLASS, mxUINT64_CLASS, mxLOGICAL_CLASS, mxCHAR_CLASS,
    mxCELL_CLASS, mxSTRUCT_CLASS};
static const unsigned ELEMENT_BYTES[NCODES] = {8, 4, 1, 1, 2, 2, 4, 4, 8, 8,
                                               1, 1, 8, 8};

/* An error message, filled by the function that failed; the caller of the
 * outermost function raises it once everything is destroyed. */
typedef struct {
    char text[400];
} message;

static int fail(message *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->text, sizeof m->text, fmt, ap);
    va_end(ap);
    return -1;
}

/* A field name as a valid Octave identifier: an ASCII letter, then
 * letters, digits and underscores, 1 to MAX_NAME bytes. */
static int valid_name(const char *s, size_t len)
{
    if (len < 1 || len > MAX_NAME)
        return 0;
    for (size_t i = 0; i < len; i++) {
        const unsigned char c = (unsigned char) s[i];
        const int letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
        const int digit = c >= '0' && c <= '9';
        if (!letter && (i == 0 || !(digit || c == '_')))
            return 0;
    }
    return 1;
}

/* A bad name for a message: at most 255 bytes, the unprintable ones as
 * '?' (shown: 256 bytes). */
static void printable(const char *s, size_t len, char *shown)
{
    if (len > 255)
        len = 255;
    for (size_t i = 0; i < len; i++) {
        const unsigned char c = (unsigned char) s[i];
        shown[i] = (c < 32 || c > 126) ? '?' : (char) c;
    }
    shown[len] = '\0';
}

static int bad_name(message *m, const char *s, size_t len)
{
    char shown[256];
    printable(s, len, shown);
    return fail(m, "invalid struct field name '%s'", shown);
}

/* Octave 7 copies an array that a MEX function made, element by element,
 * when the function returns it: for an 8 MB uint8 row that took longer
 * than the encoding itself.  An array that Octave made (the builtin
 * zeros, through mexCallMATLAB) is returned as it is, so arrays from this
 * size on are made that way and filled in place. */
#define OCTAVE_MADE_BYTES ((size_t) 1 << 20)

/* A real array of class code (numeric) and dims, zeros, made by Octave. */
static mxArray *octave_zeros(mwSize nd, const mwSize *dims, int code)
{
    mxArray *args[3], *a = NULL;
    args[0] = mxCreateString("zeros");     /* builtin: never a user's zeros */
    args[1] = mxCreateDoubleMatrix(1, nd, mxREAL);
    args[2] = mxCreateString(CLASS_NAME[code - 1]);
    double *d = mxGetDoubles(args[1]);
    size_t n = 1;
    for (mwSize k = 0; k < nd; k++) {
        d[k] = (double) dims[k];
        n *= (size_t) dims[k];
    }
    mexCallMATLAB(1, &a, 3, args, "builtin");
    for (int k = 0; k < 3; k++)
        mxDestroyArray(args[k]);
    if (mxGetClassID(a) != CLASS_ID[code - 1] || mxIsComplex(a)
        || mxGetNumberOfElements(a) != n)
        mexErrMsgIdAndTxt("attention:internal", "zeros did not make a real "
                          "%s array of %zu elements", CLASS_NAME[code - 1], n);
    return a;
}

/* ===================================================================== */
/* Encoding: one pass checks the value and sums its size, a second writes
 * it into the result, made once at its final size. */

/* The code of x's class (1 .. NCODES), or 0 for any other class
 * (function handles, objects: their mxClassID is another). */
static int class_code(const mxArray *x)
{
    const mxClassID id = mxGetClassID(x);
    for (int k = 0; k < NCODES; k++)
        if (id == CLASS_ID[k])
            return k + 1;
    return 0;
}

/* Octave 7 hands a MEX function its inputs as wrappers of Octave values,
 * which it converts to the MEX layout ("mutates") when the data of a
 * cell, struct, complex array, range or diagonal matrix is first asked
 * for.  The conversion loses the class name and dimensions the wrapper
 * cached for mxGetClassName, mxGetNumberOfDimensions and mxGetDimensions
 * (a small leak per call, seen with valgrind), so every node of an input
 * is converted here first, before any of those is asked.  x: a node of
 * class code (not 0), not sparse. */
static void convert_first(const mxArray *x, int code)
{
    if (code == CODE_CELL) {
        if (mxGetNumberOfElements(x) > 0)
            (void) mxGetCell(x, 0);
    } else if (code == CODE_STRUCT) {
        if (mxGetNumberOfFields(x) > 0)
            (void) mxGetFieldNameByNumber(x, 0);
    } else if (mxGetNumberOfElements(x) > 0 && !mxIsComplex(x)) {
        (void) mxGetData(x);      /* complex data: never asked for here */
    }
}

/* Checks the node x at depth (1 = the value itself) and adds its encoded
 * bytes (without the file header) to *size. */
static int encoded_size(const mxArray *x, int depth, uint64_t *size,
                        message *m)
{
    if (depth > MAX_DEPTH)
        return fail(m, "values nested deeper than %d", MAX_DEPTH);
    if (x == NULL) {            /* an unset cell or field: [] */
        *size += 3 + 2 * 8;
        return 0;
    }
    const int code = class_code(x);
    if (mxIsSparse(x))
        return fail(m, "cannot send a sparse %s (make it full)",
                    mxGetClassName(x));
    if (code == 0)
        return fail(m, "cannot send a value of class %s",
                    mxGetClassName(x));
    convert_first(x, code);
    const mwSize nd = mxGetNumberOfDimensions(x);
    if (nd > MAX_DIMS)
        return fail(m, "more than %d dimensions", MAX_DIMS);
    const uint64_t n = (uint64_t) mxGetNumberOfElements(x);
    *size += 3 + 8 * (uint64_t) nd;
    if (code == CODE_CELL) {
        for (uint64_t k = 0; k < n; k++)
            if (encoded_size(mxGetCell(x, (mwIndex) k), depth + 1, size, m))
                return -1;
    } else if (code == CODE_STRUCT) {
        const int nf = mxGetNumberOfFields(x);
        if (nf > MAX_FIELDS)
            return fail(m, "a struct with more than %d fields",
                        MAX_FIELDS);
        *size += 2;
        for (int f = 0; f < nf; f++) {
            const char *name = mxGetFieldNameByNumber(x, f);
            const size_t len = strlen(name);
            if (!valid_name(name, len))
                return bad_name(m, name, len);
            *size += 1 + len;
        }
        /* element-major: element k's fields in order, then element k+1's */
        for (uint64_t k = 0; k < n; k++)
            for (int f = 0; f < nf; f++)
                if (encoded_size(mxGetFieldByNumber(x, (mwIndex) k, f),
                                 depth + 1, size, m))
                    return -1;
    } else {
        *size += n * ELEMENT_BYTES[code - 1] * (mxIsComplex(x) ? 2 : 1);
    }
    return 0;
}

/* Appends the node x to the buffer at *p, advancing *p; x passed
 * encoded_size, so nothing here can fail and the buffer is large
 * enough. */
static void write_node(const mxArray *x, uint8_t **p)
{
    static const mwSize empty_dims[2] = {0, 0};
    const int code = x ? class_code(x) : 1;
    const int cplx = x ? mxIsComplex(x) : 0;
    const mwSize nd = x ? mxGetNumberOfDimensions(x) : 2;
    const mwSize *dims = x ? mxGetDimensions(x) : empty_dims;
    const size_t n = x ? mxGetNumberOfElements(x) : 0;
    uint8_t *q = *p;
    /* class code, flags, number of dimensions, then uint64 dimensions:
     * the host's bytes (little-endian, checked in mexFunction) */
    *q++ = (uint8_t) code;
    *q++ = (uint8_t) cplx;
    *q++ = (uint8_t) nd;
    for (mwSize k = 0; k < nd; k++) {
        const uint64_t d = (uint64_t) dims[k];
        memcpy(q, &d, 8);
        q += 8;
    }
    if (code == CODE_CELL) {
        for (size_t k = 0; k < n; k++)
            write_node(mxGetCell(x, (mwIndex) k), &q);
    } else if (code == CODE_STRUCT) {
        const int nf = mxGetNumberOfFields(x);
        const uint16_t nf16 = (uint16_t) nf;
        memcpy(q, &nf16, 2);
        q += 2;
        for (int f = 0; f < nf; f++) {
            const char *name = mxGetFieldNameByNumber(x, f);
            const size_t len = strlen(name);
            *q++ = (uint8_t) len;
            memcpy(q, name, len);
            q += len;
        }
        for (size_t k = 0; k < n; k++)
            for (int f = 0; f < nf; f++)
                write_node(mxGetFieldByNumber(x, (mwIndex) k, f), &q);
    } else if (n > 0 && !cplx) {
        /* numeric, logical, char: n raw elements */
        const size_t bytes = n * ELEMENT_BYTES[code - 1];
        memcpy(q, mxGetData(x), bytes);
        q += bytes;
    } else if (n > 0) {
        /* complex: the n real parts, then the n imaginary parts, as the
         * builtins real and imag give them */
        const size_t bytes = n * ELEMENT_BYTES[code - 1];
        for (int k = 0; k < 2; k++) {
            mxArray *args[2], *part = NULL;
            args[0] = mxCreateString(k == 0 ? "real" : "imag");
            args[1] = (mxArray *) x;      /* only read */
            mexCallMATLAB(1, &part, 2, args, "builtin");
            mxDestroyArray(args[0]);
            memcpy(q, mxGetData(part), bytes);
            mxDestroyArray(part);
            q += bytes;
        }
    }
    *p = q;
}

static void encode(int nlhs, mxArray *plhs[], const mxArray *value)
{
    (void) nlhs;
    message m;
    uint64_t size = HEADER_BYTES;
    if (encoded_size(value, 1, &size, &m))
        mexErrMsgIdAndTxt("attention:channel", "%s", m.text);
    /* the result: 1×size uint8, the header then the node */
    const mwSize dims[2] = {1, (mwSize) size};
    mxArray *out = size < OCTAVE_MADE_BYTES
        ? mxCreateNumericArray(2, dims, mxUINT8_CLASS, mxREAL)
        : octave_zeros(2, dims, 4);
    uint8_t *p = (uint8_t *) mxGetData(out);
    memcpy(p, MAGIC, HEADER_BYTES);
    p += HEADER_BYTES;
    write_node(value, &p);
    plhs[0] = out;
}

/* ===================================================================== */
/* Decoding: a reader over the input bytes. */

typedef struct {
    const uint8_t *buf;   /* the input: len bytes */
    size_t len;
    size_t pos;           /* offset of the next byte to read (0-based) */
    double budget;        /* what is left of max_bytes for decoded data */
    message m;
} reader;

/* Messages count bytes from 1, as the format's description does. */
static int truncated(reader *r, const char *what, uint64_t count)
{
    return fail(&r->m, "truncated input: %s at byte %zu needs %llu bytes, "
                "%zu left", what, r->pos + 1,
                (unsigned long long) count, r->len - r->pos);
}

static int need(reader *r, uint64_t count, const char *what)
{
    return count > r->len - r->pos ? truncated(r, what, count) : 0;
}

/* Charges cost bytes of decoded data before they are allocated. */
static int charge(reader *r, double cost)
{
    if (cost > r->budget)
        return fail(&r->m, "the value is larger than the limit (max_bytes)");
    r->budget -= cost;
    return 0;
}

static int decode_node(reader *r, int depth, mxArray **out);

/* The complex array of dims (n elements) from its n real parts at data,
 * then its n imaginary parts: builtin ("complex", re, im), never a user's
 * complex, which Octave returns as it made it. */
static mxArray *make_complex(mwSize nd, const mwSize *dims, size_t n,
                             int code, const uint8_t *data)
{
    const size_t bytes = n * ELEMENT_BYTES[code - 1];
    mxArray *args[3], *c = NULL;
    args[0] = mxCreateString("complex");
    for (int k = 1; k <= 2; k++) {
        args[k] = mxCreateNumericArray(nd, dims, CLASS_ID[code - 1], mxREAL);
        if (bytes > 0)
            memcpy(mxGetData(args[k]), data + (k - 1) * bytes, bytes);
    }
    mexCallMATLAB(1, &c, 3, args, "builtin");
    for (int k = 0; k < 3; k++)
        mxDestroyArray(args[k]);
    return c;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *) a, *(const char *const *) b);
}

/* A struct array of dims (n elements) at the field count; *out on
 * success. */
static int decode_struct(reader *r, int depth, mwSize nd, const mwSize *dims,
                         uint64_t n, mxArray **out)
{
    if (need(r, 2, "field count"))
        return -1;
    uint16_t nf16;
    memcpy(&nf16, r->buf + r->pos, 2);
    r->pos += 2;
    const size_t nf = nf16;
    if (charge(r, 8.0 * (double) n * (double) (nf > 0 ? nf : 1))
        || need(r, 2 * (uint64_t) nf, "field names"))
        return -1;
    /* The names: where each starts in the input, and one buffer of them
     * NUL-terminated for mxCreateStructArray (names[f] points into it).
     * Both are bounded by the input, checked above (2 bytes a name) and
     * below (len bytes each). */
    size_t *start = mxMalloc((nf > 0 ? nf : 1) * sizeof *start);
    size_t total = 0;
    for (size_t f = 0; f < nf; f++) {
        if (need(r, 1, "field name length")) {
            mxFree(start);
            return -1;
        }
        const size_t len = r->buf[r->pos++];
        if (need(r, len, "field name")) {
            mxFree(start);
            return -1;
        }
        const char *name = (const char *) r->buf + r->pos;
        if (!valid_name(name, len)) {
            mxFree(start);
            return bad_name(&r->m, name, len);
        }
        start[f] = r->pos;
        r->pos += len;
        total += len + 1;
    }
    char *text = mxMalloc(total > 0 ? total : 1);
    const char **names = mxMalloc((nf > 0 ? nf : 1) * sizeof *names);
    const char **sorted = mxMalloc((nf > 0 ? nf : 1) * sizeof *sorted);
    char *t = text;
    for (size_t f = 0; f < nf; f++) {
        const size_t len = r->buf[start[f] - 1];
        memcpy(t, r->buf + start[f], len);
        t[len] = '\0';
        names[f] = sorted[f] = t;
        t += len + 1;
    }
    mxFree(start);
    /* distinct names: sorted, equal ones are neighbours (n log n, where
     * comparing every pair of 65535 names would take seconds) */
    int status = 0;
    qsort(sorted, nf, sizeof *sorted, compare_names);
    for (size_t f = 1; f < nf && status == 0; f++)
        if (strcmp(sorted[f - 1], sorted[f]) == 0)
            status = fail(&r->m, "duplicate struct field names");
    mxFree(sorted);
    /* each of the n×nf values takes MIN_NODE bytes at least; n*nf may
     * not fit 64 bits, so compared by division */
    const uint64_t left_nodes = (r->len - r->pos) / MIN_NODE;
    if (status == 0 && nf > 0 && n > left_nodes / nf)
        status = fail(&r->m, "truncated input: struct values at "
                      "byte %zu needs %.0f bytes, %zu left", r->pos + 1,
                      (double) n * (double) nf * MIN_NODE, r->len - r->pos);
    mxArray *s = NULL;
    if (status == 0)
        s = mxCreateStructArray(nd, dims, (int) nf, names);
    mxFree(names);
    mxFree(text);
    if (status)
        return -1;
    /* element-major: element k's nf values in the order of the names */
    for (uint64_t k = 0; k < n; k++)
        for (size_t f = 0; f < nf; f++) {
            mxArray *v = NULL;
            if (decode_node(r, depth + 1, &v)) {
                mxDestroyArray(s);
                return -1;
            }
            mxSetFieldByNumber(s, (mwIndex) k, (int) f, v);
        }
    *out = s;
    return 0;
}

/* The node at r->pos into *out, r->pos after it.  On failure nothing
 * decoded here is left allocated. */
static int decode_node(reader *r, int depth, mxArray **out)
{
    if (depth > MAX_DEPTH)
        return fail(&r->m, "values nested deeper than %d", MAX_DEPTH);
    if (need(r, 3, "node header"))
        return -1;
    const uint8_t *h = r->buf + r->pos;
    const int code = h[0], cplx = h[1], nd = h[2];
    if (code < 1 || code > NCODES)
        return fail(&r->m, "invalid class code %d at byte %zu", code,
                    r->pos + 1);
    if (cplx > 1 || (cplx && code > 2))
        return fail(&r->m, "invalid flags %d for a %s at byte %zu", cplx,
                    CLASS_NAME[code - 1], r->pos + 2);
    if (nd < 2 || nd > MAX_DIMS)
        return fail(&r->m, "%d dimensions at byte %zu (2 to %d allowed)",
                    nd, r->pos + 3, MAX_DIMS);
    r->pos += 3;
    if (need(r, 8 * (uint64_t) nd, "dimensions"))
        return -1;
    /* dims: nd uint64 (little-endian); each at most 2^31-1, the product
     * of the nonzero ones at most 2^53 (tested by division: no overflow) */
    uint64_t d[MAX_DIMS], largest = 0, nonzero = 1;
    int any_zero = 0;
    for (int k = 0; k < nd; k++) {
        memcpy(&d[k], r->buf + r->pos + 8 * (size_t) k, 8);
        if (d[k] > largest)
            largest = d[k];
    }
    r->pos += 8 * (size_t) nd;
    if (largest > MAX_DIM)
        return fail(&r->m, "dimension %.0f larger than %llu",
                    (double) largest, (unsigned long long) MAX_DIM);
    int too_large = 0;
    for (int k = 0; k < nd && !too_large; k++) {
        const uint64_t f = d[k] > 0 ? d[k] : 1;
        if (f > MAX_ELEMENTS / nonzero)
            too_large = 1;
        else
            nonzero *= f;
    }
    for (int k = 0; k < nd; k++)
        any_zero |= d[k] == 0;
    /* Octave refuses such sizes even when empty */
    if (too_large) {
        /* the dimensions as "2×3" (× in UTF-8); 32 of 10 digits fit */
        char shape[MAX_DIMS * 13];
        size_t at = 0;
        for (int k = 0; k < nd; k++)
            at += (size_t) snprintf(shape + at, sizeof shape - at, "%s%llu",
                                    k ? "\xc3\x97" : "",
                                    (unsigned long long) d[k]);
        return fail(&r->m, "dimensions %s too large", shape);
    }
    const uint64_t n = any_zero ? 0 : nonzero;
    mwSize dims[MAX_DIMS];
    for (int k = 0; k < nd; k++)
        dims[k] = (mwSize) d[k];
    /* n <= 2^53 elements: the sizes below fit 64 bits and doubles */
    const uint64_t count = n * ELEMENT_BYTES[code - 1] * (cplx ? 2 : 1);
    if (code == CODE_STRUCT)
        return decode_struct(r, depth, (mwSize) nd, dims, n, out);
    if (charge(r, (double) count))
        return -1;
    if (code == CODE_CELL) {
        if (need(r, n * MIN_NODE, "cell elements"))
            return -1;
        mxArray *c = mxCreateCellArray((mwSize) nd, dims);
        for (uint64_t k = 0; k < n; k++) {
            mxArray *v = NULL;
            if (decode_node(r, depth + 1, &v)) {
                mxDestroyArray(c);
                return -1;
            }
            mxSetCell(c, (mwIndex) k, v);
        }
        *out = c;
        return 0;
    }
    char what[24];
    snprintf(what, sizeof what, "%s data", CLASS_NAME[code - 1]);
    if (need(r, count, what))
        return -1;
    const uint8_t *data = r->buf + r->pos;
    r->pos += count;
    if (cplx) {
        *out = make_complex((mwSize) nd, dims, (size_t) n, code, data);
        return 0;
    }
    mxArray *a;
    if (code == CODE_LOGICAL) {
        for (uint64_t k = 0; k < n; k++)
            if (data[k] > 1)
                return fail(&r->m, "a logical byte other than "
                            "0 or 1 before byte %zu", r->pos + 1);
        a = mxCreateLogicalArray((mwSize) nd, dims);
    } else if (code == CODE_CHAR) {
        a = mxCreateCharArray((mwSize) nd, dims);
    } else if (count >= OCTAVE_MADE_BYTES) {
        a = octave_zeros((mwSize) nd, dims, code);
    } else {
        a = mxCreateNumericArray((mwSize) nd, dims, CLASS_ID[code - 1],
                                 mxREAL);
    }
    /* the n raw elements */
    if (count >= OCTAVE_MADE_BYTES)
        advise_huge_pages(mxGetData(a), (size_t) count);
    if (count > 0)
        memcpy(mxGetData(a), data, (size_t) count);
    *out = a;
    return 0;
}

static void decode(int nrhs, const mxArray *prhs[], mxArray *plhs[])
{
    const mxArray *b = prhs[1];
    if (!mxIsUint8(b))
        mexErrMsgIdAndTxt("attention:channel", "the bytes must be a uint8 "
                          "vector, not %s", mxGetClassName(b));
    /* the data first: see convert_first */
    const uint8_t *data = (const uint8_t *) mxGetData(b);
    const mwSize *bd = mxGetDimensions(b);
    const int vector = mxGetNumberOfDimensions(b) == 2
                       && (bd[0] == 1 || bd[1] == 1);
    if (!(vector || mxIsEmpty(b)))
        mexErrMsgIdAndTxt("attention:channel", "the bytes must "
                          "be a uint8 vector, not %s", mxGetClassName(b));
    double max_bytes = 64.0 * 1048576.0;
    if (nrhs > 2) {
        const mxArray *mb = prhs[2];
        if (!mxIsNumeric(mb) || mxIsComplex(mb)
            || mxGetNumberOfElements(mb) != 1 || !(mxGetScalar(mb) >= 0))
            mexErrMsgIdAndTxt("attention:channel", "max_bytes "
                              "must be a non-negative number");
        max_bytes = mxGetScalar(mb);
    }
    reader r;
    r.buf = data;
    r.len = mxGetNumberOfElements(b);
    r.pos = 0;
    r.budget = max_bytes;
    if ((double) r.len > max_bytes)
        mexErrMsgIdAndTxt("attention:channel", "%zu bytes, more "
                          "than the limit of %.15g", r.len, max_bytes);
    if (r.len < HEADER_BYTES || memcmp(r.buf, MAGIC, HEADER_BYTES) != 0)
        mexErrMsgIdAndTxt("attention:channel", "not a "
                          "grade_value message (bad header or version)");
    r.pos = HEADER_BYTES;
    mxArray *value;
    if (decode_node(&r, 1, &value))
        mexErrMsgIdAndTxt("attention:channel", "%s", r.m.text);
    if (r.pos < r.len) {
        mxDestroyArray(value);
        mexErrMsgIdAndTxt("attention:channel", "%zu trailing "
                          "bytes after the value", r.len - r.pos);
    }
    plhs[0] = value;
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    /* the payloads are the host's bytes, written and read as they are */
    const uint16_t one = 1;
    if (*(const uint8_t *) &one != 1)
        mexErrMsgIdAndTxt("attention:channel", "only "
                          "little-endian hosts are supported");
    /* the action, cut to 63 bytes (enough to name a wrong one) */
    char action[64] = "";
    if (nrhs >= 1 && mxIsChar(prhs[0]))
        mxGetString(prhs[0], action, sizeof action);
    const int enc = strcmp(action, "encode") == 0;
    if (!enc && strcmp(action, "decode") != 0) {
        char shown[256];
        printable(action, strlen(action), shown);
        mexErrMsgIdAndTxt("attention:channel", "unknown action "
                          "'%s'", shown);
    }
    if (nlhs > 1)
        mexErrMsgIdAndTxt("attention:nargout", "one output");
    if (enc ? nrhs != 2 : (nrhs < 2 || nrhs > 3))
        mexErrMsgIdAndTxt("attention:nargin", "\"%s\" takes %s", action,
                          enc ? "one value"
                          : "the bytes and an optional max_bytes");
    if (enc)
        encode(nlhs, plhs, prhs[1]);
    else
        decode(nrhs, prhs, plhs);
}
