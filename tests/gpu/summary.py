#!/usr/bin/env python3
"""Short table of the GPU figures of issues 3 and 4 from the logs of tests/gpu/run_all.sh.

    summary.py RESULTS_DIR OUT_DIR

RESULTS_DIR holds run_all.sh's intermediate files (stages, *.json, ctest_gpu.log, launch.log), OUT_DIR the
logs that come back (ctest.log, selftest.txt, bench.log, ncu.csv). Missing pieces are reported as such.
"""
import csv
import json
import os
import re
import statistics
import sys

res, out = sys.argv[1], sys.argv[2]


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def fmt(v, spec=".3f"):
    return "n/a" if v is None or (isinstance(v, float) and v != v) else format(v, spec)


lines = []
p = lines.append

# ---- stages
stages = [l.split() for l in read(os.path.join(res, "stages")).splitlines() if l.strip()]
bad = [f"{n} ({'skipped' if rc == 'skipped' else 'timed out' if rc in ('124', '137') else 'rc ' + rc})"
       for n, rc in stages if rc != "0"]
p("stages: " + ", ".join(n for n, _ in stages) + (" | not ok: " + ", ".join(bad) if bad else " | all rc 0"))

# ---- 1. ctest
test_re = re.compile(r"Test\s+#\d+: (\S+) \.*\s*(\**)([^\d]*?)\s+([\d.]+) sec")


def tests(text):
    found = {}
    for m in test_re.finditer(text):
        status = m.group(3).strip()
        found[m.group(1)] = ("Passed" if status == "Passed" else status or "?", float(m.group(4)))
    return found


gpu_log = read(os.path.join(res, "ctest_gpu.log"))
gpu = tests(gpu_log)
allt = tests(read(os.path.join(out, "ctest.log")))
cpu = {k: v for k, v in allt.items() if k not in gpu}
for title, d in (("ctest -L gpu", gpu), ("ctest -LE gpu", cpu)):
    if not d:
        p(f"{title}: not run")
        continue
    ok = sum(1 for s, _ in d.values() if s == "Passed")
    p(f"{title}: {ok}/{len(d)} passed: " + ", ".join(f"{k} " + ("ok" if s == "Passed" else s.upper()) + f" {t:.0f}s"
                                                     for k, (s, t) in d.items()))
fails = [l.split(": ", 1)[-1] for l in gpu_log.splitlines() if re.search(r"\bFAIL\b", l) and "FAILED" not in l]
for f in fails[:8]:
    p("  " + f[:160])

# ---- 2. self-test
st = read(os.path.join(out, "selftest.txt"))
if st:
    rows = [l for l in st.splitlines() if not l.startswith("self-test:")
            and re.match(r"^\S+\s+\S+\s+(correct|incorrect|cuda_error|crashed|timeout|load_error|error)\s", l)]
    okrows = sum(1 for l in rows if re.search(r"\s(ok)(\s|$)", l))
    verdict = "PASSED" if "\nPASSED" in st else "FAILED" if "\nFAILED" in st else "no verdict (see selftest.txt)"
    diag = next((l for l in rows if l.startswith("diag_matmul") and re.search(r"\sgood\s", l)), None)
    sp = re.search(r"([\d.]+)x", diag.split("correct", 1)[1]) if diag else None
    p(f"kforge-worker --self-test: {verdict}, {okrows}/{len(rows)} rows ok; diag_matmul good "
      + (f"{sp.group(1)}x (goal >= 30x: {'met' if float(sp.group(1)) >= 30 else 'NOT met'})" if sp else "n/a"))
    for l in rows:
        if not re.search(r"\sok(\s|$)", l):
            p("  UNEXPECTED " + " ".join(l.split()))
else:
    p("kforge-worker --self-test: not run")

# ---- 3. stability
p("stability, diag_matmul good, 5 evaluations after a discarded one in one warm worker (goal max/min <= 1.03):")
p(f"  {'method':18} {'speedups (ref median / cand median)':44} {'max/min':>7}  {'pair-ratio medians':36} {'max/min':>7}  ref m/m  cand m/m")
for name in ("stab_default", "stab_warm", "stab_long", "stab_traced"):
    d = load(os.path.join(res, name + ".json"))
    if not d:
        p(f"  {name}: not run")
        continue
    sp = " ".join(f"{e['speedup']:.2f}" for e in d["evals"])
    pr = " ".join(f"{e['pair_ratio_median']:.2f}" for e in d["evals"])
    runs = statistics.median(e["runs"] for e in d["evals"])
    label = f"{d['name']} ({int(runs)} runs)"
    p(f"  {label:18} {sp:44} {d['maxmin_speedup']:7.4f}  {pr:36} {d['maxmin_pair']:7.4f}  "
      f"{d['maxmin_reference']:.4f}   {d['maxmin_candidate']:.4f}")
    if any("trace" in e for e in d["evals"]):
        p("    reference per evaluation, ms: timed median / traced kernels / traced kernels+memory ops / traced event: "
          + "; ".join(f"{e['reference_ms']:.3f}/{e['trace']['reference']['kernel_ms']:.3f}/"
                      f"{e['trace']['reference']['gpu_ms']:.3f}/{e['trace']['reference']['event_ms']:.3f}"
                      for e in d["evals"] if "trace" in e))
