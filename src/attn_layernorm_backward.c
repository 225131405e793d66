/* attn_layernorm_backward: MEX gateway; help text in
 * attn_layernorm_backward.m.
 *   [dX, dgain, dbias] = attn_layernorm_backward (dY, xhat, sigma, gain)
 *   dY, xhat n x d x P..., sigma n x 1 x P..., gain 1 x d */
#include "gateway.h"

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    gw_dims dy, got;
    gw_nargs(nlhs, nrhs, 4, 4, 3);
    const gw_real cls = gw_class_of(prhs[0], "dY");
    const void *dY = gw_rows_arg(prhs[0], "dY", GW_MAX_DIMS, &dy, cls);
    const attn_int n = dy.dim[0], d = dy.dim[1], P = gw_pages(&dy, 2);
    const void *xhat = gw_rows_arg(prhs[1], "xhat", GW_MAX_DIMS, &got, cls);
    gw_expect("xhat", &got, &dy, "the shape of dY");
    const void *sigma = gw_rows_arg(prhs[2], "sigma", GW_MAX_DIMS, &got,
                                    cls);
    const gw_dims row_dims = gw_with_cols(&dy, 1);
    gw_expect("sigma", &got, &row_dims, "n x 1 x P..., one per row of dY");
    const void *gain = gw_width_row(prhs[3], "gain", d, cls);
    const attn_int w_dims[2] = { 1, d };
    mxArray *dX = gw_new_real(cls, dy.ndims < 2 ? 2 : dy.ndims, dy.dim);
    mxArray *dgain = gw_new_real(cls, 2, w_dims);
    mxArray *dbias = gw_new_real(cls, 2, w_dims);
    void *work = gw_workspace(attn_layernorm_backward_work(n), cls);
    if (cls == GW_SINGLE)
        attn_layernorm_backward_f(n, d, P, dY, xhat, sigma, gain,
                                  gw_data(dX), gw_data(dgain),
                                  gw_data(dbias), work);
    else
        attn_layernorm_backward(n, d, P, dY, xhat, sigma, gain, gw_data(dX),
                                gw_data(dgain), gw_data(dbias), work);
    mxFree(work);
    mxArray *results[3] = { dX, dgain, dbias };
    gw_return(nlhs, plhs, 3, results);
}
