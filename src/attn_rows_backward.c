/* attn_rows_backward: MEX gateway; help text in attn_rows_backward.m.
 *   [dX, dW, db] = attn_rows_backward (dY, X, W)   the gradients of
 *   attn_rows: dY n x c x P..., X n x a x P..., W a x c */
#include "gateway.h"

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    gw_dims dx, dw, dy;
    gw_nargs(nlhs, nrhs, 3, 3, 3);
    const double *dY = gw_rows_arg(prhs[0], "dY", GW_MAX_DIMS, &dy);
    const double *X = gw_rows_arg(prhs[1], "X", GW_MAX_DIMS, &dx);
    const double *W = gw_rows_arg(prhs[2], "W", 2, &dw);
    const attn_int n = dy.dim[0], c = dy.dim[1], P = gw_pages(&dy, 2);
    const attn_int a = dw.dim[0];
    gw_product_shape(&dw, a, c, n * P, "a x c, c the columns of dY");
    const gw_dims want_x = gw_with_cols(&dy, a);
    gw_expect("X", &dx, &want_x, "n x a x P..., the rows of dY");
    mxArray *dXa = gw_new_double(want_x.ndims, want_x.dim);
    const attn_int w_dims[2] = { a, c }, b_dims[2] = { 1, c };
    mxArray *dWa = gw_new_double(2, w_dims);
    mxArray *dba = gw_new_double(2, b_dims);
    double *work = gw_workspace(attn_rows_backward_work(n, a, c, P));
    attn_rows_backward(n, a, c, P, dY, X, W, mxGetDoubles(dXa),
                       mxGetDoubles(dWa), mxGetDoubles(dba), work);
    mxFree(work);
    mxArray *results[3] = { dXa, dWa, dba };
    gw_return(nlhs, plhs, 3, results);
}
