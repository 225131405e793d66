#!/usr/bin/env python3
# Copyright (C) 2026 The attention developers
# SPDX-License-Identifier: GPL-3.0-or-later
"""A PyTorch model read from, and written to, an attention model file.

The package's model file (doc/FILE-FORMAT.md) is a safetensors file whose
arrays are float64, stored row by row with their Octave shapes, whose
metadata hold JSON text, and whose word ids count from 1.  This module
reads and writes that layout with json, struct and numpy alone, and builds
a torch.nn.Module that computes the model's forward pass from the
published formulas of each part (attention, LayerNorm/RMSNorm, the
feed-forward activations, sinusoidal and rotary positions).

    import attention_bridge as ab
    model = ab.load("model.safetensors")          # an ab.Transformer
    logits = model(tgt=torch.tensor([[0, 5, 7]]))  # 0-based ids here
    ab.save(model, "copy.safetensors")            # attn_load reads it

Ids inside torch count from 0: word k of the file (1-based) is index k-1.
The special ids of model.src_vocab / model.tgt_vocab stay as the file has
them (1-based, 0 for absent); model.special(side, "eos") gives the 0-based
index (-1 when absent).

Families: encoder-decoder, decoder-only, encoder-token, encoder-sentence,
and the pooled encoder-decoders (pooled-add, pooled-concat, pooled-prefix),
whose decoder reads the mean c of the encoded rows instead of
cross-attention.  A classifier's head: an optional hidden layer (d_hidden,
head_activation), a token classifier's optional norm of it (head_norm),
then W_class, or with tie_embeddings (a token classifier whose classes are
the words: a masked language model) the transposed src_embed, and b_class.

Command line (ids 1-based, as in Octave; a sequence is ids joined by commas,
an encoder-decoder pair is SOURCE/TARGET):
    attention_bridge.py logits FILE SEQ...     logits of the padded batch
    attention_bridge.py copy IN OUT [NAME I J VALUE]
        read IN into torch, optionally set element (I, J) (1-based, Octave
        indices) of the file array NAME through the module, write OUT
"""

import json
import math
import struct
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

FORMAT = "attention-model 1"
FAMILIES = ("encoder-decoder", "decoder-only", "encoder-token", "encoder-sentence",
            "pooled-add", "pooled-concat", "pooled-prefix")
POOL = {"pooled-add": "W_u", "pooled-concat": "W_F", "pooled-prefix": "W_P"}

# A field a file leaves out takes the package's default (help attn_model).
DEFAULTS = {
    "heads": 4, "activation": "relu", "ffn_gated": False, "ffn_bias": True,
    "attn_bias": False, "norm": "post", "norm_kind": "layernorm",
    "norm_eps": 1e-5, "positions": "learned", "rope_base": 10000.0,
    "embed_scale": False, "embed_norm": False, "tie_embeddings": False,
    "head_bias": True, "readout": "cls", "head": "linear", "d_hidden": 0,
    "head_activation": "relu", "head_norm": False,
}


class BridgeError(Exception):
    """A file or model this module cannot read or write."""


# ---------------------------------------------------------------------------
# The bytes: safetensors with float64 arrays in Octave shapes

def read_file(path):
    """(metadata dict of strings, dict name -> float64 ndarray, Octave shape)."""
    with open(path, "rb") as f:
        blob = f.read()
    if len(blob) < 8:
        raise BridgeError("%s: too short for a header length" % path)
    (n,) = struct.unpack("<Q", blob[:8])
    if n > 100_000_000 or 8 + n > len(blob):
        raise BridgeError("%s: header length %d does not fit the file" % (path, n))
    header = json.loads(blob[8:8 + n].decode("utf-8"))
    data = blob[8 + n:]
    meta = header.pop("__metadata__", {})
    arrays = {}
    for name, entry in header.items():
        if entry["dtype"] != "F64":
            raise BridgeError("%s: array %s has dtype %s, not F64" % (path, name, entry["dtype"]))
        shape = list(entry["shape"])
        if len(shape) == 0:
            shape = [1, 1]
        elif len(shape) == 1:
            shape = [1, shape[0]]
        begin, end = entry["data_offsets"]
        if end - begin != 8 * int(np.prod(shape)) or end > len(data):
            raise BridgeError("%s: array %s: offsets do not match its shape" % (path, name))
        arrays[name] = np.frombuffer(data[begin:end], dtype="<f8").reshape(shape).copy()
    return meta, arrays


