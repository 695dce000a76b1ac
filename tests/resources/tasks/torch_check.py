#!/usr/bin/env python3
"""Checks every built-in task's kernels (reference and variants) against PyTorch on a GPU.

check_tasks compares variants with the task's own reference; this script checks the reference itself,
and every variant, against an independent PyTorch expression of what the task's description says, with
the task's tolerance. Inputs follow the task's distributions (torch's RNG, not the worker's).

usage: torch_check.py <resources/tasks> <so dir laid out as <task>/<stem>.so> [task ...]
exit status: 0 when every kernel agrees with torch as expected (wrong variants must disagree), 1 otherwise,
77 when there is no CUDA device.
"""
import ctypes
import json
import math
import os
import sys

import torch
import torch.nn.functional as F

DTYPES = {
    "f32": (0, torch.float32), "f16": (1, torch.float16), "bf16": (2, torch.bfloat16),
    "f64": (3, torch.float64), "i32": (4, torch.int32), "i64": (5, torch.int64), "u8": (6, torch.uint8),
}
DEFAULT_TOLERANCE = {"f64": (1e-8, 1e-8), "f32": (1e-4, 1e-4), "f16": (1e-2, 1e-2), "bf16": (2e-2, 2e-2)}


class KfTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("dtype", ctypes.c_int), ("ndim", ctypes.c_int32),
                ("shape", ctypes.c_int64 * 8), ("strides", ctypes.c_int64 * 8), ("numel", ctypes.c_int64),
                ("name", ctypes.c_char_p)]


class KfParamValue(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("value", ctypes.c_double)]


class KfParams(ctypes.Structure):
    _fields_ = [("items", ctypes.POINTER(KfParamValue)), ("count", ctypes.c_int32)]


def _conv3d_groupnorm_min_clamp(p, x, w, b, gw, gb):
    y = F.group_norm(F.conv3d(x, w, b), int(p["G"]), gw, gb, p["eps"])
    y = torch.min(y, torch.tensor(p["min_value"], device=y.device))
    return torch.clamp(y, p["min_value"], p["max_value"])


# What each task's description says, in PyTorch.
EXPECTED = {
    "diag_matmul": lambda p, a, b: torch.diag(a) @ b,
    "conv3d_groupnorm_min_clamp": _conv3d_groupnorm_min_clamp,
    "matmul": lambda p, a, b: a @ b,
    "gemm_bias_gelu": lambda p, x, w, b: F.gelu(F.linear(x, w, b), approximate="tanh"),
    "softmax": lambda p, x: torch.softmax(x, dim=1),
    "layernorm": lambda p, x, w, b: F.layer_norm(x, (x.shape[1],), w, b, p["eps"]),
    "rmsnorm": lambda p, x, w: (x.float() * torch.rsqrt(x.float().pow(2).mean(1, keepdim=True) + p["eps"])
                                * w.float()).to(torch.bfloat16),
    "row_sum": lambda p, x: x.sum(dim=1),
    "transpose": lambda p, x: x.t().contiguous(),
    "vector_add_f16": lambda p, a, b: a + b,
    "relu_bf16": lambda p, x: torch.relu(x),
    "cumsum": lambda p, x: torch.cumsum(x, dim=1, dtype=torch.int64),
    "histogram": lambda p, x: torch.bincount(x.long(), minlength=int(p["BINS"])).int(),
    "mse_loss": lambda p, a, b: F.mse_loss(a, b).reshape(1),
}


def evaluate(expr, params):
    if isinstance(expr, (int, float)):
        return expr
    scope = {"__builtins__": {}, "min": min, "max": max, "ceil": math.ceil}
    scope.update(params)
    return eval(expr, scope)  # task files are the project's own; the grammar is a subset of Python's


def make_input(spec, shape, gen):
    dtype = DTYPES[spec["dtype"]][1]
    init = spec.get("init", {"dist": "normal", "mean": 0, "std": 1})
    dist = init["dist"]
    dev = "cuda"
    if dist == "normal":
        t = torch.randn(shape, generator=gen, device=dev, dtype=torch.float64) * init["std"] + init["mean"]
    elif dist == "uniform":
        t = torch.rand(shape, generator=gen, device=dev, dtype=torch.float64) * (init["high"] - init["low"]) + init["low"]
    elif dist == "integers":
        t = torch.randint(int(init["low"]), int(init["high"]), shape, generator=gen, device=dev, dtype=torch.int64)
    else:
        t = torch.full(shape, float(init["value"]), device=dev, dtype=torch.float64)
    return t.to(dtype).contiguous()


def describe(t, name, dtype_code):
    d = KfTensor()
    d.data = t.data_ptr()
    d.dtype = dtype_code
    d.ndim = t.dim()
    for i in range(t.dim()):
        d.shape[i] = t.shape[i]
        d.strides[i] = t.stride(i)
    d.numel = t.numel()
    d.name = name.encode()
    return d


