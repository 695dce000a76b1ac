"""The CUPTI trace pass of a torch evaluation (docs/torch-worker.md, "Trace"): after timing, each host loads
KForge's injection library (libkforge_inject.so, the tracer kforge-worker uses) into itself, starts it and runs
its module a few more times, each run bracketed on CUPTI's own clock after an L2 flush and a device-wide
synchronisation. The records are written as JSON lines in the host's temporary directory and summarised there
into the shape of kforge-worker's `trace` (per side: launches per run, kernel time, GPU-busy time, the
kernels by name). The host is the last thing that runs in its process: CUPTI, once enabled, stays.

Like every figure a candidate's process gives, the candidate's trace is informational: the speedup rests on
the judge's own clock (timing.external). The trace says which kernels ran and how long each took."""

import glob
import json
import os
import statistics

LIBRARY = 'libkforge_inject.so'


def find_library():
    """KFORGE_INJECT_LIB, the installed lib*/kforge/ beside this package's share/kforge/torchworker, or a
    build tree of the source checkout (build/*/core/runtime/profiler/). '' when none exists."""
    env = os.environ.get('KFORGE_INJECT_LIB', '')
    if env:
        return env if os.path.isfile(env) else ''
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # .../share/kforge/torchworker
    prefix = os.path.dirname(os.path.dirname(os.path.dirname(package)))
    for lib in ('lib', 'lib64', 'lib/x86_64-linux-gnu', 'lib/aarch64-linux-gnu'):
        path = os.path.join(prefix, lib, 'kforge', LIBRARY)
        if os.path.isfile(path):
            return path
    source = os.path.dirname(package)  # torchworker/ in a checkout: its parent is the source tree
    built = glob.glob(os.path.join(source, 'build*', '*', 'core', 'runtime', 'profiler', LIBRARY)) + glob.glob(
        os.path.join(source, 'build*', 'core', 'runtime', 'profiler', LIBRARY))
    built.sort(key=os.path.getmtime, reverse=True)
    return built[0] if built else ''


def stats(values):
    if not values:
        return {'n': 0, 'median': None, 'mean': None, 'min': None, 'max': None}
    return {'n': len(values), 'median': statistics.median(values), 'mean': statistics.fmean(values),
            'min': min(values), 'max': max(values)}


def busy_ns(items):
    """Time the device had at least one of these items running (their intervals' union)."""
    total, end = 0, None
    for start, stop in sorted((i['start_ns'], i['end_ns']) for i in items):
        if end is None or start > end:
            total += stop - start
            end = stop
        elif stop > end:
            total += stop - end
            end = stop
    return total


