/* floor_forward: the MEX interface of attn_self with no attention in it,
 * for `make bench`.  [Y, T] = floor_forward (X, B) reads what attn_self
 * reads (X, the five fields of B) and returns what it returns (Y and a
 * trace struct of the same twelve fields and shapes), uninitialised.  Its
 * time is the least any MEX function with this interface can take. */
#include "mex.h"

static mxArray *matrix(mwSize rows, mwSize cols, mwSize pages)
{
    const mwSize dims[3] = { rows, cols, pages };
    return mxCreateUninitNumericArray(3, dims, mxDOUBLE_CLASS, mxREAL);
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    static const char *weights[] = { "W_Q", "W_K", "W_V", "W_O" };
    static const char *fields[] = {
        "kind", "heads", "X", "key_allow", "Q", "K", "V", "scores", "A",
        "message", "delta", "out" };
    if (nrhs != 2)
        mexErrMsgIdAndTxt("attention:nargin", "expects X, B");
    const mxArray *X = prhs[0], *B = prhs[1];
    (void) mxGetDoubles(X);
    const mwSize n = mxGetM(X), d = mxGetN(X);
    const mwSize h = (mwSize) mxGetScalar(mxGetField(B, 0, "heads"));
    for (int i = 0; i < 4; i++) {  /* X, B are read as attn_self reads them */
        const mxArray *W = mxGetField(B, 0, weights[i]);
        (void) mxGetDoubles(W);
        (void) mxGetDimensions(W);
    }
    const mwSize hk = mxGetN(mxGetField(B, 0, "W_Q"));

    plhs[0] = matrix(n, d, 1);
    if (nlhs < 2)
        return;
    mxArray *T = mxCreateStructMatrix(1, 1, 12, fields);
    mxSetField(T, 0, "kind", mxCreateString("self"));
    mxSetField(T, 0, "heads", mxCreateDoubleScalar((double) h));
    mxSetField(T, 0, "X", matrix(n, d, 1));
    mxSetField(T, 0, "key_allow", mxCreateLogicalMatrix(0, 0));
    mxSetField(T, 0, "Q", matrix(n, hk, 1));
    mxSetField(T, 0, "K", matrix(n, hk, 1));
    mxSetField(T, 0, "V", matrix(n, hk, 1));
    mxSetField(T, 0, "scores", matrix(n, n, h));
    mxSetField(T, 0, "A", matrix(n, n, h));
    mxSetField(T, 0, "message", matrix(n, hk, 1));
    mxSetField(T, 0, "delta", matrix(n, d, 1));
    mxSetField(T, 0, "out", matrix(n, d, 1));
    plhs[1] = T;
}