def write_file(path, meta, arrays):
    """Write metadata (strings) and float64 arrays (Octave shapes, 2-D)."""
    header = {"__metadata__": meta}
    offset = 0
    chunks = []
    for name, a in arrays.items():
        a = np.ascontiguousarray(np.asarray(a, dtype="<f8"))
        if a.ndim == 1:
            a = a.reshape(1, -1)
        raw = a.tobytes(order="C")
        header[name] = {"dtype": "F64", "shape": list(a.shape),
                        "data_offsets": [offset, offset + len(raw)]}
        offset += len(raw)
        chunks.append(raw)
    text = json.dumps(header, ensure_ascii=False).encode("utf-8")
    text += b" " * ((-(8 + len(text))) % 8)      # data start at a multiple of 8
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for raw in chunks:
            f.write(raw)


def number_text(x):
    """The shortest of 15, 16, 17 significant digits that reads back as x
    (Octave's JSON reader misreads some 17-digit texts by an ulp, so
    fewer digits are preferred where they are exact)."""
    for digits in (15, 16, 17):
        text = "%.*g" % (digits, x)
        if float(text) == x:
            return text
    return text


def config_text(config):
    """JSON text of a flat config: integers as integers, other numbers
    with the fewest significant digits (15 to 17) that give the double."""
    parts = []
    for key, value in config.items():
        if isinstance(value, bool):
            v = "true" if value else "false"
        elif isinstance(value, int):
            v = str(value)
        elif isinstance(value, float):
            if value == int(value) and abs(value) < 2 ** 53:
                v = str(int(value))
            else:
                v = number_text(value)
        else:
            v = json.dumps(value, ensure_ascii=False)
        parts.append("%s:%s" % (json.dumps(key), v))
    return "{" + ",".join(parts) + "}"


# ---------------------------------------------------------------------------
# The parts, each from its formula

class Norm(nn.Module):
    """LayerNorm (mean out, population variance) or RMSNorm, over the last axis."""

    def __init__(self, d, kind, eps):
        super().__init__()
        self.kind, self.eps = kind, eps
        self.weight = nn.Parameter(torch.ones(d, dtype=torch.float64))
        self.bias = (nn.Parameter(torch.zeros(d, dtype=torch.float64))
                     if kind == "layernorm" else None)

    def forward(self, x):
        if self.kind == "rmsnorm":
            return x / torch.sqrt((x * x).mean(-1, keepdim=True) + self.eps) * self.weight
        mu = x.mean(-1, keepdim=True)
        var = ((x - mu) ** 2).mean(-1, keepdim=True)
        return (x - mu) / torch.sqrt(var + self.eps) * self.weight + self.bias


def rotate(x, base):
    """Rotary positions, rotate-half layout: x is (B, heads, n, dk); entry i
    and i + dk/2 of the row at position p turn by p * base^(-2i/dk)."""
    n, dk = x.shape[-2], x.shape[-1]
    half = dk // 2
    inv = base ** (-2.0 * torch.arange(half, dtype=torch.float64) / dk)
    angle = torch.arange(n, dtype=torch.float64)[:, None] * inv[None, :]
    cos, sin = torch.cos(angle), torch.sin(angle)
    a, b = x[..., :half], x[..., half:]
    return torch.cat([a * cos - b * sin, b * cos + a * sin], dim=-1)


class Attention(nn.Module):
    """Multi-head attention with grouped key/value heads: query head j
    (0-based) reads key/value head j // (heads / kv_heads)."""

    def __init__(self, d, heads, kv_heads, dk, dv, bias, rope_base=None):
        super().__init__()
        self.heads, self.kv_heads, self.dk, self.dv = heads, kv_heads, dk, dv
        self.rope_base = rope_base
        kw = dict(bias=bias, dtype=torch.float64)
        self.q = nn.Linear(d, heads * dk, **kw)
        self.k = nn.Linear(d, kv_heads * dk, **kw)
        self.v = nn.Linear(d, kv_heads * dv, **kw)
        self.o = nn.Linear(heads * dv, d, **kw)

    def split(self, x, h, w):
        B, n, _ = x.shape
        return x.reshape(B, n, h, w).transpose(1, 2)          # B, h, n, w

    def forward(self, x, memory, key_allow, causal):
        q = self.split(self.q(x), self.heads, self.dk)
        k = self.split(self.k(memory), self.kv_heads, self.dk)
        v = self.split(self.v(memory), self.kv_heads, self.dv)
        if self.rope_base is not None:
            q, k = rotate(q, self.rope_base), rotate(k, self.rope_base)
        group = self.heads // self.kv_heads
        k = k.repeat_interleave(group, dim=1)
        v = v.repeat_interleave(group, dim=1)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.dk)  # B, h, n, m
        allow = key_allow[:, None, None, :]
        if causal:
            n, m = scores.shape[-2:]
            allow = allow & torch.ones(n, m, dtype=torch.bool).tril()
        scores = scores.masked_fill(~allow, float("-inf"))
        weights = torch.softmax(scores, dim=-1).nan_to_num(0.0)  # a row with no key: 0
        out = (weights @ v).transpose(1, 2)                      # B, n, h, dv
        return self.o(out.reshape(out.shape[0], out.shape[1], -1))


