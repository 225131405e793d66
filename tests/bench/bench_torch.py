#!/usr/bin/python3
# bench_torch.py: the PyTorch side of bench_torch.m.  A benchmark, not a
# test: it runs only where Debian's python3-torch is installed.
#
#   bench_torch.py serve THREADS
#
# One long-lived process per thread count, so that PyTorch is measured in
# steady state: bench_torch.m starts it with OMP_NUM_THREADS,
# OPENBLAS_NUM_THREADS and MKL_NUM_THREADS set to THREADS and with glibc's
# malloc told to keep freed memory (GLIBC_TUNABLES), since a fresh process
# takes hundreds of minor page faults a step.  It talks through files named
# $ATTN_BENCH_MAILBOX.cmd (a command line, which it deletes once read) and
# $ATTN_BENCH_MAILBOX.out (its answer; each is written to NAME.tmp and
# renamed, so that the reader sees it whole): first "threads TORCH BLAS"
# (the counts read back from torch and from the BLAS library), then one
# answer a command, each ending with "end" (a failure: without it):
#
#   load DIR      the package's weights, config, batches and sources as
#                 bench_torch.m wrote them to DIR (model.txt: one
#                 "name rows cols" line a parameter, model.bin the values;
#                 config.txt; batches.bin; sources.bin)
#   check BITS    losses of the first steps of Adam, in float64 or float32
#                 ("losses ...")
#   train BITS    one warm-up epoch then one timed epoch of Adam steps over
#                 every batch from the loaded weights: "train SECONDS
#                 FAULTS" (seconds and minor page faults per step)
#   decode BITS   greedy decoding of every source as one batch with a
#                 key/value cache: "decode SECONDS FAULTS" for the call,
#                 then (float64) "ids K ID ..." for every source
#   block DATA N D H BITS
#                 the causal block Y = X + MHA(X) (nn.MultiheadAttention,
#                 float64 or float32, no biases) forward + backward on the
#                 arrays in DATA (X, dY: n x d; W_Q, W_K, W_V, W_O: d x d;
#                 raw little-endian doubles, column-major): one warm-up pass
#                 then "block SECONDS FAULTS SUM(Y) |dW_Q| |dW_K| |dW_V|
#                 |dW_O| |dX|" for one timed pass
#   quit
#
# The model is the package's pre-norm encoder-decoder written as a PyTorch
# user writes it for speed: packed Q/K/V projections (one product), scores
# by baddbmm with the mask as an additive bias, F.cross_entropy, and
# Adam (foreach=True).
import ctypes
import io
import math
import os
import resource
import sys
import time
import traceback

THREADS = int(sys.argv[2]) if len(sys.argv) > 2 else 1
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, str(THREADS))   # read when the libraries load

import numpy as np
import torch
import torch.nn.functional as F


def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def blas_threads():
    """The thread count of the BLAS library this process loaded (OpenBLAS
    answers openblas_get_num_threads), or -1 when it cannot tell."""
    with open("/proc/self/maps") as f:
        libs = {line.split()[-1] for line in f
                if "blas" in line and line.split()[-1].startswith("/")}
    for lib in sorted(libs):
        try:
            get = ctypes.CDLL(lib).openblas_get_num_threads
        except (OSError, AttributeError):
            continue
        return get()
    return -1


# ---- reading what bench_torch.m wrote ---------------------------------------

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
        labels = np.where(tgt_allow != 0, labels - 1, -100)  # -100: ignored
        batches.append({
            "src": torch.from_numpy(src.astype(np.int64) - 1),
            "src_allow": torch.from_numpy(src_allow != 0),
            "tgt_in": torch.from_numpy(tgt_in.astype(np.int64) - 1),
            "tgt_allow": torch.from_numpy(tgt_allow != 0),
            "labels": torch.from_numpy(labels.astype(np.int64))})
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


def pad_sources(sources):
    n = max(len(s) for s in sources)
    src = torch.zeros((len(sources), n), dtype=torch.int64)
    allow = torch.zeros((len(sources), n), dtype=torch.bool)
    for i, s in enumerate(sources):
        src[i, :len(s)] = torch.from_numpy(s)
        allow[i, :len(s)] = True
    return src, allow


# ---- the package's encoder-decoder ------------------------------------------

