/* attn_layernorm: MEX gateway; help text in attn_layernorm.m.
 *   [Y, mu, sigma, xhat] = attn_layernorm (X, gain, bias, epsilon)
 *   X n x d x P..., gain and bias 1 x d, epsilon a scalar */
#include "gateway.h"

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    gw_dims dx;
    gw_nargs(nlhs, nrhs, 4, 4, 4);
    const gw_real cls = gw_class_of(prhs[0], "X");
    const void *X = gw_rows_arg(prhs[0], "X", GW_MAX_DIMS, &dx, cls);
    const attn_int n = dx.dim[0], d = dx.dim[1], P = gw_pages(&dx, 2);
    const void *gain = gw_width_row(prhs[1], "gain", d, cls);
    const void *bias = gw_width_row(prhs[2], "bias", d, cls);
    if (!mxIsDouble(prhs[3]) || mxIsComplex(prhs[3])
        || mxGetNumberOfElements(prhs[3]) != 1)
        mexErrMsgIdAndTxt("attention:type",
                          "epsilon must be a real double scalar");
    const gw_dims row_dims = gw_with_cols(&dx, 1);
    mxArray *Y = gw_new_real(cls, dx.ndims < 2 ? 2 : dx.ndims, dx.dim);
    mxArray *mu = gw_new_real(cls, row_dims.ndims, row_dims.dim);
    mxArray *sigma = gw_new_real(cls, row_dims.ndims, row_dims.dim);
    mxArray *xhat = gw_new_real(cls, dx.ndims < 2 ? 2 : dx.ndims, dx.dim);
    const double epsilon = mxGetScalar(prhs[3]);
    if (cls == GW_SINGLE)
        attn_layernorm_forward_f(n, d, P, X, gain, bias, epsilon, gw_data(Y),
                                 gw_data(mu), gw_data(sigma), gw_data(xhat));
    else
        attn_layernorm_forward(n, d, P, X, gain, bias, epsilon, gw_data(Y),
                               gw_data(mu), gw_data(sigma), gw_data(xhat));
    mxArray *results[4] = { Y, mu, sigma, xhat };
    gw_return(nlhs, plhs, 4, results);
}
