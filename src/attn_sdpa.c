/* attn_sdpa: MEX gateway; help text in attn_sdpa.m.
 * [M, A, S] = attn_sdpa (Q, K, V, allow) */
#include "gateway.h"

#include <string.h>

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    gw_nargs(nlhs, nrhs, 3, 4, 3);
    gw_sdpa op;
    gw_sdpa_operands(prhs[0], prhs[1], prhs[2], gw_class_of(prhs[0], "Q"),
                     &op);
    const attn_int n = op.n, m = op.m;

    /* allow: n x m shared by every page, n x m x P... one per page, or
     * the string "causal" */
    attn_mask mask = { 0, NULL, NULL };
    attn_int mask_stride = 0;
    if (nrhs == 4 && mxIsChar(prhs[3])) {
        char word[32];
        if (mxGetString(prhs[3], word, sizeof word) != 0
            || strcmp(word, "causal") != 0)
            mexErrMsgIdAndTxt("attention:mask",
                              "allow must be a logical n x m mask or the "
                              "string \"causal\"; got the string \"%s\"",
                              word);
        mask.causal = 1;
    } else if (nrhs == 4) {
        gw_dims got, shared = gw_sdpa_shape(&op, m), one = shared;
        mask.pairs = gw_logical(prhs[3], "allow", GW_MAX_DIMS, &got);
        for (int k = 2; k < GW_MAX_DIMS; k++)
            one.dim[k] = 1;
        if (gw_pages(&got, 2) > 1)
            one = shared;
        gw_expect_as("attention:mask", "allow", &got, &one, "n x m, or "
                     "n x m x P... with the pages of Q (logical, true = may "
                     "attend)");
        mask_stride = gw_pages(&got, 2) > 1 ? n * m : 0;
    }
    const gw_real cls = op.cls;
    gw_fits_memory((double) op.pages * ((double) n * op.dv + 2.0 * n * m),
                   cls);

    const gw_dims m_dims = gw_sdpa_shape(&op, op.dv);
    const gw_dims w_dims = gw_sdpa_shape(&op, m);
    mxArray *M = gw_new_real(cls, op.q_dims.ndims, m_dims.dim);
    mxArray *A = gw_new_real(cls, op.q_dims.ndims, w_dims.dim);
    mxArray *S = gw_new_real(cls, op.q_dims.ndims, w_dims.dim);
    void *m_out = gw_data(M), *a_out = gw_data(A), *s_out = gw_data(S);
    const unsigned char *pairs = mask.pairs;
    void *work = gw_workspace(attn_sdpa_forward_work(n, m), cls);
    int status = ATTN_OK;
    /* Pages whose results are all empty need no visit (there may be 2^40). */
    const attn_int pages = n * (m + op.dv) == 0 ? 0 : op.pages;
    for (attn_int p = 0; p < pages; p++) {
        mask.pairs = pairs ? pairs + p * mask_stride : NULL;
        const void *Q = gw_at(op.Q, p * n * op.dk, cls);
        const void *K = gw_at(op.K, p * m * op.dk, cls);
        const void *V = gw_at(op.V, p * m * op.dv, cls);
        void *S_p = gw_at_out(s_out, p * n * m, cls);
        void *A_p = gw_at_out(a_out, p * n * m, cls);
        void *M_p = gw_at_out(m_out, p * n * op.dv, cls);
        if ((cls == GW_SINGLE
                 ? attn_sdpa_forward_f(n, m, op.dk, op.dv, Q, n, K, m, V, m,
                                       &mask, S_p, A_p, M_p, n, work)
                 : attn_sdpa_forward(n, m, op.dk, op.dv, Q, n, K, m, V, m,
                                     &mask, S_p, A_p, M_p, n, work))
            != ATTN_OK)
            status = ATTN_ERR_OVERFLOW;
    }
    mxFree(work);
    gw_status(status);

    plhs[0] = M;
    if (nlhs > 1)
        plhs[1] = A;
    else
        mxDestroyArray(A);
    if (nlhs > 2)
        plhs[2] = S;
    else
        mxDestroyArray(S);
}
