#!/usr/bin/python3
# bench_torch.py: the PyTorch side of bench_torch.m.  A benchmark, not a
# test: it runs only where Debian's python3-torch is installed.
#
#   bench_torch.py block DATA N D H THREADS REPS
#       The causal self-attention block Y = X + MHA(X)
#       (nn.MultiheadAttention, float64, no biases) forward + backward.
#       DATA holds, as raw little-endian doubles in Octave's column-major
#       order, X (n x d), dY (n x d), W_Q, W_K, W_V (d x d) and W_O (d x d).
#       Prints "torch SECONDS CHECKS...": the median time of REPS passes
#       (after one warm-up pass) and, for the agreement check, sum (Y) and
#       the norms of the gradients of W_Q, W_K, W_V, W_O and X.
#
#   bench_torch.py model DIR THREADS TASK...
#       The package's encoder-decoder (pre-norm, learned positions) written
#       out in PyTorch, on the weights, batches and sources bench_torch.m
#       wrote to DIR (model.txt: one "name rows cols" line a parameter,
#       model.bin its values; config.txt; batches.bin; sources.bin).  TASKs:
#         check  the losses of the first CHECK steps of Adam on the batches,
#                float64 ("losses L1 L2 ...")
#         train  seconds per Adam step over every batch, median of REPS
#                epochs, in float64 and float32 ("train64 S", "train32 S")
#         decode greedy decoding of every source with a key/value cache,
#                one at a time and all at once, float64 and float32
#                ("decode1_64 S" ...), and the ids written for the first
#                CHECK sources ("ids K ID ...")
import math
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F


def block_main(args):
    path = args[0]
    n, d, h, threads, reps = (int(a) for a in args[1:6])
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


# ---- the package's encoder-decoder ----------------------------------------

def read_config(path):
    config = {}
    with open(path) as f:
        for line in f:
            key, value = line.split()
            config[key] = float(value)
    return config


def read_params(stem):
    """{name: array} in the order of STEM.txt, column-major values."""
    raw = np.fromfile(stem + ".bin", dtype="<f8")
    params, at = {}, 0
    with open(stem + ".txt") as f:
        for line in f:
            name, rows, cols = line.split()
            rows, cols = int(rows), int(cols)
            params[name] = raw[at:at + rows * cols].reshape((rows, cols),
                                                            order="F")
            at += rows * cols
    return params


def read_batches(path):
    """Batches as bench_torch.m wrote them: per batch Bt, n_src, n_tgt, then
    src, src_allow (n_src x Bt), tgt_in, tgt_allow, labels (n_tgt x Bt)."""
    raw = np.fromfile(path, dtype="<f8")
    batches, at = [], 0
    while at < raw.size:
        Bt, ns, nt = (int(v) for v in raw[at:at + 3])
        at += 3
        fields = []
        for rows in (ns, ns, nt, nt, nt):
            fields.append(raw[at:at + rows * Bt].reshape((rows, Bt),
                                                         order="F").T.copy())
            at += rows * Bt
        src, src_allow, tgt_in, tgt_allow, labels = fields
        batches.append({
            "src": torch.from_numpy(src.astype(np.int64) - 1),
            "src_allow": torch.from_numpy(src_allow != 0),
            "tgt_in": torch.from_numpy(tgt_in.astype(np.int64) - 1),
            "tgt_allow": torch.from_numpy(tgt_allow != 0),
            "labels": torch.from_numpy(labels.astype(np.int64) - 1)})
    return batches


def read_sources(path):
    """Source id rows (0-based, <eos> included): per source its length,
    then its ids."""
    raw = np.fromfile(path, dtype="<f8")
    sources, at = [], 0
    while at < raw.size:
        n = int(raw[at])
        sources.append(raw[at + 1:at + 1 + n].astype(np.int64) - 1)
        at += 1 + n
    return sources