def activate(name, x):
    if name == "relu":
        return torch.relu(x)
    if name == "gelu":                      # x * Phi(x)
        return 0.5 * x * torch.erfc(-x / math.sqrt(2.0))
    if name == "gelu_tanh":
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))
    if name == "silu":
        return x * torch.sigmoid(x)
    if name == "tanh":
        return torch.tanh(x)
    raise BridgeError("unknown activation %r" % name)


class FeedForward(nn.Module):
    """act(x W1 + b1) W2 + b2, or gated: (act(x W1 + b1) * (x W3 + b3)) W2 + b2."""

    def __init__(self, d, f, activation, gated, bias):
        super().__init__()
        self.activation = activation
        kw = dict(bias=bias, dtype=torch.float64)
        self.w1 = nn.Linear(d, f, **kw)
        self.w3 = nn.Linear(d, f, **kw) if gated else None
        self.w2 = nn.Linear(f, d, **kw)

    def forward(self, x):
        h = activate(self.activation, self.w1(x))
        if self.w3 is not None:
            h = h * self.w3(x)
        return self.w2(h)


class Layer(nn.Module):
    """Self-attention, optional cross-attention, optional FFN, each a
    residual sublayer with its norm placed post, pre or nowhere."""

    def __init__(self, c, cross):
        super().__init__()
        d, rope = c["d"], (float(c["rope_base"]) if c["positions"] == "rope" else None)
        args = (d, c["heads"], c["kv_heads"], c["dk"], c["dv"], c["attn_bias"])
        self.placement = c["norm"]
        self.blocks = nn.ModuleDict({"self": Attention(*args, rope_base=rope)})
        if cross:
            self.blocks["cross"] = Attention(*args)
        if c["d_ff"] > 0:
            self.blocks["ffn"] = FeedForward(d, c["d_ff"], c["activation"],
                                             c["ffn_gated"], c["ffn_bias"])
        self.norms = nn.ModuleDict()
        if self.placement != "none":
            for name in self.blocks:
                self.norms[name] = Norm(d, c["norm_kind"], c["norm_eps"])

    def sublayer(self, name, x, f):
        if self.placement == "pre":
            return x + f(self.norms[name](x))
        y = x + f(x)
        return self.norms[name](y) if self.placement == "post" else y

    def forward(self, x, allow, causal, memory=None, memory_allow=None):
        x = self.sublayer("self", x, lambda z: self.blocks["self"](z, z, allow, causal))
        if "cross" in self.blocks:
            x = self.sublayer("cross", x,
                              lambda z: self.blocks["cross"](z, memory, memory_allow, False))
        if "ffn" in self.blocks:
            x = self.sublayer("ffn", x, self.blocks["ffn"])
        return x


