/* attn_cross: MEX gateway; help text in attn_cross.m. */
#include "gateway.h"

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    gw_block_forward(BLOCK_CROSS, nlhs, plhs, nrhs, prhs);
}
