/* attn_rows_backward: MEX gateway; help text in attn_rows_backward.m.
 *   [dX, dW, db] = attn_rows_backward (dY, X, W)   the gradients of
 *   attn_rows: dY n x c x P..., X n x a x P..., W a x c */
#include "gateway.h"

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    gw_dims dx, dw, dy;
    gw_nargs(nlhs, nrhs, 3, 3, 3);
    const gw_real cls = gw_class_of(prhs[0], "dY");
    const void *dY = gw_rows_arg(prhs[0], "dY", GW_MAX_DIMS, &dy, cls);
    const void *X = gw_rows_arg(prhs[1], "X", GW_MAX_DIMS, &dx, cls);
    const void *W = gw_rows_arg(prhs[2], "W", 2, &dw, cls);
    const attn_int n = dy.dim[0], c = dy.dim[1], P = gw_pages(&dy, 2);
    const attn_int a = dw.dim[0];
    gw_product_shape(&dw, a, c, n * P, "a x c, c the columns of dY");
    const gw_dims want_x = gw_with_cols(&dy, a);
    gw_expect("X", &dx, &want_x, "n x a x P..., the rows of dY");
    mxArray *dXa = gw_new_real(cls, want_x.ndims, want_x.dim);
    const attn_int w_dims[2] = { a, c }, b_dims[2] = { 1, c };
    mxArray *dWa = gw_new_real(cls, 2, w_dims);
    mxArray *dba = gw_new_real(cls, 2, b_dims);
    void *work = gw_workspace(attn_rows_backward_work(n, a, c, P), cls);
    if (cls == GW_SINGLE)
        attn_rows_backward_f(n, a, c, P, dY, X, W, gw_data(dXa),
                             gw_data(dWa), gw_data(dba), work);
    else
        attn_rows_backward(n, a, c, P, dY, X, W, gw_data(dXa),
                           gw_data(dWa), gw_data(dba), work);
    mxFree(work);
    mxArray *results[3] = { dXa, dWa, dba };
    gw_return(nlhs, plhs, 3, results);
}
