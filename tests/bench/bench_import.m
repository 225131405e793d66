## Benchmark of attn_import on a GPT-2-small-shaped checkpoint (12 layers,
## d 768, 12 heads, 50,257 tokens, 1,024 positions: 124M numbers, random
## F32 weights written here in the layout GPT-2 publishes): seconds to
## import, the peak memory the import adds against the model's own arrays,
## a 128-token forward pass with its trace, and cached greedy tokens per
## second, in double against PyTorch float64 and in single (attn_cast)
## against float32; then the model imported in double and in single ("class",
## "single"), each in a fresh process: its bytes, the process's peak
## memory, the import's and a forward pass's seconds.  Run by `make bench`, or alone from the repository's root:
##
##   octave-cli --eval 'addpath (fullfile (pwd, "src"), fullfile (pwd, "inst"));
##                      run ("tests/bench/bench_import.m")'
##
## It writes about 500 MB to a temporary folder and removes it.  Timings
## and memory are printed, never asserted.

1;   # a script, with helper functions below

## the peak resident memory of this process so far, in bytes
function b = peak_rss ()
  s = fileread ("/proc/self/status");
  b = 1024 * str2double (regexp (s, 'VmHWM:\s*(\d+)', "tokens", "once"){1});
endfunction

## the first Python that imports torch ("" for none)
function py = torch_python ()
  py = "";
  for p = {getenv("ATTN_PYTHON"), "python3", "/usr/bin/python3"}
    if (! isempty (p{1}) && system ([p{1} " -c 'import torch, numpy' 2>/dev/null"]) == 0)
      py = p{1};
      return;
    endif
  endfor
endfunction

## median seconds of f () over n rounds, after `warm` calls not timed (in
## this one scope: each call's result stays in `ans` until the next one
## ends, as a student's `tr = attn_forward (...)` does)
function t = median_time (f, n, warm)
  for i = 1:warm
    f ();
  endfor
  t = zeros (n, 1);
  for i = 1:n
    t0 = tic ();
    f ();
    t(i) = toc (t0);
  endfor
  t = median (t);
endfunction

## median seconds of a 128-token forward pass with its trace, of the prompt
## ids(1:8) and the first token, and of each further token of new_tokens
## with the cache; info, attn_continue's of the new_tokens.  The forward
## pass after four untimed ones, where PyTorch's side is timed in steady
## state: Octave's heap takes three calls to hold the ~0.5 GB trace of one
## call beside the last one's (2.1, 2.1 and 1.0 s a call here, 99,000,
## 91,000 and 13,000 page faults; no faults from the fourth call on)
function [forward, prefill, token, info] = timings (m, ids, rounds, new_tokens)
  forward = median_time (@() attn_forward (m, ids), rounds, 4);
  [~, info] = attn_continue (m, ids(1:8), "max_len", new_tokens);
  prefill = median_time (@() attn_continue (m, ids(1:8), "max_len", 1), rounds, 0);
  total = median_time (@() attn_continue (m, ids(1:8), "max_len", new_tokens), rounds, 0);
  token = (total - prefill) / (new_tokens - 1);
endfunction

## a model.safetensors of the named F32 tensors (shapes as torch writes
## them), values normal with standard deviation 0.02, written 2^20 at a time
function write_checkpoint (file, names, shapes)
  entries = cell (size (names));
  at = 0;
  for k = 1:numel (names)
    n = 4 * prod (shapes{k});
    entries{k} = sprintf ('"%s":{"dtype":"F32","shape":[%s],"data_offsets":[%d,%d]}', names{k},
                          strjoin (arrayfun (@num2str, shapes{k}, "UniformOutput", false), ","),
                          at, at + n);
    at += n;
  endfor
  header = ['{"__metadata__":{"format":"pt"},' strjoin(entries, ",") "}"];
  header = [header, repmat(" ", 1, mod (-numel (header), 8))];
  fid = fopen (file, "w");
  unwind_protect
    fwrite (fid, numel (header), "uint64", 0, "ieee-le");
    fwrite (fid, header);
    for k = 1:numel (names)
      left = prod (shapes{k});
      while (left > 0)
        n = min (left, 2^20);
        fwrite (fid, 0.02 * randn (n, 1, "single"), "single", 0, "ieee-le");
        left -= n;
      endwhile
    endfor
  unwind_protect_cleanup
    fclose (fid);
  end_unwind_protect