def summarize(lines, windows):
    """One side of the trace from the injection library's JSON lines and the runs' [start, end] windows
    (CUPTI ns): an item belongs to the run whose window holds its start; the rest (the flushes between runs)
    are not counted (untimed_ignored)."""
    kernels = [r for r in lines if r.get('type') == 'kernel']
    memory = [r for r in lines if r.get('type') in ('memcpy', 'memset')]
    summary = next((r for r in lines if r.get('type') == 'summary'), {})

    def run_of(item):
        for i, (t0, t1) in enumerate(windows):
            if t0 <= item.get('start_ns', -1) <= t1:
                return i
        return None

    ignored = 0

    def by_run(records):
        nonlocal ignored
        runs = [[] for _ in windows]
        for r in records:
            i = run_of(r)
            if i is None:
                ignored += 1
            else:
                runs[i].append(r)
        return runs

    per_run_kernels, per_run_memory = by_run(kernels), by_run(memory)
    runs = len(windows)
    groups = {}
    for ks in per_run_kernels:
        for k in ks:
            g = groups.setdefault(k.get('name', '?'), {'name': k.get('name', '?'), 'mangled': k.get('mangled', ''),
                                                       'durations': [], 'streams': set(), 'configs': set(),
                                                       'launch': {'grid': k.get('grid'), 'block': k.get('block'),
                                                                  'registers': k.get('registers'),
                                                                  'static_smem': k.get('static_smem'),
                                                                  'dynamic_smem': k.get('dynamic_smem')}})
            g['durations'].append(k.get('duration_ns', 0) / 1000.0)
            g['streams'].add(k.get('stream'))
            g['configs'].add(json.dumps([k.get('grid'), k.get('block')]))
    kernel_list = []
    for g in sorted(groups.values(), key=lambda g: -sum(g['durations'])):
        kernel_list.append({'name': g['name'], 'mangled': g['mangled'], 'count': len(g['durations']),
                            'per_run': len(g['durations']) / runs if runs else 0.0,
                            'total_us': sum(g['durations']), 'duration_us': stats(g['durations']),
                            'launch': g['launch'], 'launch_configs': len(g['configs']),
                            'streams': sorted(s for s in g['streams'] if s is not None)})
    mem_groups = {}
    for ms in per_run_memory:
        for m in ms:
            key = m.get('copy_kind') or m.get('type')
            g = mem_groups.setdefault(key, {'kind': key, 'count': 0, 'bytes': 0, 'total_us': 0.0})
            g['count'] += 1
            g['bytes'] += int(m.get('bytes', 0))
            g['total_us'] += (m.get('end_ns', 0) - m.get('start_ns', 0)) / 1000.0
    kernel_ms = [sum(k.get('duration_ns', 0) for k in ks) / 1e6 for ks in per_run_kernels]
    gpu_ms = [(sum(k.get('duration_ns', 0) for k in ks) + sum(m.get('end_ns', 0) - m.get('start_ns', 0)
                                                              for m in mm)) / 1e6
              for ks, mm in zip(per_run_kernels, per_run_memory)]
    busy_ms = [busy_ns(ks + mm) / 1e6 for ks, mm in zip(per_run_kernels, per_run_memory)]
    event_ms = [(t1 - t0) / 1e6 for t0, t1 in windows]
    launches = [len(ks) for ks in per_run_kernels]
    side = {'runs': runs, 'launches_per_run': statistics.median(launches) if launches else 0,
            'kernel_time_ms': stats(kernel_ms), 'gpu_time_ms': stats(gpu_ms), 'busy_time_ms': stats(busy_ms),
            'event_time_ms': stats(event_ms),
            'gpu_over_event': (statistics.median(busy_ms) / statistics.median(event_ms)
                               if event_ms and statistics.median(event_ms) > 0 else None),
            'kernels': kernel_list, 'memory': sorted(mem_groups.values(), key=lambda g: -g['total_us']),
            'streams': sorted({k.get('stream') for ks in per_run_kernels for k in ks if k.get('stream') is not None})}
    counts = {'records': int(summary.get('records', len(kernels) + len(memory))),
              'dropped': int(summary.get('dropped', 0)), 'untimed_ignored': ignored}
    return side, counts


def read_lines(path):
    lines = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                lines.append(json.loads(line))
    return lines


def combine(candidate, reference):
    """The result's `trace` from the hosts' answers ({'side':..., 'counts':...} or {'problem': ...})."""
    problems = [a['problem'] for a in (candidate, reference) if a and a.get('problem')]
    if problems or not candidate or not reference:
        return {'available': False, 'problem': '; '.join(problems) or 'no trace answer'}
    return {'available': True, 'source': LIBRARY + ' in each host, after timing',
            'records': candidate['counts']['records'] + reference['counts']['records'],
            'dropped': candidate['counts']['dropped'] + reference['counts']['dropped'],
            'untimed_ignored': candidate['counts']['untimed_ignored'] + reference['counts']['untimed_ignored'],
            'kernels_seen': sum(k['count'] for k in candidate['side']['kernels'] + reference['side']['kernels']),
            'reference': reference['side'], 'candidate': candidate['side'], 'flags': []}
