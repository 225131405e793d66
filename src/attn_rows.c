/* attn_rows: MEX gateway; help text in attn_rows.m.
 *   Y = attn_rows (X, W [, b])     every row of X (n x a x P...) times W
 *                                  (a x c), plus b (1 x c) */
#include "gateway.h"

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    gw_dims dx, dw, db;
    gw_nargs(nlhs, nrhs, 2, 3, 1);
    const gw_real cls = gw_class_of(prhs[0], "X");
    const void *X = gw_rows_arg(prhs[0], "X", GW_MAX_DIMS, &dx, cls);
    const void *W = gw_rows_arg(prhs[1], "W", 2, &dw, cls);
    const attn_int n = dx.dim[0], a = dx.dim[1], P = gw_pages(&dx, 2);
    const attn_int c = dw.dim[1];
    gw_product_shape(&dw, a, c, n * P, "a x c, a the columns of X");
    const void *b = NULL;
    if (nrhs == 3) {
        b = gw_rows_arg(prhs[2], "b", 2, &db, cls);
        const gw_dims want_b = { 2, { 1, c, 1, 1, 1, 1, 1, 1 } };
        gw_expect("b", &db, &want_b, "1 x c, c the columns of W");
    }
    const gw_dims want_y = gw_with_cols(&dx, c);
    mxArray *Y = gw_new_real(cls, want_y.ndims, want_y.dim);
    void *work = gw_workspace(attn_rows_forward_work(n, a, c, P), cls);
    if (cls == GW_SINGLE)
        attn_rows_forward_f(n, a, c, P, X, W, b, gw_data(Y), work);
    else
        attn_rows_forward(n, a, c, P, X, W, b, gw_data(Y), work);
    mxFree(work);
    plhs[0] = Y;
}