def packed(arrays):
    """The arrays with each self-attention's W_Q, W_K, W_V joined into one
    W_QKV (d x 3d) and each cross-attention's W_K, W_V into W_KV."""
    out = {}
    for name, v in arrays.items():
        stem, _, leaf = name.rpartition(".")
        if leaf in ("W_Q", "W_K", "W_V") and stem.endswith(".self"):
            if leaf == "W_Q":
                out[stem + ".W_QKV"] = np.concatenate(
                    [v, arrays[stem + ".W_K"], arrays[stem + ".W_V"]], axis=1)
        elif leaf in ("W_K", "W_V") and stem.endswith(".cross"):
            if leaf == "W_K":
                out[stem + ".W_KV"] = np.concatenate(
                    [v, arrays[stem + ".W_V"]], axis=1)
        else:
            out[name] = v
    return out


class Model:
    """The package's pre-norm encoder-decoder: tokens are rows (x @ W), no
    biases in attention, ReLU feed-forward, layer norms with eps 1e-5."""

    def __init__(self, arrays, config, dtype):
        self.p = {k: torch.tensor(v, dtype=dtype, requires_grad=True)
                  for k, v in packed(arrays).items()}
        self.dtype = dtype
        self.h = int(config["heads"])
        self.enc_layers = int(config["encoder_layers"])
        self.dec_layers = int(config["decoder_layers"])

    def __getitem__(self, name):
        return self.p[name]

    def norm(self, x, name):
        g = self[name + ".gain"].view(-1)
        return F.layer_norm(x, g.shape, g, self[name + ".bias"].view(-1),
                            eps=1e-5)

    def heads(self, x, B):
        """(B*n, h*dk) -> (B*h, n, dk)"""
        w = x.shape[-1] // self.h
        return x.view(B, -1, self.h, w).transpose(1, 2).reshape(-1, x.shape[0] // B, w)

    def bias(self, allow):
        """Additive mask (B*h, n, m) from allow (B, n or 1, m)."""
        B, n, m = allow.shape
        b = torch.zeros(allow.shape, dtype=self.dtype).masked_fill_(~allow, -math.inf)
        return b[:, None].expand(B, self.h, n, m).reshape(B * self.h, n, m)

    def attend(self, Q, K, V, bias, B, name):
        """Heads Q (B*h, n, dk), K, V (B*h, m, dk) -> the block's output
        rows (B*n, d) before the residual."""
        S = torch.baddbmm(bias, Q, K.transpose(1, 2),
                          alpha=1 / math.sqrt(Q.shape[-1]))
        M = torch.bmm(torch.softmax(S, dim=-1), V)
        n = Q.shape[1]
        M = M.view(B, self.h, n, -1).transpose(1, 2).reshape(B * n, -1)
        return M @ self[name + ".W_O"]

    def self_attention(self, z, bias, B, name):
        Q, K, V = (self.heads(x, B) for x in (z @ self[name + ".W_QKV"]).chunk(3, 1))
        return self.attend(Q, K, V, bias, B, name)

    def cross_keys(self, E, B, name):
        return tuple(self.heads(x, B) for x in (E @ self[name + ".W_KV"]).chunk(2, 1))

    def ffn(self, x, name):
        hidden = F.relu(torch.addmm(self[name + ".b_1"], x, self[name + ".W_1"]))
        return torch.addmm(self[name + ".b_2"], hidden, self[name + ".W_2"])

    def encode(self, src, src_bias):
        B, n = src.shape
        x = (F.embedding(src, self["src_embed"]) + self["src_pos"][:n]).view(B * n, -1)
        for l in range(1, self.enc_layers + 1):
            name = "encoder.%d." % l
            x = x + self.self_attention(self.norm(x, name + "norm_self"), src_bias,
                                        B, name + "self")
            x = x + self.ffn(self.norm(x, name + "norm_ffn"), name + "ffn")
        return self.norm(x, "encoder_norm")

    def loss(self, b):
        src_allow, tgt_allow = b["src_allow"], b["tgt_allow"]
        B, n = b["tgt_in"].shape
        src_bias = self.bias(src_allow[:, None, :])
        E = self.encode(b["src"], src_bias)
        causal = torch.ones(n, n, dtype=torch.bool).tril_()
        tgt_bias = self.bias(tgt_allow[:, None, :] & causal)
        cross_bias = src_bias.expand(-1, n, -1)
        y = (F.embedding(b["tgt_in"], self["tgt_embed"])
             + self["tgt_pos"][:n]).view(B * n, -1)
        for l in range(1, self.dec_layers + 1):
            name = "decoder.%d." % l
            y = y + self.self_attention(self.norm(y, name + "norm_self"), tgt_bias,
                                        B, name + "self")
            Q = self.heads(self.norm(y, name + "norm_cross") @ self[name + "cross.W_Q"], B)
            y = y + self.attend(Q, *self.cross_keys(E, B, name + "cross"),
                                cross_bias, B, name + "cross")
            y = y + self.ffn(self.norm(y, name + "norm_ffn"), name + "ffn")
        logits = torch.addmm(self["b_vocab"], self.norm(y, "decoder_norm"),
                             self["W_vocab"])
        return F.cross_entropy(logits, b["labels"].view(-1))

    def greedy(self, src, src_allow, bos, eos, steps):
        """Greedy decoding of a batch of sources with a key/value cache:
        the encoder and the cross-attention keys once, then one new row per
        sentence a step; a sentence stops at its own <eos>."""
        B = src.shape[0]
        src_bias = self.bias(src_allow[:, None, :])
        E = self.encode(src, src_bias)
        cross = [self.cross_keys(E, B, "decoder.%d.cross" % l)
                 for l in range(1, self.dec_layers + 1)]
        cache = [None] * self.dec_layers
        token = torch.full((B,), bos, dtype=torch.int64)
        out = torch.zeros((B, 0), dtype=torch.int64)
        done = torch.zeros(B, dtype=torch.bool)
        for t in range(steps):
            y = F.embedding(token, self["tgt_embed"]) + self["tgt_pos"][t]
            for l in range(1, self.dec_layers + 1):
                name = "decoder.%d." % l
                z = self.norm(y, name + "norm_self")
                Q, K, V = (self.heads(x, B) for x in (z @ self[name + "self.W_QKV"]).chunk(3, 1))
                if cache[l - 1] is not None:
                    K = torch.cat([cache[l - 1][0], K], dim=1)
                    V = torch.cat([cache[l - 1][1], V], dim=1)
                cache[l - 1] = (K, V)
                A = torch.softmax(torch.bmm(Q, K.transpose(1, 2))
                                  / math.sqrt(Q.shape[-1]), dim=-1)
                M = torch.bmm(A, V).view(B, -1)
                y = y + M @ self[name + "self.W_O"]
                Q = self.heads(self.norm(y, name + "norm_cross") @ self[name + "cross.W_Q"], B)
                y = y + self.attend(Q, *cross[l - 1], src_bias, B, name + "cross")
                y = y + self.ffn(self.norm(y, name + "norm_ffn"), name + "ffn")
            logits = torch.addmm(self["b_vocab"], self.norm(y, "decoder_norm"),
                                 self["W_vocab"])
            token = logits.argmax(dim=-1)
            out = torch.cat([out, torch.where(done, -1, token)[:, None]], 1)
            done |= token == eos
            if bool(done.all()):
                break
        return out


def adam(model, config):
    return torch.optim.Adam(model.p.values(), lr=config["lr"],
                            betas=(config["beta1"], config["beta2"]),
                            eps=config["epsilon"], foreach=True)


# ---- the commands -----------------------------------------------------------

class Server:
    def __init__(self):
        self.config = self.arrays = self.batches = self.sources = None

    def load(self, folder):
        self.config = read_config(folder + "/config.txt")
        self.arrays = read_params(folder + "/model")
        self.batches = read_batches(folder + "/batches.bin") \
            if os.path.exists(folder + "/batches.bin") else None
        self.sources = read_sources(folder + "/sources.bin") \
            if os.path.exists(folder + "/sources.bin") else None

    def check(self, bits):
        model = Model(self.arrays, self.config,
                      torch.float64 if bits == 64 else torch.float32)
        opt = adam(model, self.config)
        losses = []
        for b in self.batches[:int(self.config["check"])]:
            opt.zero_grad(set_to_none=True)
            loss = model.loss(b)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        print("losses " + " ".join("%.17g" % v for v in losses))

    def train(self, bits):
        model = Model(self.arrays, self.config,
                      torch.float64 if bits == 64 else torch.float32)
        opt = adam(model, self.config)

        def epoch():
            for b in self.batches:
                opt.zero_grad(set_to_none=True)
                model.loss(b).backward()
                opt.step()

        epoch()   # warm-up
        f0, t0 = faults(), time.perf_counter()
        epoch()
        t, f = time.perf_counter() - t0, faults() - f0
        n = len(self.batches)
        print("train %.6g %.6g" % (t / n, f / n))

    def decode(self, bits):
        model = Model(self.arrays, self.config,
                      torch.float64 if bits == 64 else torch.float32)
        bos, eos = int(self.config["bos"]) - 1, int(self.config["eos"]) - 1
        steps = int(self.config["max_len"])
        with torch.inference_mode():
            src, allow = pad_sources(self.sources)
            model.greedy(src, allow, bos, eos, steps)   # warm-up
            f0, t0 = faults(), time.perf_counter()
            out = model.greedy(src, allow, bos, eos, steps)
            t, f = time.perf_counter() - t0, faults() - f0
        print("decode %.6g %.6g" % (t, f))
        if bits == 64:
            for i in range(out.shape[0]):
                ids = [int(v) + 1 for v in out[i] if v >= 0]
                print("ids %d %s" % (i + 1, " ".join(map(str, ids))))

    def block(self, path, n, d, h, bits):
        dtype = torch.float64 if bits == 64 else torch.float32
        raw = np.fromfile(path, dtype="<f8")
        parts = np.split(raw, np.cumsum([n * d, n * d, d * d, d * d, d * d]))
        X, dY = (p.reshape((n, d), order="F") for p in parts[:2])
        W_Q, W_K, W_V, W_O = (p.reshape((d, d), order="F") for p in parts[2:])
        # tokens are rows on both sides: torch computes x @ W.T, so its
        # weights are the transposes of the package's
        mha = torch.nn.MultiheadAttention(d, h, bias=False, batch_first=True,
                                          dtype=dtype)
        with torch.no_grad():
            mha.in_proj_weight.copy_(torch.from_numpy(
                np.concatenate([W_Q.T, W_K.T, W_V.T])))
            mha.out_proj.weight.copy_(torch.from_numpy(W_O.T.copy()))
        x = torch.from_numpy(X.copy()).to(dtype).unsqueeze(0).requires_grad_(True)
        dy = torch.from_numpy(dY.copy()).to(dtype).unsqueeze(0)
        causal = torch.ones(n, n, dtype=torch.bool).triu_(1)

        def step():
            mha.zero_grad(set_to_none=True)
            x.grad = None
            y = x + mha(x, x, x, attn_mask=causal, need_weights=False)[0]
            y.backward(dy)
            return y

        step()
        f0, t0 = faults(), time.perf_counter()
        y = step()
        t, f = time.perf_counter() - t0, faults() - f0
        g = mha.in_proj_weight.grad
        checks = [y.sum().item(), g[:d].norm().item(), g[d:2 * d].norm().item(),
                  g[2 * d:].norm().item(), mha.out_proj.weight.grad.norm().item(),
                  x.grad.norm().item()]
        print("block %.6g %d %s" % (t, f, " ".join("%.17g" % c for c in checks)))


def receive(path):
    """The text of the file PATH once it exists (then deleted)."""
    while not os.path.exists(path):
        time.sleep(0.002)
    with open(path) as f:
        text = f.read()
    os.remove(path)
    return text


def post(path, text):
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.rename(path + ".tmp", path)


def serve():
    torch.set_num_threads(THREADS)
    box = os.environ["ATTN_BENCH_MAILBOX"]
    server = Server()
    post(box + ".out", "threads %d %d\nend\n" % (torch.get_num_threads(),
                                                 blas_threads()))
    commands = {"load": lambda a: server.load(a[0]),
                "check": lambda a: server.check(int(a[0])),
                "train": lambda a: server.train(int(a[0])),
                "decode": lambda a: server.decode(int(a[0])),
                "block": lambda a: server.block(a[0], *(int(v) for v in a[1:5]))}
    while True:
        words = receive(box + ".cmd").split()
        if not words or words[0] == "quit":
            break
        sys.stdout = io.StringIO()
        try:
            commands[words[0]](words[1:])
            print("end")
        except Exception:          # the answer without "end": a failure
            traceback.print_exc(file=sys.stdout)
        text, sys.stdout = sys.stdout.getvalue(), sys.__stdout__
        post(box + ".out", text)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "serve":
        sys.exit("usage: bench_torch.py serve THREADS")
    serve()