refmodes = [l for l in read(os.path.join(res, "refmodes.log")).splitlines() if "event ms" in l]
if refmodes:
    p("  diag_matmul reference alone, fresh process each, 300 runs (event ms after the first, min/median/p90):")
    for l in refmodes:
        m = re.search(r"min ([\d.]+) p10 ([\d.]+) median ([\d.]+) p90 ([\d.]+) max ([\d.]+)", l)
        if m:
            p(f"    {'pool kept    ' if 'pool kept' in l else 'pool default '} {m.group(1)} / {m.group(3)} / {m.group(4)}")

# ---- 4. traced vs ncu
tr = load(os.path.join(res, "traced.json"))
ncu_text = read(os.path.join(out, "ncu.csv"))
pids = {}
for l in read(os.path.join(res, "launch.log")).splitlines():
    m = re.match(r"launch: pid (\d+), task (\S+),", l)
    if m:
        pids[m.group(2)] = m.group(1)
per_pid = {}
rows = list(csv.reader(l for l in ncu_text.splitlines() if l.startswith('"')))
if rows:
    hdr = rows[0]
    try:
        pi, ki, mi, ui, vi = (hdr.index(h) for h in ("Process ID", "Kernel Name", "Metric Name", "Metric Unit", "Metric Value"))
        scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3, "s": 1e6, "second": 1e6}
        for r in rows[1:]:
            # The worker's own kernels (the inputs' fill, the L2 flush: a kernel since it is a read sweep) are
            # not the candidate's.
            if len(r) > vi and r[mi] == "gpu__time_duration.sum" and not r[ki].startswith(("kforgeHost", "fillKernel")):
                per_pid.setdefault(r[pi], []).append((r[ki], float(r[vi].replace(",", "")) * scale.get(r[ui], float("nan"))))
    except ValueError:
        pass
NCU_RUNS = 21
p("traced kernel time per candidate run (worker trace pass of 20 runs; median of 3 evaluations' medians) vs ncu --clock-control none "
  "--cache-control none gpu__time_duration.sum (kforge-worker --launch, L2 flushed per run as in the worker; "
  f"median over runs 2..{NCU_RUNS}) (goal |diff| <= 5%):")
p(f"  {'task':28} {'variant':9} {'traced us':>10} {'ncu us':>10} {'diff %':>7}  {'k/run':>5}  note")
if not tr:
    p("  not run")
else:
    diffs = []
    for t in tr["tasks"]:
        traced = t.get("kernel_ms_median_of_evals", t.get("kernel_ms", {}).get("median")) if t.get("available") else None
        per_eval = t.get("kernel_ms_per_eval", [])
        traced = traced * 1e3 if isinstance(traced, (int, float)) else None
        k = t.get("launches_per_run", {}).get("median") if t.get("available") else None
        note, ncu = "", None
        ks = per_pid.get(pids.get(t["task"], "-"), [])
        if not t.get("available"):
            note = "trace unavailable: " + json.dumps(t.get("problem"))[:60]
        elif not ks:
            note = "no ncu records" if ncu_text else "ncu not run"
        else:
            n = len(ks)
            kk = int(round(k)) if isinstance(k, (int, float)) and k > 0 else 0
            if kk and n >= (NCU_RUNS - 1) * kk:
                # The last (runs - 1) * k records: before them come the input fills and the first run.
                rest = ks[n - (NCU_RUNS - 1) * kk:]
                sums = [sum(d for _, d in rest[i * kk:(i + 1) * kk]) for i in range(NCU_RUNS - 1)]
                ncu = statistics.median(sums)
                if n < NCU_RUNS * kk:
                    note = f"ncu saw {n} kernels for {NCU_RUNS} runs of {kk}"
            else:
                note = f"ncu saw {n} kernels, trace {k}/run"
        if len(per_eval) > 1:
            note += f" evals {min(per_eval) * 1e3:.1f}..{max(per_eval) * 1e3:.1f}"
        diff = 100 * (traced / ncu - 1) if traced and ncu else None
        if diff is not None:
            diffs.append(abs(diff))
        flags = ",".join(t.get("flags", []))
        p(f"  {t['task']:28} {t['variant']:9} {fmt(traced, '10.2f'):>10} {fmt(ncu, '10.2f'):>10} {fmt(diff, '+7.2f'):>7}  "
          f"{fmt(k, '5.0f'):>5}  {note}{(' [' + flags + ']') if flags else ''}")
    if diffs:
        p(f"  max |diff| {max(diffs):.2f}% over {len(diffs)} tasks; within 5%: {sum(1 for d in diffs if d <= 5)}/{len(diffs)}")

