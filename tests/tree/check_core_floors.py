#!/usr/bin/env python3
"""Fails when an include between core/'s folders points up a floor: every folder of core/ has one floor in
core_floors.txt (the highest first), and a file includes only its own folder and the folders on the floors below
it, so no two folders include each other, directly or round a loop. Also fails for a folder of core/ with no floor,
for a floor whose folder is gone, and when docs/architecture.md's section "core/'s floors" lists other floors.
Usage: check_core_floors.py SOURCE_ROOT [--floors FILE]   (default: core_floors.txt next to this script)"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_layers  # noqa: E402
import sourcetree  # noqa: E402

FLOORS = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'core_floors.txt')
DOC, DOC_SECTION = 'docs/architecture.md', "## core/'s floors"


def read_floors(path):
    """The folders of core_floors.txt, lowest first (the file lists the highest first; '#' starts a comment,
    the first word of a line is the folder, the rest says what it holds)."""
    folders = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            words = line.split('#', 1)[0].split()
            if words:
                folders.append(words[0].rstrip('/'))
    return list(reversed(folders))


def documented_floors(root):
    """The folders the doc's floors section draws (the first word of each line of its first ``` block, the highest
    first, as core_floors.txt), or None where the doc has no such section."""
    path = os.path.join(root, DOC)
    if not os.path.isfile(path):
        return None
    text = sourcetree.read_text(path)
    start = text.find('\n' + DOC_SECTION + '\n')
    if start < 0:
        return None
    block = text[start:].split('```', 2)
    lines = block[1].splitlines() if len(block) > 2 else []
    return [line.split()[0] for line in lines if line[:1].isalpha()]


def folder_of(path):
    """core/<folder>/... -> folder; None for a path outside a folder of core/."""
    parts = path.split('/')
    return parts[1] if len(parts) > 2 and parts[0] == 'core' else None


def loops(edges):
    """The folders that include each other round a loop: every strongly connected set of more than one folder,
    each as a list sorted by name (Tarjan's algorithm)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def check(root, floors):
    problems = []
    level = {folder: i for i, folder in enumerate(floors)}
    present = sorted(d for d in os.listdir(os.path.join(root, 'core'))
                     if os.path.isdir(os.path.join(root, 'core', d)) and d not in sourcetree.SKIP_DIRS)
    for folder in present:
        if folder not in level:
            problems.append(f'core/{folder}/: no floor in core_floors.txt: list it where its includes put it')
    for folder in floors:
        if folder not in present:
            problems.append(f'core/{folder}/: has a floor in core_floors.txt but no folder: remove it from the list')
    documented = documented_floors(root)
    if documented is not None and documented != list(reversed(floors)):
        problems.append(f'{DOC}: the section "{DOC_SECTION[3:]}" lists {" ".join(documented)}; core_floors.txt lists '
                        f'{" ".join(reversed(floors))}: make them agree')
    edges = {}
    for rel, full in sourcetree.walk_sources(root, ('core',)):
        source = folder_of(rel)
        for line, quote, header in sourcetree.includes(sourcetree.read_text(full)):
            target = check_layers.resolve(root, rel, quote, header)
            into = folder_of(target) if target else None
            if source is None or into is None or into == source:
                continue
            edges.setdefault(source, set()).add(into)
            if source in level and into in level and level[into] > level[source]:
                close = f'{quote}{header}{">" if quote == "<" else quote}'
                problems.append(f'{rel}:{line}: #include {close}: core/{into}/ is on a floor above core/{source}/ '
                                f'(includes point down the floors of core_floors.txt)')
    return problems, loops(edges)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('root')
    parser.add_argument('--floors', default=FLOORS)
    args = parser.parse_args()
    problems, found = check(os.path.abspath(args.root), read_floors(args.floors))
    for p in problems:
        print(p)
    for group in found:
        print('folder loop: ' + ', '.join(f'core/{g}/' for g in group) + ' include each other')
    if problems or found:
        print(f'check_core_floors: {len(problems)} problem(s), {len(found)} folder loop(s) in core/')
        return 1
    print('check_core_floors: every include in core/ points down a floor')
    return 0


if __name__ == '__main__':
    sys.exit(main())
