/* __cross_entropy__: internal MEX gateway; its entry point and help are
 * inst/private/model_loss.m (the comment before model_loss).
 *   [loss, row_loss, dlogits] = __cross_entropy__ (logits, labels, allow,
 *                                                  w, smoothing)
 *   logits n x V x Bt (real double or single), labels n x Bt ids 1..V,
 *   allow n x Bt logical, w n x Bt row weights (double or logical),
 *   smoothing a double scalar in [0, 1)
 * One pass for the loss and one for its gradient, written into dlogits:
 * Octave's formula made five arrays of the logits' size. */
#include "gateway.h"

/* dims of an n x Bt array: the rows and pages of the logits */
static void expect_rows(const char *name, const gw_dims *got, attn_int n,
                        attn_int pages)
{
    const gw_dims want = { 2, { n, pages, 1, 1, 1, 1, 1, 1 } };
    gw_expect(name, got, &want, "n x Bt, the rows and pages of the logits");
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    gw_dims dz, dl, da, dw;
    gw_nargs(nlhs, nrhs, 5, 5, 3);
    const gw_real cls = gw_class_of(prhs[0], "logits");
    const void *logits = gw_rows_arg(prhs[0], "logits", 3, &dz, cls);
    const attn_int n = dz.dim[0], V = dz.dim[1], pages = dz.dim[2];
    const double *ids = gw_rows_arg(prhs[1], "labels", 2, &dl, GW_DOUBLE);
    expect_rows("labels", &dl, n, pages);
    const unsigned char *allow = gw_logical(prhs[2], "allow", 2, &da);
    expect_rows("allow", &da, n, pages);
    const mxArray *w_arg = prhs[3];
    const int w_logical = mxIsLogical(w_arg);
    const void *w_in = w_logical ? (const void *) gw_logical(w_arg, "w", 2, &dw)
                                 : gw_rows_arg(w_arg, "w", 2, &dw, GW_DOUBLE);
    expect_rows("w", &dw, n, pages);
    const mxArray *s_arg = prhs[4];
    const double smoothing = mxIsDouble(s_arg) && !mxIsComplex(s_arg)
                                     && mxGetNumberOfElements(s_arg) == 1
                                 ? mxGetScalar(s_arg)
                                 : -1.0;
    if (!(smoothing >= 0.0 && smoothing < 1.0))
        mexErrMsgIdAndTxt("attention:type",
                          "smoothing must be a double scalar in [0, 1)");

    const attn_int rows = n * pages;
    attn_int *label = mxMalloc((size_t) (rows > 0 ? rows : 1)
                               * sizeof *label);
    double *w = mxMalloc((size_t) (rows > 0 ? rows : 1) * sizeof *w);
    for (attn_int i = 0; i < rows; i++) {
        const double id = ids[i];
        if (!(id >= 1.0 && id <= (double) V && id == (attn_int) id))
            mexErrMsgIdAndTxt("attention:label",
                              "labels(%ld) = %g is not a word id in 1..%ld",
                              (long) i + 1, id, (long) V);
        label[i] = (attn_int) id;
        w[i] = w_logical ? (double) ((const unsigned char *) w_in)[i]
                         : ((const double *) w_in)[i];
    }

    const attn_int one[2] = { 1, 1 }, row_dims[2] = { n, pages };
    mxArray *loss = gw_new_real(cls, 2, one);
    mxArray *row_loss = gw_new_real(cls, 2, row_dims);
    mxArray *dlogits = nlhs > 2 ? gw_new_real(cls, 3, dz.dim) : NULL;
    void *dl_data = dlogits ? gw_data(dlogits) : NULL;
    void *work = gw_workspace((size_t) n * (size_t) (pages + 2), cls);
    if (cls == GW_SINGLE)
        attn_cross_entropy_f(n, V, pages, logits, label, allow, w, smoothing,
                             gw_data(loss), gw_data(row_loss), dl_data,
                             work);
    else
        attn_cross_entropy(n, V, pages, logits, label, allow, w, smoothing,
                           gw_data(loss), gw_data(row_loss), dl_data, work);
    mxFree(work);
    mxFree(w);
    mxFree(label);
    mxArray *results[3] = { loss, row_loss, dlogits };
    gw_return(nlhs, plhs, nlhs > 2 ? 3 : 2, results);
}
