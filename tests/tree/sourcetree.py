"""Shared helpers of the source-tree checks: which files are KForge's own sources, and C++ text without
comments and literals (so a commented-out #include or a "class X {" inside a string is not counted)."""

import os
import re

SOURCE_EXTENSIONS = ('.h', '.hpp', '.cpp', '.cc', '.cu', '.cuh', '.c')
# Build trees, vendored third-party code and generated files are not ours to check.
SKIP_DIRS = {'.git', 'build', '__pycache__', 'third_party', '3rdparty'}


def walk_sources(root, top_dirs, extensions=SOURCE_EXTENSIONS):
    """Yields (relative path with '/', absolute path) of every source file under root/<top_dir>."""
    for top in top_dirs:
        base = os.path.join(root, top)
        if not os.path.isdir(base):
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith('build'))
            for name in sorted(filenames):
                if name.endswith(extensions):
                    full = os.path.join(dirpath, name)
                    yield os.path.relpath(full, root).replace(os.sep, '/'), full


def read_text(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return f.read()


_RAW_STRING = re.compile(r'R"([^()\\\s]{0,16})\(')


def strip_comments_and_literals(text):
    """Replaces comments and string/char literals by spaces, keeping newlines (line numbers stay right).
    Preprocessor lines are kept as they are, so #include "x.h" survives."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == '#':
            # A preprocessor line: copy it to its end, dropping a trailing // comment.
            j = text.find('\n', i)
            j = n if j < 0 else j
            line = text[i:j]
            cut = line.find('//')
            if cut >= 0:
                line = line[:cut]
            out.append(line)
            i = j
            continue
        if c == '\n':
            out.append(c)
            at_line_start = True
            i += 1
            continue
        if c in ' \t':
            out.append(c)
            i += 1
            continue
        at_line_start = False
        if text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
            continue
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
            continue
        m = _RAW_STRING.match(text, i)
        if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_')):
            end = text.find(')' + m.group(1) + '"', m.end())
            end = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:end]))
            i = end
            continue
        if c in '"\'':
            # A digit separator (1'000'000) is not a character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(' ')
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
            continue
        out.append(c)
        i += 1
    return ''.join(out)


INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.M)


def includes(text):
    """(line number, '<' or '"', header) of every #include in text."""
    stripped = strip_comments_and_literals(text)
    for m in INCLUDE.finditer(stripped):
        yield stripped.count('\n', 0, m.start()) + 1, m.group(1), m.group(2).strip()
