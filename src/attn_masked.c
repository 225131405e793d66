/* attn_masked: MEX gateway; help text in attn_masked.m. */
#include "gateway.h"

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    gw_block_forward(BLOCK_MASKED, nlhs, plhs, nrhs, prhs);
}