# ---- 5. overhead
ov = load(os.path.join(res, "overhead.json"))
if ov:
    p(f"metrics pass, {ov['task']} {ov['variant']}: +{ov['metrics_added_s']:.3f} s wall per evaluation (metrics on vs off, "
      f"median of {ov['reps']}; {ov['metrics_passes']} passes; profiler candidate {ov['metrics_candidate_ms']:.0f} ms + "
      f"reference {ov['metrics_reference_ms']:.0f} ms; first in a worker incl. CUPTI set-up +{ov['metrics_first_added_s']:.3f} s) "
      f"(goal <= 1.0 s)")
    if ov.get("lean_metrics") and ov.get("lean_added_s") is not None:
        p(f"  lean set ({len(ov['lean_metrics'])} metrics, no sm__throughput / gpu__compute_memory_throughput): "
          f"+{ov['lean_added_s']:.3f} s, {ov['lean_passes']} passes; profiler candidate {fmt(ov['lean_candidate_ms'], '.0f')} ms "
          f"+ reference {fmt(ov['lean_reference_ms'], '.0f')} ms")
    p(f"trace pass: candidate median {ov['candidate_off_ms'] * 1e3:.2f} us trace off vs {ov['candidate_trace_ms'] * 1e3:.2f} us "
      f"trace on ({ov['trace_change_pct']:+.2f}%, goal <= 2%; worker before any CUPTI use {ov['candidate_pristine_ms'] * 1e3:.2f} us); "
      f"+{ov['trace_added_s']:.3f} s wall; the traced runs themselves {fmt(ov['traced_run_event_ms'] * 1e3 if ov['traced_run_event_ms'] else None, '.2f')} us event time "
      f"({fmt(ov['traced_run_change_pct'], '+.2f')}%)")
else:
    p("metrics/trace overhead (bench_worker overhead): not run")
bench = read(os.path.join(out, "bench.log"))
prof_rows = []
for l in bench.splitlines():
    if re.match(r"^(scale 1M floats|rowscale 4096x4096)\s", l) and "%" in l:
        c = l.split()
        p("bench_profiler tracing during runs: " + " ".join(c[:-6]) + f": none {c[-6]} ms, kernels-only {c[-5]} ms ({c[-3]}), "
          f"full {c[-4]} ms ({c[-2]})")
    elif re.match(r"^(rowscale 4096x4096|naive diag matmul|reference \(naive\))", l) and "%" not in l:
        m = re.match(r"^(.*?)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+(\d+)", l)
        if m:
            prof_rows.append(f"{m.group(1)} {float(m.group(2)):.0f} ms ({m.group(4)} passes)")
if prof_rows:
    p("bench_profiler metrics pass wall time: " + "; ".join(prof_rows))

# DRAM / FLOP checks of tst_profiler_gpu_metrics
dram = re.search(r"\[\d\][^\n]*?copy_kernel[^\n]*?DRAM\s+([\d.]+) MiB", gpu_log)
flop = re.search(r"\[\d\][^\n]*?fma_kernel[^\n]*?FLOP ([\d.e+]+)", gpu_log)
sms = re.search(r'"sm_count":\s*(\d+)', bench + gpu_log)
st_m = gpu.get("tst_profiler_gpu_metrics", ("not run", 0))[0]
expect_flop = 2 * int(sms.group(1)) * 8 * 256 * 8 * 4096 if sms else None
p(f"tst_profiler_gpu_metrics ({st_m}): copy kernel DRAM {dram.group(1) + ' MiB' if dram else 'n/a'} vs 512 MiB moved "
  f"({fmt(100 * (float(dram.group(1)) / 512 - 1), '+.3f') + '%' if dram else 'n/a'}, check <= 2%); "
  f"FMA kernel FLOP {flop.group(1) if flop else 'n/a'} vs {expect_flop if expect_flop else '?'} (check: exact)")

# ---- 6. injection
inj = [re.sub(r"^\d+: ", "", l) for l in gpu_log.splitlines()
       if re.search(r"traced \d+ kernels|PyTorch|python3 with CUDA torch", l)]
p(f"tst_profiler_inject ({gpu.get('tst_profiler_inject', ('not run', 0))[0]}): " + (" | ".join(i.strip() for i in inj[:3]) if inj else "no result line"))

print("\n".join(lines))
