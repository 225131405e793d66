#!/usr/bin/python3
# bench_torch.py: the PyTorch side of bench_torch.m, the causal
# self-attention block Y = X + MHA(X) (nn.MultiheadAttention, float64, no
# biases) forward + backward on the weights and inputs bench_torch.m wrote.
#
#   bench_torch.py DATA N D H THREADS REPS
#
# DATA holds, as raw little-endian doubles in Octave's column-major order,
# X (n x d), dY (n x d), W_Q, W_K, W_V (d x d) and W_O (d x d).  Prints one
# line "torch SECONDS CHECKS..." with the median time of REPS passes (after
# one warm-up pass) and, for the agreement check, sum (Y), and the norms of
# the gradients of W_Q, W_K, W_V, W_O and X.  A benchmark, not a test.
import sys
import time

import numpy as np
import torch


def main():
    path = sys.argv[1]
    n, d, h, threads, reps = (int(a) for a in sys.argv[2:7])
    torch.set_num_threads(threads)
    raw = np.fromfile(path, dtype="<f8")
    sizes = [n * d, n * d, d * d, d * d, d * d, d * d]
    parts, at = [], 0
    for size in sizes:
        parts.append(raw[at:at + size])
        at += size
    X, dY = (p.reshape((n, d), order="F") for p in parts[:2])
    W_Q, W_K, W_V, W_O = (p.reshape((d, d), order="F") for p in parts[2:])

    # tokens are rows on both sides: torch computes x @ W.T, so its weights
    # are the transposes of the package's
    mha = torch.nn.MultiheadAttention(d, h, bias=False, batch_first=True,
                                      dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.from_numpy(
            np.concatenate([W_Q.T, W_K.T, W_V.T])))
        mha.out_proj.weight.copy_(torch.from_numpy(W_O.T.copy()))
    x = torch.from_numpy(X.copy()).unsqueeze(0).requires_grad_(True)
    dy = torch.from_numpy(dY.copy()).unsqueeze(0)
    causal = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)

    def step():
        mha.zero_grad(set_to_none=True)
        x.grad = None
        y = x + mha(x, x, x, attn_mask=causal, need_weights=False)[0]
        y.backward(dy)
        return y

    step()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        y = step()
        times.append(time.perf_counter() - t0)
    g = mha.in_proj_weight.grad
    checks = [y.sum().item(), g[:d].norm().item(), g[d:2 * d].norm().item(),
              g[2 * d:].norm().item(), mha.out_proj.weight.grad.norm().item(),
              x.grad.norm().item()]
    print("torch %.6f %s" % (float(np.median(times)),
                             " ".join("%.17g" % c for c in checks)))


if __name__ == "__main__":
    main()