endfunction

V = 50257;  d = 768;  L = 12;  P = 1024;
names = {"wte.weight", "wpe.weight"};
shapes = {[V d], [P d]};
for l = 0:L-1
  t = sprintf ("h.%d.", l);
  names = [names, strcat(t, {"ln_1.weight", "ln_1.bias", "attn.c_attn.weight", "attn.c_attn.bias", ...
                             "attn.c_proj.weight", "attn.c_proj.bias", "ln_2.weight", "ln_2.bias", ...
                             "mlp.c_fc.weight", "mlp.c_fc.bias", "mlp.c_proj.weight", "mlp.c_proj.bias"})];
  shapes = [shapes, {d, d, [d 3*d], 3*d, [d d], d, d, d, [d 4*d], 4*d, [4*d d], d}];
endfor
names = [names, {"ln_f.weight", "ln_f.bias"}];
shapes = [shapes, {d, d}];
folder = tempname ();
mkdir (folder);
unwind_protect
  randn ("state", 1);
  write_checkpoint (fullfile (folder, "model.safetensors"), names, shapes);
  fid = fopen (fullfile (folder, "config.json"), "w");
  fputs (fid, sprintf (['{"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], ', ...
                        '"n_embd": %d, "n_head": 12, "n_layer": %d, "n_positions": %d, ', ...
                        '"vocab_size": %d, "bos_token_id": %d, "eos_token_id": %d, ', ...
                        '"activation_function": "gelu_new", "layer_norm_epsilon": 1e-05}'],
                       d, L, P, V, V - 1, V - 1));
  fclose (fid);
  numbers = sum (cellfun (@prod, shapes));
  before = peak_rss ();
  t0 = tic ();
  m = attn_import (folder);
  seconds = toc (t0);
  added = peak_rss () - before;
  printf ("import: %.1f s for %.1fM numbers; peak memory added %.0f MiB, %.2f× the model's %.0f MiB of doubles\n",
          seconds, numbers / 1e6, added / 2^20, added / (8 * numbers), 8 * numbers / 2^20);
  ids = mod ((1:128) * 7919, V - 1) + 1;
  rounds = 3;
  new_tokens = 24;
  [forward, prefill, token, info] = timings (m, ids, rounds, new_tokens);
  logits = attn_forward (m, ids).logits;
  printf ("forward of 128 tokens with its trace: %.2f s\n", forward);
  ## the same in single (attn_cast), against PyTorch float32
  [single_forward, single_prefill, single_token, info32] = ...
    timings (attn_cast (m, "single"), ids, rounds, new_tokens);
  printf ("cached greedy: the prompt (<bos> and 8 tokens) and the first token %.3f s, then %.1f ms a token (%.1f tokens/s)\n",
          prefill, 1e3 * token, 1 / token);
  ## the same checkpoint and ids in PyTorch (bench_gpt2.py), threads as here
  py = torch_python ();
  if (isempty (py))
    printf ("PyTorch side skipped: no python3 here imports torch\n");
  else
    threads = nproc ();
    ids_file = fullfile (folder, "ids.txt");
    logits_file = fullfile (folder, "logits.f64");
    fid = fopen (ids_file, "w");
    fprintf (fid, "%d\n", ids - 1);
    fclose (fid);
    [status, out] = system (sprintf (["OMP_NUM_THREADS=%d OPENBLAS_NUM_THREADS=%d MKL_NUM_THREADS=%d ", ...
                                      "GLIBC_TUNABLES=glibc.malloc.trim_threshold=268435456:", ...
                                      "glibc.malloc.mmap_threshold=33554432:glibc.malloc.top_pad=67108864 ", ...
                                      "%s %s %s %s %s %d %d"],
                                     threads, threads, threads, py,
                                     fullfile (fileparts (mfilename ("fullpath")), "bench_gpt2.py"),
                                     folder, ids_file, logits_file, rounds, new_tokens));
    if (status != 0)
      error ("bench_import: bench_gpt2.py failed:\n%s", out);
    endif
    value = @(key) sscanf (regexp (out, ["(?m)^" key " (.*)$"], "tokens", "once"){1}, "%f")';
    fid = fopen (logits_file, "r");
    theirs = fread (fid, [V, Inf], "double", 0, "ieee-le")';
    fclose (fid);
    ours = reshape (logits, [], V);
    printf ("PyTorch (%d threads): float64 logits against the package's: max |difference| %.1e relative to max |logit| %.1f\n",
            value ("threads"), max (abs (theirs(:) - ours(:))) / max (abs (ours(:))), max (abs (ours(:))));
    printf ("greedy tokens: %s in float64, %s in float32 (the package's single: %s)\n",
            merge (isequal (value ("greedy_f64"), info.ids(:)' - 1), "identical", "DIFFERENT"),
            merge (isequal (value ("greedy_f32"), info.ids(:)' - 1), "identical", "different"),
            merge (isequal (value ("greedy_f32"), info32.ids(:)' - 1), "identical", "different"));
    printf ("%-52s %10s %10s %10s %8s\n", "GPT-2-small shape", "package", "torch f64", "torch f32", "ratio");
    ## ratio: to float64, or to float32 for the package's single rows
    row = @(name, ours, key, bits) printf ("%-52s %10.4f %10.4f %10.4f %8.2f\n", name, ours,
                                           value ([key "_f64"]), value ([key "_f32"]),
                                           value (sprintf ("%s_f%d", key, bits)) / ours);
    row ("forward of 129 rows (package with its trace), s", forward, "forward", 64);
    row ("prefill of 9 rows and the first token, s", prefill, "prefill", 64);
    row ("each further token with the cache, s", token, "token", 64);
    row ("forward of 129 rows, single, s", single_forward, "forward", 32);
    row ("prefill of 9 rows and the first token, single, s", single_prefill, "prefill", 32);
    row ("each further token with the cache, single, s", single_token, "token", 32);
    printf (["(ratio: PyTorch float64's time over the package's, float32's for the\n" ...
             " package in single; above 1, the package is faster)\n"]);
  endif
  clear m info info32 logits
  ## double and single ("class", "single"), each imported in a fresh Octave
  ## (a process's peak memory only grows), then a 128-token forward pass:
  ## the model's bytes, the peak resident memory of the process, seconds
  printf ("\nimported in a fresh process each:\n%-7s %10s %14s %10s %12s\n", "class",
          "model MiB", "peak RSS MiB", "import s", "forward s");
  paths = sprintf ("addpath ('%s', '%s');", fileparts (which ("attn_self")),
                   fileparts (fileparts (which ("attn_import"))));   # (its PKG_ADD: the topics)
  for cls = {"double", "single"}
    code = [paths, sprintf("t0 = tic (); m = attn_import ('%s', 'class', '%s'); t = toc (t0); ", folder, cls{1}), ...
            sprintf("ids = mod ((1:128) * 7919, %d) + 1; t0 = tic (); tr = attn_forward (m, ids); f = toc (t0); ", V - 1), ...
            "s = whos ('m'); r = fileread ('/proc/self/status'); ", ...
            "hwm = str2double (regexp (r, 'VmHWM:\\s*(\\d+)', 'tokens', 'once'){1}) / 1024; ", ...
            "printf ('%10.0f %14.0f %10.1f %12.2f\\n', s.bytes / 2^20, hwm, t, f);"];
    [status, out] = system (sprintf ("octave-cli --no-history --no-init-file --eval \"%s\"", code));
    printf ("%-7s %s", cls{1}, out);
    if (status != 0)
      printf ("(the %s import failed)\n", cls{1});
    endif
  endfor
unwind_protect_cleanup
  confirm_recursive_rmdir (false, "local");
  rmdir (folder, "s");
end_unwind_protect
