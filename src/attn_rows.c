/* attn_rows: MEX gateway; help text in attn_rows.m.
 *   Y = attn_rows (X, W [, b])                   every row times W, plus b
 *   [dX, dW, db] = attn_rows (dY, X, W, "backward")   its gradients
 *   s = attn_rows (X, "sum")                     the sum of every row
 *   [Y, mu, sigma, xhat] = attn_rows (X, gain, bias, epsilon, "layernorm")
 *   [dX, dgain, dbias] = attn_rows (dY, xhat, sigma, gain, "layernorm_backward")
 * X n x a x P..., W a x c, b 1 x c, dY n x c x P...: the trailing
 * dimensions are pages of rows.  Unlike the attention blocks, Inf and NaN
 * pass through as in X*W: these are the model layer's own products. */
#include "gateway.h"

#include <string.h>

/* A real full double array of at most `ndims` dimensions (any values). */
static const double *rows_arg(const mxArray *a, const char *name, int ndims,
                              gw_dims *dims)
{
    if (!mxIsDouble(a) || mxIsComplex(a) || mxIsSparse(a))
        mexErrMsgIdAndTxt("attention:type",
                          "%s must be a real full double array; got a %s%s "
                          "%s array", name, mxIsSparse(a) ? "sparse " : "",
                          mxIsComplex(a) ? "complex" : "",
                          mxGetClassName(a));
    const double *p = mxGetDoubles(a);  /* data before dimensions */
    const int nd = (int) mxGetNumberOfDimensions(a);
    const mwSize *dv = mxGetDimensions(a);
    if (nd > ndims)
        mexErrMsgIdAndTxt("attention:size",
                          "%s must have at most %d dimensions; got %d",
                          name, ndims, nd);
    dims->ndims = nd;
    for (int k = 0; k < GW_MAX_DIMS; k++)
        dims->dim[k] = k < nd ? (attn_int) dv[k] : 1;
    return p;
}

/* The trailing mode word, or "" when the last argument is not a string. */
/* A 1 x d row (gain, bias) for rows of width d. */
static const double *width_row(const mxArray *a, const char *name,
                               attn_int d)
{
    gw_dims got;
    const double *p = rows_arg(a, name, 2, &got);
    const gw_dims want = { 2, { 1, d, 1, 1, 1, 1, 1, 1 } };
    gw_expect(name, &got, &want, "1 x d, d the columns of the rows");
    return p;
}

static void mode_word(int nrhs, const mxArray *prhs[], char *word,
                      size_t size)
{
    word[0] = '\0';
    if (nrhs > 0 && mxIsChar(prhs[nrhs - 1])) {
        if (mxGetNumberOfElements(prhs[nrhs - 1]) >= size
            || mxGetString(prhs[nrhs - 1], word, size) != 0
            || (strcmp(word, "backward") && strcmp(word, "sum")
                && strcmp(word, "layernorm")
                && strcmp(word, "layernorm_backward")))
            mexErrMsgIdAndTxt("attention:option",
                              "the mode must be \"backward\", \"sum\", "
                              "\"layernorm\" or \"layernorm_backward\"");
    }
}

/* dims of an n x cols x P... array with the pages of `rows` */
static gw_dims with_cols(const gw_dims *rows, attn_int cols)
{
    gw_dims d = *rows;
    if (d.ndims < 2)
        d.ndims = 2;
    d.dim[1] = cols;
    return d;
}

/* W must be a x c (`what` says which side fixes it), and every dimension
 * of the product must fit BLAS's integers. */
