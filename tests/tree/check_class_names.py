#!/usr/bin/env python3
"""Fails when two class definitions in KForge's sources share one qualified name (say kforge::WorkerClient in
core/workerpool/ and in core/runtime/worker/): a reader, a debugger and the linker (ODR) cannot tell them apart.
Classes in an anonymous namespace or inside a function are local to their file and are not compared.
Usage: check_class_names.py SOURCE_ROOT [TOP_DIR...]   (default: app core views)"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sourcetree  # noqa: E402

IDENT = r'[A-Za-z_]\w*'
# The head of a scope that the next '{' opens.
NAMESPACE = re.compile(r'\bnamespace\s+(' + IDENT + r'(?:\s*::\s*(?:inline\s+)?' + IDENT + r')*)?\s*$')
CLASS = re.compile(r'(?<![\w:])(?:(enum)\s+)?(class|struct|union)\s+(?:\[\[[^\]]*\]\]\s*|alignas\s*\([^)]*\)\s*)*'
                   r'(' + IDENT + r'(?:\s*::\s*' + IDENT + r')*)(?:\s*<[^{;]*>)?(?:\s+final)?\s*(?::(?!:)[^;{}()]*(?:\([^)]*\)[^;{}()]*)*)?\s*$')
TEMPLATE_PARAM = re.compile(r'template\s*<[^{};]*$')


def definitions(text):
    """(qualified name, line) of every class, struct or union defined at namespace or class scope."""
    code = sourcetree.strip_comments_and_literals(text)
    code = re.sub(r'^[ \t]*#.*$', '', code, flags=re.M)  # preprocessor lines name no scope
    found = []
    scopes = []  # (kind, name): kind is 'ns', 'anon', 'class', 'block'
    last = 0  # where the text that may head the next scope starts
    for i, c in enumerate(code):
        if c in ';}':
            if c == '}' and scopes:
                scopes.pop()
            last = i + 1
            continue
        if c != '{':
            continue
        head = code[last:i]
        last = i + 1
        local = any(kind in ('anon', 'block') for kind, _ in scopes)
        ns = NAMESPACE.search(head)
        if ns:
            name = ns.group(1)
            if name is None:
                scopes.append(('anon', ''))
            else:
                scopes.append(('ns', re.sub(r'\s+|inline', '', name)))
            continue
        cls = CLASS.search(head)
        if cls and not cls.group(1):
            # "template <class T> struct X {": the last class/struct word before the brace names X.
            name = re.sub(r'\s+', '', cls.group(3))
            qualified = '::'.join([n for kind, n in scopes if kind in ('ns', 'class') and n] + [name])
            if not local:
                found.append((qualified, code.count('\n', 0, i - len(head) + cls.start()) + 1))
            scopes.append(('class', name))
            continue
        if cls and cls.group(1):
            scopes.append(('block', ''))  # enum class: its enumerators open no class scope
            continue
        if re.search(r'\bextern\s*$', head):  # extern "C" { (the literal is blanked)
            scopes.append(('ns', ''))  # names nothing, hides nothing
            continue
        scopes.append(('block', ''))
    return found


def check(root, top_dirs):
    seen = {}
    for rel, full in sourcetree.walk_sources(root, top_dirs):
        for name, line in definitions(sourcetree.read_text(full)):
            seen.setdefault(name, []).append(f'{rel}:{line}')
    problems = []
    for name, places in sorted(seen.items()):
        if len(places) > 1:
            problems.append(f'{name} is defined {len(places)} times: {", ".join(places)}')
    return problems


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    root = os.path.abspath(sys.argv[1])
    top_dirs = sys.argv[2:] or ['app', 'core', 'views']
    problems = check(root, top_dirs)
    for p in problems:
        print(p)
    if problems:
        print(f'check_class_names: {len(problems)} qualified class name(s) defined more than once')
        return 1
    print('check_class_names: every qualified class name is defined once')
    return 0


if __name__ == '__main__':
    sys.exit(main())
