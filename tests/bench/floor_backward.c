/* floor_backward: the MEX interface of attn_backward with no attention in
 * it, for `make bench`.  G = floor_backward (dY, T, B) reads what
 * attn_backward reads (dY, the trace fields it uses, the five fields of B)
 * and returns a gradient struct of the same fields and shapes,
 * uninitialised.  Its time is the least any MEX function with this
 * interface can take. */
#include "mex.h"

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    static const char *used[] = { "kind", "X", "Q", "K", "V", "A", "message" };
    static const char *weights[] = { "W_Q", "W_K", "W_V", "W_O" };
    static const char *fields[] = { "W_Q", "W_K", "W_V", "W_O", "dX" };
    (void) nlhs;
    if (nrhs != 3)
        mexErrMsgIdAndTxt("attention:nargin", "expects dY, T, B");
    const mxArray *dY = prhs[0], *T = prhs[1], *B = prhs[2];
    (void) mxGetDoubles(dY);
    (void) mxGetDimensions(dY);
    for (int i = 0; i < 7; i++) {
        const mxArray *f = mxGetField(T, 0, used[i]);
        (void) mxGetData(f);
        (void) mxGetDimensions(f);
    }
    (void) mxGetScalar(mxGetField(B, 0, "heads"));
    mxArray *G = mxCreateStructMatrix(1, 1, 5, fields);
    for (int i = 0; i < 4; i++) {
        const mxArray *W = mxGetField(B, 0, weights[i]);
        (void) mxGetDoubles(W);
        const mwSize dims[2] = { mxGetM(W), mxGetN(W) };
        mxSetField(G, 0, fields[i], mxCreateUninitNumericArray(
                       2, dims, mxDOUBLE_CLASS, mxREAL));
    }
    const mwSize dims[2] = { mxGetM(dY), mxGetN(dY) };
    mxSetField(G, 0, "dX", mxCreateUninitNumericArray(2, dims, mxDOUBLE_CLASS,
                                                       mxREAL));
    plhs[0] = G;
}