def compare(got, exp, atol, rtol):
    g = got.double()
    e = exp.double()
    diff = (g - e).abs()
    bad = ~(diff <= atol + rtol * e.abs())
    return int(bad.sum()), float(diff[torch.isfinite(diff)].max()) if torch.isfinite(diff).any() else float("inf")


def check_task(task_dir, so_dir):
    with open(os.path.join(task_dir, "task.json")) as f:
        task = json.load(f)
    name = task["name"]
    params = {k: float(v) for k, v in task.get("params", {}).items()}
    shape_of = lambda spec: [int(round(evaluate(d, params))) for d in spec["shape"]]
    gen = torch.Generator(device="cuda")
    gen.manual_seed(1234)
    inputs = [make_input(s, shape_of(s), gen) for s in task["inputs"]]
    with torch.no_grad():
        expected = EXPECTED[name](params, *inputs)
    expected = [expected] if isinstance(expected, torch.Tensor) else list(expected)

    kernels = [("reference", "reference.cu", "correct")]
    kernels += [(v.get("label", v["file"]), v["file"], v["expect"]["verdict"]) for v in task.get("variants", [])]
    names = list(params.keys())
    items = (KfParamValue * max(1, len(names)))(*[KfParamValue(n.encode(), params[n]) for n in names])
    kparams = KfParams(items, len(names))
    in_desc = (KfTensor * len(inputs))(*[describe(t, s["name"], DTYPES[s["dtype"]][0])
                                         for t, s in zip(inputs, task["inputs"])])
    rows = []
    stream = torch.cuda.Stream()
    for label, file, expect in kernels:
        so = os.path.join(so_dir, name, os.path.splitext(os.path.basename(file))[0] + ".so")
        outs = [torch.empty(shape_of(s), device="cuda", dtype=DTYPES[s["dtype"]][1]) for s in task["outputs"]]
        for o in outs:
            o.view(torch.uint8).fill_(0xFF)  # poison: NaN for floats, -1 for ints
        out_desc = (KfTensor * len(outs))(*[describe(t, s["name"], DTYPES[s["dtype"]][0])
                                            for t, s in zip(outs, task["outputs"])])
        try:
            lib = ctypes.CDLL(so, mode=os.RTLD_LOCAL | os.RTLD_NOW)
        except OSError as e:
            rows.append((name, label, expect, "load_error", str(e)))
            continue
        fn = lib.kf_entry
        fn.restype = ctypes.c_int
        fn.argtypes = [ctypes.POINTER(KfTensor), ctypes.c_int32, ctypes.POINTER(KfTensor), ctypes.c_int32,
                       ctypes.POINTER(KfParams), ctypes.c_void_p]
        torch.cuda.synchronize()
        rc = fn(in_desc, len(inputs), out_desc, len(outs), ctypes.byref(kparams), ctypes.c_void_p(stream.cuda_stream))
        torch.cuda.synchronize()
        if rc != 0:
            rows.append((name, label, expect, "error", f"returned {rc}"))
            continue
        mismatches, max_abs = 0, 0.0
        for o, e, s in zip(outs, expected, task["outputs"]):
            atol, rtol = DEFAULT_TOLERANCE.get(s["dtype"], (0.0, 0.0))
            tol = task.get("tolerance", {}).get(s["dtype"])
            if tol:
                atol, rtol = tol.get("atol", 0.0), tol.get("rtol", 0.0)
            m, a = compare(o, e.to(o.dtype) if e.dtype != o.dtype else e, atol, rtol)
            mismatches += m
            max_abs = max(max_abs, a)
        verdict = "correct" if mismatches == 0 else "incorrect"
        rows.append((name, label, expect, verdict, f"max abs {max_abs:.3g}, {mismatches} mismatches"))
    return rows


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    if not torch.cuda.is_available():
        print("SKIP: no CUDA device")
        return 77
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    tasks_dir, so_dir = sys.argv[1], sys.argv[2]
    only = set(sys.argv[3:])
    rows = []
    for entry in sorted(os.listdir(tasks_dir)):
        d = os.path.join(tasks_dir, entry)
        if not os.path.isfile(os.path.join(d, "task.json")) or (only and entry not in only):
            continue
        with open(os.path.join(d, "task.json")) as f:
            if json.load(f).get("kind") == "torch":
                print(f"skip {entry}: a torch task (torch_tasks_check.py evaluates it)")
                continue
        try:
            rows += check_task(d, so_dir)
        except Exception as e:  # report and go on: one broken task should not hide the others
            rows.append((entry, "-", "-", "harness_error", repr(e)))
        torch.cuda.empty_cache()
    ok = True
    print(f"{'task':28} {'kernel':12} {'expect':10} {'vs torch':10} ok   detail")
    for name, label, expect, verdict, detail in rows:
        good = verdict == expect
        ok = ok and good
        print(f"{name:28} {label:12} {expect:10} {verdict:10} {'yes' if good else 'NO ':4} {detail}")
    print("ALL AS EXPECTED" if ok else "SOME RESULTS NOT AS EXPECTED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
