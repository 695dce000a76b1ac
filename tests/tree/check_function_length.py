#!/usr/bin/env python3
"""Fails when a C++ function in KForge's sources is longer than the limit (100 lines, from the line of its name to
its closing brace): a function that long is asking to be split into steps that read as its flow. The functions
that were longer when the check came are listed in long_functions.txt with their length then; each may shrink
(and leaves the list once it is under the limit) but not grow, and no new one may join them.
Usage: check_function_length.py SOURCE_ROOT [--limit N] [--allowlist FILE]

Why 100: in app/, core/ and views/ half the functions are under 10 lines, 95% under 50 and 98.5% at most 100; the
longest one per hundred are command-line mains, constructors that build a whole panel and passes that do
several things in a row, the shape the limit is meant to stop (issue 39). 100 lines is about two screens: a
function under it can be read without losing its start."""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import functionscan  # noqa: E402
import sourcetree  # noqa: E402

LIMIT = 100
TOP_DIRS = ('app', 'core', 'views', 'tests')
ALLOWLIST = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'long_functions.txt')


def read_allowlist(path):
    """{(path, name): lines} from lines of 'LINES PATH NAME' ('#' starts a comment)."""
    allowed = {}
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 3 or not parts[0].isdigit():
                raise SystemExit(f'{path}:{number}: expected "LINES PATH NAME", not "{line}"')
            allowed[(parts[1], parts[2])] = int(parts[0])
    return allowed


def check(root, limit, allowed, listed_in):
    problems, seen = [], {}
    for rel, full in sourcetree.walk_sources(root, TOP_DIRS):
        for name, first, last in functionscan.functions(sourcetree.read_text(full)):
            lines = last - first + 1
            key = (rel, name)
            if key in allowed:
                seen[key] = max(seen.get(key, 0), lines)
                if lines > allowed[key]:
                    problems.append(f'{rel}:{first}: {name} is {lines} lines, longer than the {allowed[key]} it was '
                                    f'allowed in {listed_in}: split it into steps instead')
            elif lines > limit:
                problems.append(f'{rel}:{first}: {name} is {lines} lines, over the limit of {limit}: split it into '
                                f'steps that read as its flow')
    for (rel, name), lines in sorted(allowed.items()):
        if (rel, name) not in seen:
            problems.append(f'{rel}: {name} is listed in {listed_in} but not found: remove it '
                            f'from the list')
        elif seen[(rel, name)] <= limit:
            problems.append(f'{rel}: {name} is {seen[(rel, name)]} lines now, within the limit: remove it from '
                            f'{listed_in}')
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('root')
    parser.add_argument('--limit', type=int, default=LIMIT)
    parser.add_argument('--allowlist', default=ALLOWLIST)
    args = parser.parse_args()
    allowed = read_allowlist(args.allowlist) if os.path.isfile(args.allowlist) else {}
    problems = check(os.path.abspath(args.root), args.limit, allowed, os.path.basename(args.allowlist))
    for p in problems:
        print(p)
    if problems:
        print(f'check_function_length: {len(problems)} problem(s) with functions over {args.limit} lines')
        return 1
    print(f'check_function_length: no new function over {args.limit} lines, none of the {len(allowed)} listed grew')
    return 0


if __name__ == '__main__':
    sys.exit(main())