class Model:
    """The package's pre-norm encoder-decoder: tokens are rows (x @ W), no
    biases in attention, ReLU feed-forward, layer norms with eps 1e-5."""

    def __init__(self, arrays, config, dtype):
        self.p = {k: torch.tensor(v, dtype=dtype, requires_grad=True)
                  for k, v in arrays.items()}
        self.h = int(config["heads"])
        self.enc_layers = int(config["encoder_layers"])
        self.dec_layers = int(config["decoder_layers"])

    def __getitem__(self, name):
        return self.p[name]

    def norm(self, x, name):
        g = self[name + ".gain"].reshape(-1)
        return F.layer_norm(x, g.shape, g, self[name + ".bias"].reshape(-1),
                            eps=1e-5)

    def heads(self, x):  # (B, n, h*dk) -> (B, h, n, dk)
        B, n, w = x.shape
        return x.view(B, n, self.h, w // self.h).transpose(1, 2)

    def attend(self, q, K, V, allow, name):
        """q (B, n, d) against the heads K, V (B, h, m, dk); allow
        broadcasts to (B, 1, n, m).  Adds nothing for the residual."""
        Q = self.heads(q @ self[name + ".W_Q"])
        S = Q @ K.transpose(-1, -2) / math.sqrt(Q.shape[-1])
        A = torch.softmax(S.masked_fill(~allow, -math.inf), dim=-1)
        M = (A @ V).transpose(1, 2).reshape(q.shape[0], q.shape[1], -1)
        return M @ self[name + ".W_O"]

    def keys(self, x, name):
        return (self.heads(x @ self[name + ".W_K"]),
                self.heads(x @ self[name + ".W_V"]))

    def ffn(self, x, name):
        hidden = torch.relu(x @ self[name + ".W_1"] + self[name + ".b_1"])
        return hidden @ self[name + ".W_2"] + self[name + ".b_2"]

    def encode(self, src, src_allow):
        x = self["src_embed"][src] + self["src_pos"][:src.shape[1]]
        allow = src_allow[:, None, None, :]
        for l in range(1, self.enc_layers + 1):
            name = "encoder.%d." % l
            z = self.norm(x, name + "norm_self")
            x = x + self.attend(z, *self.keys(z, name + "self"), allow,
                                name + "self")
            x = x + self.ffn(self.norm(x, name + "norm_ffn"), name + "ffn")
        return self.norm(x, "encoder_norm")

    def loss(self, b):
        E = self.encode(b["src"], b["src_allow"])
        src_allow = b["src_allow"][:, None, None, :]
        n = b["tgt_in"].shape[1]
        causal = torch.tril(torch.ones(n, n, dtype=torch.bool))
        allow = b["tgt_allow"][:, None, None, :] & causal
        y = self["tgt_embed"][b["tgt_in"]] + self["tgt_pos"][:n]
        for l in range(1, self.dec_layers + 1):
            name = "decoder.%d." % l
            z = self.norm(y, name + "norm_self")
            y = y + self.attend(z, *self.keys(z, name + "self"), allow,
                                name + "self")
            z = self.norm(y, name + "norm_cross")
            y = y + self.attend(z, *self.keys(E, name + "cross"), src_allow,
                                name + "cross")
            y = y + self.ffn(self.norm(y, name + "norm_ffn"), name + "ffn")
        logits = (self.norm(y, "decoder_norm") @ self["W_vocab"]
                  + self["b_vocab"])
        logp = torch.log_softmax(logits, dim=-1)
        keep = b["tgt_allow"]
        labels = torch.where(keep, b["labels"], torch.zeros_like(b["labels"]))
        nll = -logp.gather(-1, labels[..., None])[..., 0]
        return (nll * keep).sum() / max(int(keep.sum()), 1)

    def greedy(self, src, src_allow, bos, eos, steps):
        """Greedy decoding of a batch of sources with a key/value cache:
        the encoder and the cross-attention keys once, then one new row per
        sentence a step; a sentence stops at its own <eos>."""
        B = src.shape[0]
        E = self.encode(src, src_allow)
        src_allow = src_allow[:, None, None, :]
        cross = [self.keys(E, "decoder.%d.cross" % l)
                 for l in range(1, self.dec_layers + 1)]
        cache = [None] * self.dec_layers
        token = torch.full((B,), bos, dtype=torch.int64)
        out = torch.zeros((B, 0), dtype=torch.int64)
        done = torch.zeros(B, dtype=torch.bool)
        everything = torch.ones((1, 1, 1, 1), dtype=torch.bool)
        for t in range(steps):
            y = (self["tgt_embed"][token] + self["tgt_pos"][t])[:, None, :]
            for l in range(1, self.dec_layers + 1):
                name = "decoder.%d." % l
                z = self.norm(y, name + "norm_self")
                K, V = self.keys(z, name + "self")
                if cache[l - 1] is not None:
                    K = torch.cat([cache[l - 1][0], K], dim=2)
                    V = torch.cat([cache[l - 1][1], V], dim=2)
                cache[l - 1] = (K, V)
                y = y + self.attend(z, K, V, everything, name + "self")
                z = self.norm(y, name + "norm_cross")
                y = y + self.attend(z, *cross[l - 1], src_allow,
                                    name + "cross")
                y = y + self.ffn(self.norm(y, name + "norm_ffn"),
                                 name + "ffn")
            logits = (self.norm(y[:, 0], "decoder_norm") @ self["W_vocab"]
                      + self["b_vocab"][0])
            token = logits.argmax(dim=-1)
            out = torch.cat([out, torch.where(done, -1, token)[:, None]], 1)
            done |= token == eos
            if bool(done.all()):
                break
        return out


def adam(model, config):
    return torch.optim.Adam(model.p.values(), lr=config["lr"],
                            betas=(config["beta1"], config["beta2"]),
                            eps=config["epsilon"])


def train_seconds(arrays, config, batches, dtype, reps):
    model = Model(arrays, config, dtype)
    opt = adam(model, config)

    def epoch():
        for b in batches:
            opt.zero_grad(set_to_none=True)
            model.loss(b).backward()
            opt.step()

    epoch()  # warm-up
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        epoch()
        times.append((time.perf_counter() - t0) / len(batches))
    return float(np.median(times))


def pad_sources(sources):
    n = max(len(s) for s in sources)
    src = torch.zeros((len(sources), n), dtype=torch.int64)
    allow = torch.zeros((len(sources), n), dtype=torch.bool)
    for i, s in enumerate(sources):
        src[i, :len(s)] = torch.from_numpy(s)
        allow[i, :len(s)] = True
    return src, allow


def model_main(args):
    folder, threads, tasks = args[0], int(args[1]), args[2:]
    torch.set_num_threads(threads)
    config = read_config(folder + "/config.txt")
    arrays = read_params(folder + "/model")
    check = int(config["check"])
    reps = int(config["reps"])
    if "check" in tasks or "train" in tasks:
        batches = read_batches(folder + "/batches.bin")
    if "check" in tasks:
        model = Model(arrays, config, torch.float64)
        opt = adam(model, config)
        losses = []
        for b in batches[:check]:
            opt.zero_grad(set_to_none=True)
            loss = model.loss(b)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        print("losses " + " ".join("%.17g" % v for v in losses))
    if "train" in tasks:
        for bits, dtype in ((64, torch.float64), (32, torch.float32)):
            print("train%d %.6f" % (bits, train_seconds(arrays, config, batches,
                                                        dtype, reps)))
    if "decode" in tasks:
        sources = read_sources(folder + "/sources.bin")
        bos, eos = int(config["bos"]) - 1, int(config["eos"]) - 1
        steps = int(config["max_len"])
        for bits, dtype in ((64, torch.float64), (32, torch.float32)):
            model = Model(arrays, config, dtype)
            with torch.inference_mode():
                one = [None] * len(sources)
                t0 = time.perf_counter()
                for i, s in enumerate(sources):
                    src, allow = pad_sources([s])
                    one[i] = model.greedy(src, allow, bos, eos, steps)[0]
                t1 = time.perf_counter()
                src, allow = pad_sources(sources)
                model.greedy(src, allow, bos, eos, steps)
                t2 = time.perf_counter()
            print("decode1_%d %.6f" % (bits, t1 - t0))
            print("decodeB_%d %.6f" % (bits, t2 - t1))
            if bits == 64:
                for i in range(min(check, len(sources))):
                    ids = [int(v) + 1 for v in one[i] if v >= 0]
                    print("ids %d %s" % (i + 1, " ".join(map(str, ids))))


if __name__ == "__main__":
    if sys.argv[1] == "block":
        block_main(sys.argv[2:])
    elif sys.argv[1] == "model":
        model_main(sys.argv[2:])
    else:
        sys.exit("bench_torch.py: the first argument is block or model")
