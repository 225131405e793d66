/* attn_backward: MEX gateway; help text in attn_backward.m.
 * G = attn_backward (dY, T, B) for a trace T of attn_self, attn_masked or
 * attn_cross. */
#include "gateway.h"

#include <math.h>
#include <string.h>

/* A field of the trace, checked against the shape the forward pass gave;
 * kept in *in (named "T.field") for gw_block_status, which scans it for
 * NaN and Inf after the core, only if the core failed. */
static const void *trace_field(const mxArray *T, const char *field,
                               gw_input *in, int ndims, const attn_int *dims,
                               gw_real cls)
{
    gw_dims got, want = { ndims, { 1, 1, 1, 1, 1, 1, 1, 1 } };
    for (int k = 0; k < ndims; k++)
        want.dim[k] = dims[k];
    in->array = gw_field(T, "trace T", field);
    const void *p = gw_rows_arg(in->array, in->name, ndims, &got, cls);
    gw_expect(in->name, &got, &want, "the shape the forward pass gave");
    return p;
}

/* The trace was made with as many heads as B has. */
static void same_heads(const mxArray *T, attn_int heads)
{
    const mxArray *f = gw_field(T, "trace T", "heads");
    if (!mxIsDouble(f) || mxIsComplex(f) || mxIsSparse(f)
        || mxGetNumberOfElements(f) != 1)
        mexErrMsgIdAndTxt("attention:field", "T.heads must be the number of "
                          "heads of the forward pass, a double scalar");
    const double h = mxGetScalar(f);
    if (h != (double) heads)
        mexErrMsgIdAndTxt("attention:trace",
                          "T.heads = %.15g but B.heads = %ld: T must be the "
                          "trace of the forward pass with this block B",
                          h, (long) heads);
}

/* Entry i of an array of the type cls, as a double. */
static double entry(const void *p, attn_int i, gw_real cls)
{
    return cls == GW_SINGLE ? (double) ((const float *) p)[i]
                            : ((const double *) p)[i];
}

/* The first row of the first batch item of the trace field P (rows x cols,
 * ld rows) equals that row of X (rows x width) times W (width x cols) plus
 * the bias b (1 x cols, or NULL), up to rounding (of double, or of single:
 * a product of width terms rounded in single is off by up to about
 * width*eps('single') of their sizes): a cheap sign that the trace came
 * from these weights (rotary positions leave the first row, position 0, as
 * it is).  The row is gathered first so that every product reads memory
 * in order. */
