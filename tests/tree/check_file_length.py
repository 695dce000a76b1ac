#!/usr/bin/env python3
"""Fails when one of KForge's own source files is longer than the limit (800 lines): a file that long is asking
to be split by its cohesive parts. Generated and data files are listed below, each with the reason.
Usage: check_file_length.py SOURCE_ROOT [--limit N]"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sourcetree  # noqa: E402

LIMIT = 800
TOP_DIRS = ('app', 'core', 'views', 'tests', 'resources', 'scripts', 'translations', 'packaging', 'torchworker')
# Code and build files; recorded data (JSON results, SSE streams, .kforge sessions) is not code.
EXTENSIONS = sourcetree.SOURCE_EXTENSIONS + ('.py', '.sh', '.cmake', 'CMakeLists.txt', '.ui')
# Not hand-written code, or data tables that grow by one row per entry: path -> why it may be longer.
EXCEPTIONS = {
    'translations/fill_zh_CN.py': 'the zh_CN translation table (one dictionary row per source string)',
}


def check(root, limit, exceptions):
    problems = []
    for rel, full in sourcetree.walk_sources(root, TOP_DIRS, EXTENSIONS):
        if rel in exceptions:
            continue
        with open(full, 'rb') as f:
            lines = f.read().count(b'\n')
        if lines > limit:
            problems.append(f'{rel}: {lines} lines, over the limit of {limit}: split it by its cohesive parts '
                            f'(or, if it is generated, list it in {os.path.basename(__file__)} with the reason)')
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('root')
    parser.add_argument('--limit', type=int, default=LIMIT)
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    problems = check(root, args.limit, EXCEPTIONS)
    for p in problems:
        print(p)
    stale = [path for path in EXCEPTIONS if not os.path.isfile(os.path.join(root, path))]
    for path in stale:
        print(f'{path}: listed as an exception but does not exist: remove it from the list')
    if problems or stale:
        print(f'check_file_length: {len(problems)} file(s) over {args.limit} lines')
        return 1
    print(f'check_file_length: no source file over {args.limit} lines')
    return 0


if __name__ == '__main__':
    sys.exit(main())