def sinusoid(L, d, layout):
    """Row p: angles p / 10000^(2k/d); interleaved sin, cos columns, or
    (sinusoidal_concat) all sines then all cosines."""
    k = np.arange((d + 1) // 2)
    angle = np.arange(L)[:, None] / 10000.0 ** (2 * k / d)
    if layout == "sinusoidal_concat":
        return np.concatenate([np.sin(angle), np.cos(angle[:, :d // 2])], axis=1)
    table = np.empty((L, 2 * len(k)))
    table[:, 0::2], table[:, 1::2] = np.sin(angle), np.cos(angle)
    return table[:, :d]


class Embedding(nn.Module):
    """Token rows (times sqrt(d) with embed_scale), plus position rows
    (learned or fixed; none with rope), then the optional norm."""

    def __init__(self, V, c):
        super().__init__()
        self.scale = math.sqrt(c["d"]) if c["embed_scale"] else 1.0
        self.tokens = nn.Embedding(V, c["d"], dtype=torch.float64)
        self.kind = c["positions"]
        shape = (c["max_len"], c["d"])
        if self.kind == "learned":
            self.pos = nn.Parameter(torch.zeros(shape, dtype=torch.float64))
        elif self.kind in ("sinusoidal", "sinusoidal_concat"):
            self.register_buffer("pos", torch.from_numpy(sinusoid(*shape, self.kind)))
        else:
            self.pos = None
        self.norm = Norm(c["d"], c["norm_kind"], c["norm_eps"]) if c["embed_norm"] else None

    def forward(self, ids):
        x = self.tokens(ids) * self.scale
        if self.pos is not None:
            x = x + self.pos[:ids.shape[1]]
        return self.norm(x) if self.norm is not None else x


class Transformer(nn.Module):
    """One model of the package: config and vocabularies as the file has
    them, weights as torch parameters (float64)."""

    def __init__(self, config, src_vocab, tgt_vocab):
        super().__init__()
        c = dict(DEFAULTS)
        c.update(config)
        c.setdefault("family", "encoder-decoder")
        c.setdefault("kv_heads", c["heads"])
        c.setdefault("final_norm", c["norm"] == "pre")
        if c["family"] not in FAMILIES:
            raise BridgeError("family %r is not supported here (only %s)"
                              % (c["family"], ", ".join(FAMILIES)))
        if c["heads"] % c["kv_heads"]:
            raise BridgeError("kv_heads %d does not divide heads %d" % (c["kv_heads"], c["heads"]))
        self.config, self.c = config, c
        self.src_vocab, self.tgt_vocab = src_vocab, tgt_vocab
        fam = c["family"]
        self.has_source = fam != "decoder-only"
        self.has_decoder = fam in ("encoder-decoder", "decoder-only") or fam in POOL
        self.pool = POOL.get(fam)
        Vs, Vt = len(src_vocab["words"]), len(tgt_vocab["words"])
        if self.has_source:
            self.src = Embedding(Vs, c)
            self.encoder = nn.ModuleList(Layer(c, False) for _ in range(c["encoder_layers"]))
            self.encoder_norm = (Norm(c["d"], c["norm_kind"], c["norm_eps"])
                                 if c["final_norm"] and c["encoder_layers"] > 0 else None)
        if self.has_decoder:
            self.tgt = Embedding(Vt, c)
            self.decoder = nn.ModuleList(Layer(c, fam == "encoder-decoder")
                                         for _ in range(c["decoder_layers"]))
            self.decoder_norm = (Norm(c["d"], c["norm_kind"], c["norm_eps"])
                                 if c["final_norm"] and c["decoder_layers"] > 0 else None)
            if self.pool is not None:          # c W_u, [e, c] W_F or c W_P (Octave orientation)
                rows = 2 * c["d"] if self.pool == "W_F" else c["d"]
                self.W_pool = nn.Parameter(torch.zeros(rows, c["d"], dtype=torch.float64))
            if not c["tie_embeddings"]:
                self.W_vocab = nn.Parameter(torch.zeros(c["d"], Vt, dtype=torch.float64))
            self.b_vocab = (nn.Parameter(torch.zeros(Vt, dtype=torch.float64))
                            if c["head_bias"] else None)
        else:                                  # [act(x W_hidden + b), norm] -> classes
            width = c["d"]
            if c["d_hidden"] > 0:
                width = c["d_hidden"]
                self.hidden = nn.Linear(c["d"], width, dtype=torch.float64)
            self.head_norm = (Norm(width, c["norm_kind"], c["norm_eps"])
                              if c["head_norm"] else None)
            if c["tie_embeddings"]:            # a token classifier scoring the words
                self.classify = None
                self.b_class = nn.Parameter(torch.zeros(Vt, dtype=torch.float64))
            else:
                self.classify = nn.Linear(width, Vt, dtype=torch.float64)

    def special(self, side, name):
        """0-based index of a special word (pad, unk, bos, eos); -1 when absent."""
        vocab = self.src_vocab if side == "src" else self.tgt_vocab
        return vocab[name] - 1

    @staticmethod
    def mean_rows(x, allow):
        """The mean of the real rows (B, 1, d); the zero row when there are none."""
        w = allow.to(torch.float64)[..., None]
        return (x * w).sum(1, keepdim=True) / w.sum(1, keepdim=True).clamp(min=1)

    def pooled_rows(self, ids, allow, memory, memory_allow):
        """The decoder's input rows of a pooled model, and their mask:
        add: e + c W_u + p; concat: [e, c] W_F + p; prefix: the row c W_P
        first (position 0), the targets after it; then the optional norm."""
        e = self.tgt.tokens(ids) * self.tgt.scale
        c = self.mean_rows(memory, memory_allow)
        n = ids.shape[1]
        pos = self.tgt.pos
        if self.pool == "W_u":
            x = e + c @ self.W_pool + pos[:n]
        elif self.pool == "W_F":
            x = torch.cat([e, c.expand(-1, n, -1)], dim=-1) @ self.W_pool + pos[:n]
        else:
            x = torch.cat([c @ self.W_pool, e], dim=1) + pos[:n + 1]
            allow = torch.cat([torch.ones_like(allow[:, :1]), allow], dim=1)
        if self.tgt.norm is not None:
            x = self.tgt.norm(x)
        return x, allow

    @staticmethod
    def stack(layers, final, x, allow, causal, memory=None, memory_allow=None):
        for layer in layers:
            x = layer(x, allow, causal, memory, memory_allow)
        return final(x) if final is not None else x

    def forward(self, src=None, src_mask=None, tgt=None, tgt_mask=None):
        """Logits (B, n, V) of 0-based ids (B, n); masks are True at real
        tokens (default: all).  A sentence classifier gives (B, 1, C)."""
        def mask(ids, m):
            return torch.ones_like(ids, dtype=torch.bool) if m is None else m.bool()

        def check(ids, vocab, longest, what):
            if ids is None or ids.dim() != 2:
                raise BridgeError("%s must be a B x n tensor of ids" % what)
            V = len(vocab["words"])
            if ids.numel() and (ids.min() < 0 or ids.max() >= V):
                raise BridgeError("%s ids must be in 0..%d (0-based)" % (what, V - 1))
            if ids.shape[1] > longest:
                raise BridgeError("%s has %d rows, the model takes at most %d"
                                  % (what, ids.shape[1], longest))
        longest = self.c["max_len"]
        if self.has_source:
            check(src, self.src_vocab, longest, "src")
        if self.has_decoder:
            check(tgt, self.tgt_vocab, longest - (self.pool == "W_P"), "tgt")
        memory = memory_allow = None
        if self.has_source:
            memory_allow = mask(src, src_mask)
            memory = self.stack(self.encoder, self.encoder_norm, self.src(src),
                                memory_allow, False)
        if self.has_decoder:
            allow = mask(tgt, tgt_mask)
            if self.pool is None:
                x = self.stack(self.decoder, self.decoder_norm, self.tgt(tgt), allow, True,
                               memory, memory_allow)
            else:                            # no cross-attention: the pooled source
                x, allow = self.pooled_rows(tgt, allow, memory, memory_allow)
                x = self.stack(self.decoder, self.decoder_norm, x, allow, True)
                if self.pool == "W_P":
                    x = x[:, 1:]             # the source row predicts nothing
            W = self.tgt.tokens.weight.T if self.c["tie_embeddings"] else self.W_vocab
            logits = x @ W
            return logits + self.b_vocab if self.b_vocab is not None else logits
        x = memory
        if self.c["family"] == "encoder-sentence":
            if self.c["readout"] in ("cls", "first"):
                x = memory[:, :1]
            else:
                x = self.mean_rows(memory, memory_allow)
        if hasattr(self, "hidden"):
            x = activate(self.c["head_activation"], self.hidden(x))
        if self.head_norm is not None:
            x = self.head_norm(x)
        if self.classify is None:              # tied: x src_embed^T + b_class
            return x @ self.src.tokens.weight.T + self.b_class
        return self.classify(x)

    # -- the file's array names, each with its tensor and orientation --

    def arrays(self):
        """[(file name, tensor, transposed)]: transposed when the file holds
        the Octave matrix of an nn.Linear weight (in x out)."""
        out = []

        def linear(prefix, lin, w, b):
            out.append((prefix + w, lin.weight, True))
            if lin.bias is not None:
                out.append((prefix + b, lin.bias, False))

        def norm(prefix, n):
            out.append((prefix + ".gain", n.weight, False))
            if n.bias is not None:
                out.append((prefix + ".bias", n.bias, False))

        def embedding(side, e):
            out.append((side + "_embed", e.tokens.weight, False))
            if e.pos is not None:
                out.append((side + "_pos", e.pos, False))
            if e.norm is not None:
                norm(side + "_embed_norm", e.norm)

        def layers(stack, ls):
            for i, layer in enumerate(ls, start=1):
                pre = "%s.%d." % (stack, i)
                for name, block in layer.blocks.items():
                    if name == "ffn":
                        linear(pre + "ffn.", block.w1, "W_1", "b_1")
                        if block.w3 is not None:
                            linear(pre + "ffn.", block.w3, "W_3", "b_3")
                        linear(pre + "ffn.", block.w2, "W_2", "b_2")
                    else:
                        for part in "QKVO":
                            linear(pre + name + ".", getattr(block, part.lower()),
                                   "W_" + part, "b_" + part)
                for name, n in layer.norms.items():
                    norm(pre + "norm_" + name, n)

        if self.has_source:
            embedding("src", self.src)
        if self.has_decoder:
            embedding("tgt", self.tgt)
        if self.has_source:
            layers("encoder", self.encoder)
        if self.has_decoder:
            layers("decoder", self.decoder)
        if self.has_source and self.encoder_norm is not None:
            norm("encoder_norm", self.encoder_norm)
        if self.has_decoder and self.decoder_norm is not None:
            norm("decoder_norm", self.decoder_norm)
        if self.has_decoder:
            if not self.c["tie_embeddings"]:
                out.append(("W_vocab", self.W_vocab, False))
            if self.b_vocab is not None:
                out.append(("b_vocab", self.b_vocab, False))
        else:
            if hasattr(self, "hidden"):
                linear("", self.hidden, "W_hidden", "b_hidden")
            if self.head_norm is not None:
                norm("head_norm", self.head_norm)
            if self.classify is not None:
                linear("", self.classify, "W_class", "b_class")
            else:
                out.append(("b_class", self.b_class, False))
        if self.pool is not None:
            out.append((self.pool, self.W_pool, False))
        return out

    def fixed(self):
        """The blocks' fixed numbers the file stores: heads, kv_heads, rope_base."""
        c, out = self.c, {}
        stacks = []
        if self.has_source:
            stacks.append(("encoder", self.encoder))
        if self.has_decoder:
            stacks.append(("decoder", self.decoder))
        for stack, ls in stacks:
            for i, layer in enumerate(ls, start=1):
                for name in layer.blocks:
                    if name == "ffn":
                        continue
                    pre = "%s.%d.%s." % (stack, i, name)
                    out[pre + "heads"] = float(c["heads"])
                    if c["kv_heads"] != c["heads"]:
                        out[pre + "kv_heads"] = float(c["kv_heads"])
                    if c["positions"] == "rope" and name == "self":
                        out[pre + "rope_base"] = float(c["rope_base"])
        return out


def to_matrix(t, transposed):
    """A tensor as the file's 2-D array (a vector as a 1 x n row)."""
    a = t.detach().cpu().numpy().astype("<f8")
    if transposed:
        a = a.T
    return a.reshape(1, -1) if a.ndim == 1 else a


def load(path):
    """Read a package model file into a Transformer (every array checked
    against the model the config describes)."""
    meta, arrays = read_file(path)
    if meta.get("format") != FORMAT:
        raise BridgeError("%s: format %r is not %r" % (path, meta.get("format"), FORMAT))
    if meta.get("id_base", "1") != "1":
        raise BridgeError("%s: id_base %r; this module reads files counting from 1"
                          % (path, meta.get("id_base")))
    config = json.loads(meta["config"])
    tgt_vocab = json.loads(meta["tgt_vocab"])
    src_vocab = json.loads(meta["src_vocab"]) if "src_vocab" in meta else tgt_vocab
    model = Transformer(config, src_vocab, tgt_vocab)
    expected = model.arrays()
    fixed = model.fixed()
    names = {n for n, _, _ in expected} | set(fixed)
    if set(arrays) != names:
        raise BridgeError("%s: arrays %s missing, %s unexpected"
                          % (path, sorted(names - set(arrays)), sorted(set(arrays) - names)))
    for name, value in fixed.items():
        if arrays[name].shape != (1, 1) or arrays[name][0, 0] != value:
            raise BridgeError("%s: %s must be %g" % (path, name, value))
    if model.c["positions"] in ("sinusoidal", "sinusoidal_concat"):
        for side in ("src", "tgt"):
            if side + "_pos" in arrays:
                table = sinusoid(model.c["max_len"], model.c["d"], model.c["positions"])
                if not np.allclose(arrays[side + "_pos"], table, rtol=0, atol=1e-12):
                    raise BridgeError("%s: %s_pos is not the %s table"
                                      % (path, side, model.c["positions"]))
    with torch.no_grad():
        for name, tensor, transposed in expected:
            a = arrays[name].T if transposed else arrays[name]
            if tensor.dim() == 1:
                a = a.reshape(-1)
            if tuple(a.shape) != tuple(tensor.shape):
                raise BridgeError("%s: %s has shape %s, the config asks for %s"
                                  % (path, name, list(arrays[name].shape),
                                     list(to_matrix(tensor, transposed).shape)))
            tensor.copy_(torch.from_numpy(np.ascontiguousarray(a)))
    return model


def save(model, path):
    """Write a Transformer as a package model file (attn_load reads it)."""
    meta = {"format": FORMAT, "id_base": "1", "config": config_text(model.config)}
    if model.has_source or model.src_vocab != model.tgt_vocab:
        meta["src_vocab"] = json.dumps(model.src_vocab, ensure_ascii=False)
    meta["tgt_vocab"] = json.dumps(model.tgt_vocab, ensure_ascii=False)
    arrays = {name: to_matrix(t, tr) for name, t, tr in model.arrays()}
    for name, value in model.fixed().items():
        arrays[name] = np.array([[value]])
    write_file(path, meta, arrays)


# ---------------------------------------------------------------------------
# Command line

def pad(seqs):
    """Lists of 0-based ids -> (B, n) ids padded with 0 and the mask."""
    n = max(len(s) for s in seqs)
    ids = torch.zeros(len(seqs), n, dtype=torch.long)
    allow = torch.zeros(len(seqs), n, dtype=torch.bool)
    for b, s in enumerate(seqs):
        ids[b, :len(s)] = torch.tensor(s, dtype=torch.long)
        allow[b, :len(s)] = True
    return ids, allow


def parse_ids(text):
    return [int(t) - 1 for t in text.split(",") if t != ""]


def main(argv):
    if len(argv) >= 2 and argv[0] == "logits":
        model = load(argv[1])
        model.eval()
        pairs = [a.split("/") for a in argv[2:]]
        with torch.no_grad():
            if model.has_source and model.has_decoder:
                src, src_allow = pad([parse_ids(p[0]) for p in pairs])
                tgt, tgt_allow = pad([parse_ids(p[1]) for p in pairs])
                logits, rows = model(src, src_allow, tgt, tgt_allow), tgt_allow
            elif model.c["family"] == "decoder-only":
                tgt, rows = pad([parse_ids(p[0]) for p in pairs])
                logits = model(tgt=tgt, tgt_mask=rows)
            else:
                src, rows = pad([parse_ids(p[0]) for p in pairs])
                logits = model(src, rows)
                if model.c["family"] == "encoder-sentence":
                    rows = torch.ones(len(pairs), 1, dtype=torch.bool)
        # one line a real row: sequence and row (1-based), then the logits
        for b in range(logits.shape[0]):
            for i in range(logits.shape[1]):
                if rows[b, i]:
                    print(b + 1, i + 1, " ".join("%.17g" % v for v in logits[b, i].tolist()))
        return 0
    if len(argv) in (3, 7) and argv[0] == "copy":
        model = load(argv[1])
        if len(argv) == 7:
            name, i, j, value = argv[3], int(argv[4]) - 1, int(argv[5]) - 1, float(argv[6])
            found = [(t, tr) for n, t, tr in model.arrays() if n == name]
            if not found:
                raise BridgeError("the model has no learned array %s" % name)
            t, tr = found[0]
            with torch.no_grad():
                if t.dim() == 1:
                    t[j] = value
                elif tr:
                    t[j, i] = value
                else:
                    t[i, j] = value
        save(model, argv[2])
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BridgeError as e:
        sys.stderr.write("attention_bridge: %s\n" % e)
        sys.exit(1)
