/* __softmax_rows__: internal MEX gateway; its entry point and help are
 * inst/private/softmax_rows.m.
 *   P = __softmax_rows__ (Z)   Z n x m x pages... (real double or single),
 *                              P its softmax along every row (dim 2)
 * One result written once: the softmax in Octave made three arrays of Z's
 * size (Z - max, exp, the quotient), each on fresh pages for a vocabulary's
 * logits (129 x 50,257: 52 MB). */
#include "gateway.h"

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    gw_dims dz;
    gw_nargs(nlhs, nrhs, 1, 1, 1);
    const gw_real cls = gw_class_of(prhs[0], "Z");
    const void *Z = gw_rows_arg(prhs[0], "Z", GW_MAX_DIMS, &dz, cls);
    const attn_int n = dz.dim[0], m = dz.dim[1], pages = gw_pages(&dz, 2);
    mxArray *P = gw_new_real(cls, dz.ndims, dz.dim);
    int status = ATTN_OK;
    if (n * m > 0) {
        void *work = gw_workspace(attn_sdpa_forward_work(n, m), cls);
        status = cls == GW_SINGLE
                     ? attn_softmax_forward_f(n, m, pages, Z, gw_data(P), work)
                     : attn_softmax_forward(n, m, pages, Z, gw_data(P), work);
        mxFree(work);
    }
    gw_status(status);
    plhs[0] = P;
}