static void product_shape(const gw_dims *dw, attn_int a, attn_int c,
                          attn_int rows, const char *what)
{
    const gw_dims want_w = { 2, { a, c, 1, 1, 1, 1, 1, 1 } };
    gw_expect("W", dw, &want_w, what);
    gw_fits_blas("rows", rows);
    gw_fits_blas("a", a);
    gw_fits_blas("c", c);
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    char word[32];
    mode_word(nrhs, prhs, word, sizeof word);
    gw_dims dx, dw, dy, db;

    if (!strcmp(word, "sum")) {          /* s = attn_rows (X, "sum") */
        gw_nargs(nlhs, nrhs, 2, 2, 1);
        const double *X = rows_arg(prhs[0], "X", GW_MAX_DIMS, &dx);
        const attn_int n = dx.dim[0], c = dx.dim[1], P = gw_pages(&dx, 2);
        gw_fits_blas("rows", n * P);
        const attn_int s_dims[2] = { 1, c };
        mxArray *s = gw_new_double(2, s_dims);
        attn_rows_backward(n, 0, c, P, X, NULL, NULL, NULL, NULL,
                           mxGetDoubles(s), NULL);
        plhs[0] = s;
        return;
    }

    if (!strcmp(word, "layernorm")) {    /* [Y, mu, sigma, xhat] */
        gw_nargs(nlhs, nrhs, 5, 5, 4);
        const double *X = rows_arg(prhs[0], "X", GW_MAX_DIMS, &dx);
        const attn_int n = dx.dim[0], d = dx.dim[1], P = gw_pages(&dx, 2);
        const double *gain = width_row(prhs[1], "gain", d);
        const double *bias = width_row(prhs[2], "bias", d);
        if (!mxIsDouble(prhs[3]) || mxIsComplex(prhs[3])
            || mxGetNumberOfElements(prhs[3]) != 1)
            mexErrMsgIdAndTxt("attention:type",
                              "epsilon must be a real double scalar");
        const gw_dims row_dims = with_cols(&dx, 1);
        mxArray *Y = gw_new_double(dx.ndims < 2 ? 2 : dx.ndims, dx.dim);
        mxArray *mu = gw_new_double(row_dims.ndims, row_dims.dim);
        mxArray *sigma = gw_new_double(row_dims.ndims, row_dims.dim);
        mxArray *xhat = gw_new_double(dx.ndims < 2 ? 2 : dx.ndims, dx.dim);
        attn_layernorm_forward(n, d, P, X, gain, bias, mxGetScalar(prhs[3]),
                               mxGetDoubles(Y), mxGetDoubles(mu),
                               mxGetDoubles(sigma), mxGetDoubles(xhat));
        plhs[0] = Y;
        mxArray *rest[3] = { mu, sigma, xhat };
        for (int k = 0; k < 3; k++) {
            if (k + 1 < nlhs)
                plhs[k + 1] = rest[k];
            else
                mxDestroyArray(rest[k]);
        }
        return;
    }

    if (!strcmp(word, "layernorm_backward")) {  /* [dX, dgain, dbias] */
        gw_nargs(nlhs, nrhs, 5, 5, 3);
        const double *dY = rows_arg(prhs[0], "dY", GW_MAX_DIMS, &dy);
        const attn_int n = dy.dim[0], d = dy.dim[1], P = gw_pages(&dy, 2);
        gw_dims got;
        const double *xhat = rows_arg(prhs[1], "xhat", GW_MAX_DIMS, &got);
        gw_expect("xhat", &got, &dy, "the shape of dY");
        const double *sigma = rows_arg(prhs[2], "sigma", GW_MAX_DIMS, &got);
        const gw_dims row_dims = with_cols(&dy, 1);
        gw_expect("sigma", &got, &row_dims, "n x 1 x P..., one per row of dY");
        const double *gain = width_row(prhs[3], "gain", d);
        const attn_int w_dims[2] = { 1, d };
        mxArray *dX = gw_new_double(dy.ndims < 2 ? 2 : dy.ndims, dy.dim);
        mxArray *dgain = gw_new_double(2, w_dims);
        mxArray *dbias = gw_new_double(2, w_dims);
        double *work = gw_workspace(2 * (size_t) n);
        attn_layernorm_backward(n, d, P, dY, xhat, sigma, gain,
                                mxGetDoubles(dX), mxGetDoubles(dgain),
                                mxGetDoubles(dbias), work);
        mxFree(work);
        plhs[0] = dX;
        plhs[1] = dgain;
        plhs[2] = dbias;
        return;
    }

    if (!strcmp(word, "backward")) {     /* [dX, dW, db] = (dY, X, W, mode) */
        gw_nargs(nlhs, nrhs, 4, 4, 3);
        const double *dY = rows_arg(prhs[0], "dY", GW_MAX_DIMS, &dy);
        const double *X = rows_arg(prhs[1], "X", GW_MAX_DIMS, &dx);
        const double *W = rows_arg(prhs[2], "W", 2, &dw);
        const attn_int n = dy.dim[0], c = dy.dim[1], P = gw_pages(&dy, 2);
        const attn_int a = dw.dim[0];
        product_shape(&dw, a, c, n * P, "a x c, c the columns of dY");
        const gw_dims want_x = with_cols(&dy, a);
        gw_expect("X", &dx, &want_x, "n x a x P..., the rows of dY");
        mxArray *dXa = gw_new_double(want_x.ndims, want_x.dim);
        const attn_int w_dims[2] = { a, c }, b_dims[2] = { 1, c };
        mxArray *dWa = gw_new_double(2, w_dims);
        mxArray *dba = gw_new_double(2, b_dims);
        double *work = gw_workspace(attn_rows_backward_work(n, a, c, P));
        attn_rows_backward(n, a, c, P, dY, X, W, mxGetDoubles(dXa),
                           mxGetDoubles(dWa), mxGetDoubles(dba), work);
        mxFree(work);
        plhs[0] = dXa;
        plhs[1] = dWa;
        plhs[2] = dba;
        return;
    }

    gw_nargs(nlhs, nrhs, 2, 3, 1);       /* Y = attn_rows (X, W [, b]) */
    const double *X = rows_arg(prhs[0], "X", GW_MAX_DIMS, &dx);
    const double *W = rows_arg(prhs[1], "W", 2, &dw);
    const attn_int n = dx.dim[0], a = dx.dim[1], P = gw_pages(&dx, 2);
    const attn_int c = dw.dim[1];
    product_shape(&dw, a, c, n * P, "a x c, a the columns of X");
    const double *b = NULL;
    if (nrhs == 3) {
        b = rows_arg(prhs[2], "b", 2, &db);
        const gw_dims want_b = { 2, { 1, c, 1, 1, 1, 1, 1, 1 } };
        gw_expect("b", &db, &want_b, "1 x c, c the columns of W");
    }
    const gw_dims want_y = with_cols(&dx, c);
    mxArray *Y = gw_new_double(want_y.ndims, want_y.dim);
    double *work = gw_workspace(attn_rows_forward_work(n, a, c, P));
    attn_rows_forward(n, a, c, P, X, W, b, mxGetDoubles(Y), work);
    mxFree(work);
    plhs[0] = Y;
}
