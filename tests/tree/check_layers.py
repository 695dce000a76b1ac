#!/usr/bin/env python3
"""Fails when an arrow of docs/architecture.md points up:
  - a file in core/ includes from views/ or app/, or includes a Qt Widgets header;
  - a file in core/runtime/ includes Qt (any <Q...>/<Qt...> header) or core/ outside core/runtime/;
  - a file in views/ includes from app/.
Usage: check_layers.py SOURCE_ROOT [--widgets-dir DIR]   (DIR: Qt's QtWidgets include folder, to name its headers)
Prints one line per violation (file:line: what and why) and exits 1 if there is any."""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sourcetree  # noqa: E402

QT_HEADER = re.compile(r'^(Q[A-Z]\w*|Qt\w*/.*|Qt\w+|q\w+\.h)$')
# Headers every Qt-free file may still include although they start with a q (none today; keep the list explicit).
NOT_QT = set()


def resolve(root, rel_file, quote, header):
    """The project path an #include refers to: relative to the including file first (for "..."), then to the
    source root (the project's include directory). None for a header outside the project."""
    if quote == '"':
        local = os.path.normpath(os.path.join(root, os.path.dirname(rel_file), header))
        if os.path.isfile(local):
            return os.path.relpath(local, root).replace(os.sep, '/')
    rooted = os.path.normpath(os.path.join(root, header))
    if os.path.isfile(rooted):
        return os.path.relpath(rooted, root).replace(os.sep, '/')
    # An include that does not exist yet still names its layer by its first folder (app/..., views/...).
    first = header.split('/', 1)[0]
    if first in ('app', 'views', 'core') and '/' in header:
        return os.path.normpath(header).replace(os.sep, '/')
    return None


def layer_of(path):
    if path.startswith('core/runtime/'):
        return 'runtime'
    for top in ('core', 'views', 'app'):
        if path.startswith(top + '/'):
            return top
    return None


def widget_headers(widgets_dir):
    if not widgets_dir or not os.path.isdir(widgets_dir):
        return set()
    return {name for name in os.listdir(widgets_dir) if name.startswith('Q') and '.' not in name}


def check(root, widgets):
    problems = []
    for rel, full in sourcetree.walk_sources(root, ('core', 'views')):
        layer = layer_of(rel)
        for line, quote, header in sourcetree.includes(sourcetree.read_text(full)):
            target = resolve(root, rel, quote, header)
            target_layer = layer_of(target) if target else None
            where = f'{rel}:{line}: #include {quote}{header}{">" if quote == "<" else quote}'
            if layer in ('core', 'runtime') and target_layer in ('views', 'app'):
                problems.append(f'{where}: core/ must not include from {target_layer}/ (arrows point down)')
            elif layer == 'views' and target_layer == 'app':
                problems.append(f'{where}: views/ must not include from app/ (arrows point down)')
            elif layer == 'runtime' and target_layer == 'core':
                problems.append(f'{where}: core/runtime/ must not include core/ outside core/runtime/ '
                                f'(the runtime builds without Qt on a GPU host)')
            if layer == 'runtime' and target is None and QT_HEADER.match(header) and header not in NOT_QT:
                problems.append(f'{where}: core/runtime/ must not include Qt (it builds on a GPU host without Qt)')
            elif layer == 'core' and target is None:
                base = header.split('/')[-1]
                if header.startswith('QtWidgets') or base in widgets:
                    problems.append(f'{where}: core/ must not include a Qt Widgets header (no widget in core)')
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('root')
    parser.add_argument('--widgets-dir', default='')
    args = parser.parse_args()
    problems = check(os.path.abspath(args.root), widget_headers(args.widgets_dir))
    for p in problems:
        print(p)
    if problems:
        print(f'check_layers: {len(problems)} include(s) against the layering of docs/architecture.md')
        return 1
    print('check_layers: every include points down')
    return 0


if __name__ == '__main__':
    sys.exit(main())
