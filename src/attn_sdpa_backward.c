/* attn_sdpa_backward: MEX gateway; help text in attn_sdpa_backward.m.
 * [dQ, dK, dV] = attn_sdpa_backward (dM, Q, K, V, A) */
#include "gateway.h"

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    gw_nargs(nlhs, nrhs, 5, 5, 3);
    gw_sdpa op;
    gw_sdpa_operands(prhs[1], prhs[2], prhs[3], gw_class_of(prhs[0], "dM"),
                     &op);
    const attn_int n = op.n, m = op.m, dk = op.dk, dv = op.dv;

    const gw_real cls = op.cls;
    gw_dims got, want = gw_sdpa_shape(&op, dv);
    const void *dM = gw_finite(prhs[0], "dM", GW_MAX_DIMS, &got, cls);
    gw_expect("dM", &got, &want, "n x dv x P..., the shape of the message");
    want = gw_sdpa_shape(&op, m);
    const void *A = gw_finite(prhs[4], "A", GW_MAX_DIMS, &got, cls);
    gw_expect("A", &got, &want, "n x m x P..., the weights of attn_sdpa");
    gw_fits_memory((double) op.pages * ((double) n * dk + (double) m * dk
                                        + (double) m * dv)
                   + (double) n * m, cls);

    const int nd = op.q_dims.ndims;
    gw_dims k_dims = op.q_dims, v_dims = op.q_dims;
    k_dims.dim[0] = v_dims.dim[0] = m;
    v_dims.dim[1] = dv;
    mxArray *dQ = gw_new_real(cls, nd, op.q_dims.dim);
    mxArray *dK = gw_new_real(cls, nd, k_dims.dim);
    mxArray *dV = gw_new_real(cls, nd, v_dims.dim);
    void *work = gw_workspace(attn_sdpa_backward_work(n, m), cls);
    int status = ATTN_OK;
    /* Pages whose results are all empty need no visit (there may be 2^40). */
    const attn_int pages = n + m == 0 ? 0 : op.pages;
    for (attn_int p = 0; p < pages; p++) {
        const void *dM_p = gw_at(dM, p * n * dv, cls);
        const void *Q = gw_at(op.Q, p * n * dk, cls);
        const void *K = gw_at(op.K, p * m * dk, cls);
        const void *V = gw_at(op.V, p * m * dv, cls);
        const void *A_p = gw_at(A, p * n * m, cls);
        void *dQ_p = gw_at_out(gw_data(dQ), p * n * dk, cls);
        void *dK_p = gw_at_out(gw_data(dK), p * m * dk, cls);
        void *dV_p = gw_at_out(gw_data(dV), p * m * dv, cls);
        if ((cls == GW_SINGLE
                 ? attn_sdpa_backward_f(n, m, dk, dv, dM_p, n, Q, n, K, m, V,
                                        m, A_p, 0, dQ_p, n, dK_p, m, dV_p, m,
                                        work)
                 : attn_sdpa_backward(n, m, dk, dv, dM_p, n, Q, n, K, m, V,
                                      m, A_p, 0, dQ_p, n, dK_p, m, dV_p, m,
                                      work))
            != ATTN_OK)
            status = ATTN_ERR_OVERFLOW;
    }
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
