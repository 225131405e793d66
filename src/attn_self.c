/* attn_self: MEX gateway; help text in attn_self.m. */
#include "gateway.h"

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    gw_block_forward(BLOCK_SELF, nlhs, plhs, nrhs, prhs);
}
