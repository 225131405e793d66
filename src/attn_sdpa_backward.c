/* attn_sdpa_backward: MEX gateway; help text in attn_sdpa_backward.m.
 * [dQ, dK, dV] = attn_sdpa_backward (dM, Q, K, V, A) */
#include "gateway.h"

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    gw_nargs(nlhs, nrhs, 5, 5, 3);
    gw_sdpa op;
    gw_sdpa_operands(prhs[1], prhs[2], prhs[3], &op);
    const attn_int n = op.n, m = op.m, dk = op.dk, dv = op.dv;

    gw_dims got, want = gw_sdpa_shape(&op, dv);
    const double *dM = gw_double(prhs[0], "dM", GW_MAX_DIMS, &got);
    gw_expect("dM", &got, &want, "n x dv x P..., the shape of the message");
    want = gw_sdpa_shape(&op, m);
    const double *A = gw_double(prhs[4], "A", GW_MAX_DIMS, &got);
    gw_expect("A", &got, &want, "n x m x P..., the weights of attn_sdpa");
    gw_fits_memory((double) op.pages * ((double) n * dk + (double) m * dk
                                        + (double) m * dv)
                   + (double) n * m);

    const int nd = op.q_dims.ndims;
    gw_dims k_dims = op.q_dims, v_dims = op.q_dims;
    k_dims.dim[0] = v_dims.dim[0] = m;
    v_dims.dim[1] = dv;
    mxArray *dQ = gw_new_double(nd, op.q_dims.dim);
    mxArray *dK = gw_new_double(nd, k_dims.dim);
    mxArray *dV = gw_new_double(nd, v_dims.dim);
    double *work = gw_workspace(attn_sdpa_backward_work(n, m));
    int status = ATTN_OK;
    /* Pages whose results are all empty need no visit (there may be 2^40). */
    const attn_int pages = n + m == 0 ? 0 : op.pages;
    for (attn_int p = 0; p < pages; p++)
        if (attn_sdpa_backward(n, m, dk, dv, dM + p * n * dv, n,
                           op.Q + p * n * dk, n, op.K + p * m * dk, m,
                           op.V + p * m * dv, m, A + p * n * m, 0,
                           mxGetDoubles(dQ) + p * n * dk, n,
                           mxGetDoubles(dK) + p * m * dk, m,
                           mxGetDoubles(dV) + p * m * dv, m, work)
            != ATTN_OK)
            status = ATTN_ERR_OVERFLOW;
    mxFree(work);
    gw_status(status);

    plhs[0] = dQ;
    if (nlhs > 1)
        plhs[1] = dK;
    else
        mxDestroyArray(dK);
    if (nlhs > 2)
        plhs[2] = dV;
    else
        mxDestroyArray(dV);
}
