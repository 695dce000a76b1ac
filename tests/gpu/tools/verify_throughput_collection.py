#!/usr/bin/env python3
"""The throughput sets of tests/gpu/run_verify_collection.sh, and its per-kind table.

  make OUT --cu N --inline N   OUT/cu/level1/..., OUT/inline/level1/...: candidates for the fixture collection's
                               problems (tests/fixtures/collections/kernelbench), each of distinct bytes so that each
                               .cu is an nvcc build of its own (a compile-cache miss) and each load_inline module an
                               extension build of its own (its own name, so its own folder of the judge's cache):
                               variants of the fixture's honest .cu candidates (7_matvec_warp, 4_gemm_sigmoid_scaling)
                               and of its load_inline one (13_l2norm_load_inline).
  table NAME=DIR:WALL_S ... [--root COLLECTION]...   per verify output folder (results.csv) and its command's wall time: pairs, time per
                               pair by kind (.cu, plain ModelNew, load_inline ModelNew, torch extension), pairs a
                               minute by the wall time; the goals' rows marked ok / BELOW.
"""
import argparse
import csv
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..', '..'))
CANDIDATES = os.path.join(ROOT, 'tests', 'fixtures', 'collections', 'folder', 'candidates')
GOALS = {'.cu': 40.0, 'load_inline': 8.0}  # pairs a minute (issue 36); load_inline counting its first build


def make(out, cu, inline):
    sources = [('level1', '7_matvec_warp.cu'), ('level2', '4_gemm_sigmoid_scaling.cu')]
    for i in range(cu):
        level, name = sources[i % len(sources)]
        text = open(os.path.join(CANDIDATES, level, name)).read()
        stem, ext = os.path.splitext(name)
        dest = os.path.join(out, 'cu', level, '%s_v%02d%s' % (stem, i, ext))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, 'w') as f:
            f.write('// throughput variant %d (distinct bytes: a build of its own)\n' % i + text)
    text = open(os.path.join(CANDIDATES, 'level1', '13_l2norm_load_inline.py')).read()
    if 'name="fixture_l2norm"' not in text:
        sys.exit('13_l2norm_load_inline.py no longer names its extension "fixture_l2norm"')
    for i in range(inline):
        dest = os.path.join(out, 'inline', 'level1', '13_l2norm_v%02d.py' % i)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, 'w') as f:
            f.write(text.replace('name="fixture_l2norm"', 'name="fixture_l2norm_v%02d"' % i))
    print('made %d .cu and %d load_inline candidates under %s' % (cu, inline, out))


def kind_of(row, roots):
    kind = row.get('kind', '')
    if kind != 'ModelNew':
        return kind or '?'
    cand = row.get('candidate', '')
    for r in [''] + roots:
        p = os.path.join(r, cand) if r else cand
        if os.path.isfile(p):
            return 'load_inline' if 'load_inline' in open(p, errors='replace').read() else 'ModelNew'
    return 'ModelNew?'


def from_log(path):
    """A verify cut before its results.csv: a row per pair with a main run in results.jsonl (candidate, kind, the
    main run's verdict, time_s the worker time of the pair's runs), or None without the file."""
    if not os.path.isfile(path):
        return None
    pairs = {}
    with open(path, errors='replace') as f:
        for line in f:
            try:
                rec = json.loads(line)
            except ValueError:
                continue  # the line the cut left half written
            p = pairs.setdefault(rec.get('pair', ''), {'time_s': 0.0})
            p['time_s'] += float(rec.get('worker_s') or 0)
            if rec.get('run') == 'main':
                p.update(candidate=rec.get('candidate', ''), kind=rec.get('kind', ''),
                         verdict=(rec.get('result') or {}).get('verdict', '?'))
    return [dict(p, time_s='%.2f' % p['time_s']) for p in pairs.values() if 'verdict' in p]


def table(specs, extra_roots):
    rows = []
    for spec in specs:
        name, _, rest = spec.partition('=')
        folder, _, wall = rest.rpartition(':')
        path = os.path.join(folder, 'results.csv')
        if os.path.isfile(path):
            with open(path) as f:
                records = list(csv.DictReader(f))
        else:
            records = from_log(os.path.join(folder, 'results.jsonl'))
            if records is None:
                print('%-10s no results.csv or results.jsonl in %s' % (name, folder))
                continue
            print('%-10s cut before results.csv: %d pairs from results.jsonl (time_s: their runs\' worker time)'
                  % (name, len(records)))
        roots = extra_roots + [CANDIDATES, os.path.join(ROOT, 'tests', 'fixtures', 'collections'), os.getcwd()]
        by = {}
        for r in records:
            by.setdefault(kind_of(r, roots), []).append(r)
        for kind, rs in sorted(by.items()):
            times = [float(r['time_s']) for r in rs if r.get('time_s') not in (None, '')]
            verdicts = {}
            for r in rs:
                verdicts[r.get('verdict', '?')] = verdicts.get(r.get('verdict', '?'), 0) + 1
            rows.append((name, kind, len(rs), times, verdicts, float(wall or 0), len(by) == 1))
    print('%-10s %-14s %5s %9s %9s %9s %10s  %-8s %s' % ('set', 'kind', 'pairs', 'median_s', 'mean_s', 'max_s',
                                                           'pairs/min', 'goal', 'verdicts'))
    status = 0
    for name, kind, n, times, verdicts, wall, alone in rows:
        med = '%9.2f' % statistics.median(times) if times else '%9s' % '-'
        mean = '%9.2f' % statistics.mean(times) if times else '%9s' % '-'
        mx = '%9.2f' % max(times) if times else '%9s' % '-'
        # Pairs a minute by the command's wall time only where the set holds one kind (the throughput sets).
        rate = n / wall * 60 if alone and wall > 0 else None
        goal = GOALS.get(kind)
        mark = '' if rate is None or goal is None else ('ok' if rate >= goal else 'BELOW')
        if mark == 'BELOW':
            status = 1
        print('%-10s %-14s %5d %s %s %s %10s  %-8s %s' % (
            name, kind, n, med, mean, mx, '%.1f' % rate if rate is not None else '-',
            ('>=%g %s' % (goal, mark)) if mark else '', ' '.join('%s:%d' % kv for kv in sorted(verdicts.items()))))
    print('(time_s: a pair\'s workers\' time on its runs plus its compile, from results.csv; pairs/min: the set\'s '
          'pairs over its verify command\'s wall time, imports included)')
    return status


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='cmd', required=True)
    m = sub.add_parser('make')
    m.add_argument('out')
    m.add_argument('--cu', type=int, default=24)
    m.add_argument('--inline', type=int, default=12)
    t = sub.add_parser('table')
    t.add_argument('specs', nargs='+')
    t.add_argument('--root', action='append', default=[], help='a collection folder candidates are relative to')
    a = ap.parse_args()
    if a.cmd == 'make':
        make(a.out, a.cu, a.inline)
        return 0
    return table(a.specs, a.root)


if __name__ == '__main__':
    sys.exit(main())