static void same_product(const void *X, attn_int rows, attn_int width,
                         const void *W, const void *b, attn_int cols,
                         const void *P, gw_real cls, const char *p_name,
                         const char *x_name, const char *w_name)
{
    const double tol = cls == GW_SINGLE ? 1e-3 : 1e-10;
    double *x = mxMalloc((size_t) (width > 0 ? width : 1) * sizeof(double));
    for (attn_int k = 0; k < width; k++)
        x[k] = entry(X, k * rows, cls);
    for (attn_int c = 0; c < cols; c++) {
        double sum = b ? entry(b, c, cls) : 0.0, size = fabs(sum);
        for (attn_int k = 0; k < width; k++) {
            const double xw = x[k] * entry(W, c * width + k, cls);
            sum += xw;
            size += fabs(xw);
        }
        const double p = entry(P, c * rows, cls);
        if (fabs(p - sum) > tol * size)
            mexErrMsgIdAndTxt("attention:trace",
                              "%s(1,%ld,1) is %.6g but %s(1,:,1)*%s(:,%ld)%s "
                              "is %.6g: T must be the trace of the forward "
                              "pass with this block B (the same weights)",
                              p_name, (long) c + 1, p, x_name,
                              w_name, (long) c + 1, b ? " + bias" : "",
                              sum);
    }
    mxFree(x);
}

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    gw_nargs(nlhs, nrhs, 3, 3, 1);
    const mxArray *T = prhs[1];
    if (!mxIsStruct(T) || mxGetNumberOfElements(T) != 1)
        mexErrMsgIdAndTxt("attention:type",
                          "trace T must be the 1x1 struct returned by "
                          "attn_self, attn_masked or attn_cross");

    char kind[16] = "";
    const mxArray *kind_arg = gw_field(T, "trace T", "kind");
    if (!mxIsChar(kind_arg)
        || mxGetString(kind_arg, kind, sizeof kind) != 0
        || (strcmp(kind, "self") && strcmp(kind, "masked")
            && strcmp(kind, "cross")))
        mexErrMsgIdAndTxt("attention:field",
                          "T.kind must be \"self\", \"masked\" or \"cross\"");
    const int cross = strcmp(kind, "cross") == 0;

    /* the inputs, in the order gw_block_status names a non-finite one */
    const char *q_name = cross ? "T.D" : "T.X";
    gw_input inputs[8] = { { prhs[0], "dY" },  { NULL, q_name },
                           { NULL, "T.E" },    { NULL, "T.Q" },
                           { NULL, "T.K" },    { NULL, "T.V" },
                           { NULL, "T.A" },    { NULL, "T.message" } };
    gw_dims dy, dq, dkv;
    const gw_real cls = gw_class_of(prhs[0], "dY");
    const void *dY = gw_rows_arg(prhs[0], "dY", 3, &dy, cls);
    inputs[1].array = gw_field(T, "trace T", cross ? "D" : "X");
    const void *Xq = gw_rows_arg(inputs[1].array, q_name, 3, &dq, cls);
    gw_expect(q_name, &dq, &dy, "the shape of dY");
    const void *Xkv = Xq;
    dkv = dq;
    if (cross) {
        inputs[2].array = gw_field(T, "trace T", "E");
        Xkv = gw_rows_arg(inputs[2].array, "T.E", 3, &dkv, cls);
        gw_dims want = dkv;
        want.dim[2] = dq.dim[2];
        gw_expect("T.E", &dkv, &want, "m x d_src x Bt, Bt the batch of dY");
    }

    attn_shape s;
    gw_weights w;
    const gw_rows q_rows = { q_name, &dq }, kv_rows = { cross ? "T.E" : "T.X",
                                                       &dkv };
    gw_block(prhs[2], &q_rows, &kv_rows, cross, cls, &w, &s);
    const void *const *wp = w.array;
    same_heads(T, s.heads);
    s.n = dq.dim[0];
    s.m = dkv.dim[0];
    s.batch = dq.dim[2];
    s.causal = strcmp(kind, "masked") == 0;
    s.past = 0;
    gw_fits_blas("n", s.n);
    gw_fits_blas("m", s.m);
    const attn_int n = s.n, m = s.m, h = s.heads, Bt = s.batch;
    const attn_int hk = h * s.dk, hv = h * s.dv;
    const attn_int hk_kv = s.kv_heads * s.dk, hv_kv = s.kv_heads * s.dv;

    const attn_int q_dims[3] = { n, hk, Bt }, k_dims[3] = { m, hk_kv, Bt };
    const attn_int v_dims[3] = { m, hv_kv, Bt }, w_dims[4] = { n, m, h, Bt };
    const attn_int msg_dims[3] = { n, hv, Bt };
    /* the trace's arrays read (the core's trace holds them writable) */
    void *Q = (void *) trace_field(T, "Q", &inputs[3], 3, q_dims, cls);
    void *K = (void *) trace_field(T, "K", &inputs[4], 3, k_dims, cls);
    void *V = (void *) trace_field(T, "V", &inputs[5], 3, v_dims, cls);
    void *A = (void *) trace_field(T, "A", &inputs[6], 4, w_dims, cls);
    void *message = (void *) trace_field(T, "message", &inputs[7], 3,
                                         msg_dims, cls);
    if (n > 0 && Bt > 0)
        same_product(Xq, n, s.d, wp[GW_W_Q], wp[GW_B_Q], hk, Q, cls, "T.Q",
                     q_name, "B.W_Q");
    if (m > 0 && Bt > 0) {
        const char *kv_name = cross ? "T.E" : "T.X";
        same_product(Xkv, m, s.d_src, wp[GW_W_K], wp[GW_B_K], hk_kv, K, cls,
                     "T.K", kv_name, "B.W_K");
        same_product(Xkv, m, s.d_src, wp[GW_W_V], wp[GW_B_V], hv_kv, V, cls,
                     "T.V", kv_name, "B.W_V");
    }
    const mxArray *delta = mxGetField(T, 0, "delta");
    if (delta != NULL && n > 0 && Bt > 0) {
        const attn_int d_dims[3] = { n, s.d, Bt };
        gw_input delta_in = { NULL, "T.delta" };  /* read by this check alone */
        same_product(message, n, hv, wp[GW_W_O], wp[GW_B_O], s.d,
                     trace_field(T, "delta", &delta_in, 3, d_dims, cls), cls,
                     "T.delta", "T.message", "B.W_O");
    }

    gw_fits_memory((double) n * s.d * Bt + (double) m * s.d_src * Bt
                   + (double) attn_block_backward_work(&s), cls);
    const attn_int wq[2] = { s.d, hk }, wk[2] = { s.d_src, hk_kv };
    const attn_int wv[2] = { s.d_src, hv_kv }, wo[2] = { hv, s.d };
    const attn_int xq[3] = { n, s.d, Bt }, xkv[3] = { m, s.d_src, Bt };
    mxArray *gW_Q = gw_new_real(cls, 2, wq), *gW_K = gw_new_real(cls, 2, wk);
    mxArray *gW_V = gw_new_real(cls, 2, wv), *gW_O = gw_new_real(cls, 2, wo);
    mxArray *dX_q = gw_new_real(cls, 3, xq);
    mxArray *dX_kv = cross ? gw_new_real(cls, 3, xkv) : dX_q;
    /* the gradients of the biases B has: 1 x the columns of wq, wk, wv,
     * and 1 x d */
    const attn_int bias_cols[4] = { hk, hk_kv, hv_kv, s.d };
    mxArray *gb[4];
    void *gbp[4];
    for (int k = 0; k < 4; k++) {
        const attn_int dims[2] = { 1, bias_cols[k] };
        const int has = wp[GW_B_Q + k] != NULL;
        gb[k] = has ? gw_new_real(cls, 2, dims) : NULL;
        gbp[k] = has ? gw_data(gb[k]) : NULL;
    }

    void *work = gw_workspace(attn_block_backward_work(&s), cls);
    int status;
    if (cls == GW_SINGLE) {
        const attn_trace_f t = { Q, K, V, NULL, A, message, NULL, NULL };
        attn_grads_f g = { gw_data(gW_Q), gw_data(gW_K), gw_data(gW_V),
                           gw_data(gW_O), gw_data(dX_q), gw_data(dX_kv),
                           gbp[0], gbp[1], gbp[2], gbp[3] };
        status = attn_block_backward_f(&s, &w.f, Xq, Xkv, &t, dY, &g, work);
    } else {
        const attn_trace t = { Q, K, V, NULL, A, message, NULL, NULL };
        attn_grads g = { gw_data(gW_Q), gw_data(gW_K), gw_data(gW_V),
                         gw_data(gW_O), gw_data(dX_q), gw_data(dX_kv),
                         gbp[0], gbp[1], gbp[2], gbp[3] };
        status = attn_block_backward(&s, &w.d, Xq, Xkv, &t, dY, &g, work);
    }
    mxFree(work);
    gw_block_status(status, inputs, 8, prhs[2], NULL, cls);

    /* W_Q, W_K, W_V, W_O, the biases B has, then dX (or dD, dE) */
    static const char *bias_names[4] = { "b_Q", "b_K", "b_V", "b_O" };
    const char *fields[10] = { "W_Q", "W_K", "W_V", "W_O" };
    int nf = 4;
    for (int k = 0; k < 4; k++)
        if (gb[k] != NULL)
            fields[nf++] = bias_names[k];
    fields[nf++] = cross ? "dD" : "dX";
    if (cross)
        fields[nf++] = "dE";
    mxArray *G = mxCreateStructMatrix(1, 1, nf, fields);
    mxSetField(G, 0, "W_Q", gW_Q);
    mxSetField(G, 0, "W_K", gW_K);
    mxSetField(G, 0, "W_V", gW_V);
    mxSetField(G, 0, "W_O", gW_O);
    for (int k = 0; k < 4; k++)
        if (gb[k] != NULL)
            mxSetField(G, 0, bias_names[k], gb[k]);
    mxSetField(G, 0, cross ? "dD" : "dX", dX_q);
    if (cross)
        mxSetField(G, 0, "dE", dX_kv);
    plhs[0] = G;
}
