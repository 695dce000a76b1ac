#!/usr/bin/env python3
"""Fails when two of KForge's source files in different folders share a name (speedoflight.h in core/eval/ and in
core/runtime/worker/): an editor's tab, a debugger's frame and a compiler's message name the file alone, and a
reader cannot tell which one. Two files of one folder may share a stem (a class's .h and .cpp); main.cpp is every
program's. Twins that exist today are listed in twin_names.txt: the list may shrink but not grow, and a listed
name that is no longer twinned must leave it.
Usage: check_file_names.py SOURCE_ROOT [--allowlist FILE]   (default: twin_names.txt next to this script)"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sourcetree  # noqa: E402

TOP_DIRS = ('app', 'core', 'views')
ALLOWLIST = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'twin_names.txt')
# Names every program has; the folder says which program.
SHARED = {'main'}


def read_allowlist(path):
    """name -> the folders it is allowed in ('#' starts a comment; a line: the name, then its folders)."""
    allowed = {}
    if not os.path.isfile(path):
        return allowed
    with open(path, encoding='utf-8') as f:
        for line in f:
            words = line.split('#', 1)[0].split()
            if words:
                allowed[words[0]] = sorted(w.rstrip('/') for w in words[1:])
    return allowed


def folders_by_name(root):
    """stem (file name without its extension) -> the sorted folders that hold a source file of that stem."""
    found = {}
    for rel, _ in sourcetree.walk_sources(root, TOP_DIRS):
        folder, name = os.path.split(rel)
        found.setdefault(os.path.splitext(name)[0], set()).add(folder)
    return {stem: sorted(folders) for stem, folders in found.items()}


def check(root, allowed, allowlist_name):
    problems = []
    found = folders_by_name(root)
    for stem, folders in sorted(found.items()):
        if len(folders) < 2 or stem in SHARED:
            continue
        if stem not in allowed:
            problems.append(f'{stem}: in {len(folders)} folders ({", ".join(f + "/" for f in folders)}): '
                            f'give each a name that says what it holds')
        elif not set(folders) <= set(allowed[stem]):
            problems.append(f'{stem}: now also in {", ".join(f + "/" for f in folders if f not in allowed[stem])}: '
                            f'{allowlist_name} lists it in {", ".join(f + "/" for f in allowed[stem])} only')
    for stem, folders in sorted(allowed.items()):
        if len(found.get(stem, ())) < 2:
            problems.append(f'{stem}: listed in {allowlist_name} but no longer twinned: remove it from the list')
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('root')
    parser.add_argument('--allowlist', default=ALLOWLIST)
    args = parser.parse_args()
    allowed = read_allowlist(args.allowlist)
    problems = check(os.path.abspath(args.root), allowed, os.path.basename(args.allowlist))
    for p in problems:
        print(p)
    if problems:
        print(f'check_file_names: {len(problems)} name(s) shared by source files of different folders')
        return 1
    print(f'check_file_names: no new twin file names ({len(allowed)} listed in {os.path.basename(args.allowlist)})')
    return 0


if __name__ == '__main__':
    sys.exit(main())
