"""The PyTorch side of tests/bench/bench_import.m: the same GPT-2-small-shaped
checkpoint (a folder with config.json and model.safetensors in the layout
GPT-2 publishes) read here with numpy alone, then timed in float64 and
float32 as a PyTorch user would write it: packed QKV projection (addmm),
the heads' scores in one baddbmm (this torch, 1.13, has no
scaled_dot_product_attention), F.layer_norm, and greedy decoding with a
K/V cache.

    python3 bench_gpt2.py FOLDER IDS_FILE OUT_FILE ROUNDS NEW_TOKENS

IDS_FILE holds the token ids (0-based, one a line) the model reads after
its first token (the checkpoint's bos_token_id); OUT_FILE receives the
float64 logits of that forward pass (rows x vocabulary, float64 little
endian, row after row) so that the caller can compare them with its own.
Prints one "key value" line per result.  Threads are fixed by the caller's
environment (OMP_NUM_THREADS, before torch is imported) and checked here.
"""

import json
import os
import struct
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F


def read_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    tensors = {}
    for name, e in header.items():
        if name == "__metadata__":
            continue
        if e["dtype"] != "F32":
            raise SystemExit("bench_gpt2.py: %s is %s, not F32" % (name, e["dtype"]))
        a, b = e["data_offsets"]
        tensors[name] = np.frombuffer(data[a:b], dtype="<f4").reshape(e["shape"])
    return tensors


class GPT2:
    """GPT-2's forward pass: pre-norm layers, tanh GELU, final LayerNorm,
    the head tied to the token embeddings.  Conv1D weights are d_in x d_out."""

    def __init__(self, folder, dtype):
        c = json.load(open(os.path.join(folder, "config.json")))
        t = {k: torch.from_numpy(v.astype(np.float64)).to(dtype)
             for k, v in read_safetensors(os.path.join(folder, "model.safetensors")).items()}
        self.heads, self.eps = c["n_head"], c["layer_norm_epsilon"]
        self.bos = c["bos_token_id"]
        self.wte, self.wpe = t["wte.weight"], t["wpe.weight"]
        self.d = self.wte.shape[1]
        self.layers = []
        for l in range(c["n_layer"]):
            p = lambda s: t["h.%d.%s" % (l, s)]
            self.layers.append({k: p(k) for k in (
                "ln_1.weight", "ln_1.bias", "attn.c_attn.weight", "attn.c_attn.bias",
                "attn.c_proj.weight", "attn.c_proj.bias", "ln_2.weight", "ln_2.bias",
                "mlp.c_fc.weight", "mlp.c_fc.bias", "mlp.c_proj.weight", "mlp.c_proj.bias")})
        self.ln_f = (t["ln_f.weight"], t["ln_f.bias"])

    def forward(self, ids, start=0, cache=None):
        """ids: n token ids at positions start..start+n-1; cache: a list of
        (K, V) per layer (heads x start x dk) that grows.  Returns n x V logits."""
        n, d, h = len(ids), self.d, self.heads
        x = self.wte[ids] + self.wpe[start:start + n]
        scale = (d // h) ** -0.5
        mask = None                 # rows read every cached key; new rows causally
        if n > 1:
            mask = torch.full((n, start + n), float("-inf"), dtype=x.dtype).triu_(start + 1)
        for l, p in enumerate(self.layers):
            z = F.layer_norm(x, (d,), p["ln_1.weight"], p["ln_1.bias"], self.eps)
            qkv = torch.addmm(p["attn.c_attn.bias"], z, p["attn.c_attn.weight"])
            q, k, v = (u.reshape(n, h, d // h).transpose(0, 1) for u in qkv.split(d, dim=1))
            if cache is not None:
                if start > 0:
                    k = torch.cat([cache[l][0], k], dim=1)
                    v = torch.cat([cache[l][1], v], dim=1)
                    cache[l] = (k, v)
                else:
                    cache.append((k, v))
            if mask is None:
                scores = torch.bmm(q, k.transpose(1, 2)).mul_(scale)
            else:
                scores = torch.baddbmm(mask, q, k.transpose(1, 2), alpha=scale)
            a = torch.bmm(torch.softmax(scores, dim=-1), v).transpose(0, 1).reshape(n, d)
            x = x + torch.addmm(p["attn.c_proj.bias"], a, p["attn.c_proj.weight"])
            z = F.layer_norm(x, (d,), p["ln_2.weight"], p["ln_2.bias"], self.eps)
            f = F.gelu(torch.addmm(p["mlp.c_fc.bias"], z, p["mlp.c_fc.weight"]), approximate="tanh")
            x = x + torch.addmm(p["mlp.c_proj.bias"], f, p["mlp.c_proj.weight"])
        x = F.layer_norm(x, (d,), self.ln_f[0], self.ln_f[1], self.eps)
        return x @ self.wte.T

    def greedy(self, ids, new_tokens):
        """new_tokens ids: the prompt read in one pass gives the first, then
        one step with the cache for each further one."""
        cache = []
        logits = self.forward(ids, 0, cache)
        out = [int(torch.argmax(logits[-1]))]
        for at in range(len(ids), len(ids) + new_tokens - 1):
            logits = self.forward(torch.tensor(out[-1:]), at, cache)
            out.append(int(torch.argmax(logits[-1])))
        return out


def median_time(f, rounds):
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return sorted(times)[len(times) // 2]


def main():
    folder, ids_file, out_file = sys.argv[1:4]
    rounds, new_tokens = int(sys.argv[4]), int(sys.argv[5])
    threads = int(os.environ.get("OMP_NUM_THREADS", "0"))
    if threads:
        torch.set_num_threads(threads)
    print("threads", torch.get_num_threads())
    body = [int(s) for s in open(ids_file).read().split()]
    with torch.no_grad():
        for name, dtype in (("f64", torch.float64), ("f32", torch.float32)):
            model = GPT2(folder, dtype)
            ids = torch.tensor([model.bos] + body)
            logits = model.forward(ids)                        # warm-up
            if dtype == torch.float64:
                logits.numpy().astype("<f8").tofile(out_file)
            print("forward_%s %.4f" % (name, median_time(lambda: model.forward(ids), rounds)))
            prompt = ids[:9]
            tokens = model.greedy(prompt, new_tokens)          # warm-up
            prefill = median_time(lambda: model.greedy(prompt, 1), rounds)
            total = median_time(lambda: model.greedy(prompt, new_tokens), rounds)
            print("prefill_%s %.4f" % (name, prefill))
            print("token_%s %.5f" % (name, (total - prefill) / (new_tokens - 1)))
            print("greedy_%s %s" % (name, " ".join(str(t) for t in tokens)))
            del model


if __name__ == "__main__":
    main()
