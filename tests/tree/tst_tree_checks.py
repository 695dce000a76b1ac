#!/usr/bin/env python3
"""The source-tree checks must catch what they are for, not only pass the real tree: each runs on a small
temporary tree, once clean (it passes) and once with one planted mistake (it fails and names the file and line)."""

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
failures = []


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(textwrap.dedent(text))


def run(script, *args):
    p = subprocess.run([sys.executable, os.path.join(HERE, script), *args], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def expect(name, script, args, code, *needles):
    rc, out = run(script, *args)
    missing = [n for n in needles if n not in out]
    if rc != code or missing:
        failures.append(f'{name}: exit {rc} (want {code}), missing {missing} in:\n{out}')
    else:
        print(f'PASS {name}')


def clean_tree(root):
    write(root, 'core/eval/speed.h', '#pragma once\n#include <QString>\n#include "core/runtime/task/spec.h"\n'
                                     'namespace kforge { class Speed { int x; }; }\n')
    write(root, 'core/runtime/task/spec.h', '#pragma once\n#include <string>\n#include "dtype.h"\n'
                                            'namespace kforge::runtime { struct Spec {}; }\n')
    write(root, 'core/runtime/task/dtype.h', '#pragma once\n// #include <QString> in a comment is no include\n'
                                             'namespace kforge::runtime { enum class Dtype { F32 }; }\n')
    write(root, 'views/charts/chart.h', '#pragma once\n#include <QWidget>\n#include "core/eval/speed.h"\n'
                                        'namespace kforge { class Chart : public QWidget {\n'
                                        '  struct Row { int v; };\n}; }\n')
    write(root, 'views/charts/chart.cpp', '#include "chart.h"\nnamespace kforge {\nnamespace { struct Row {}; }\n'
                                          'struct Chart::Row;\nvoid f() { struct Local {}; }\n}\n')
    write(root, 'app/gui/window.cpp', '#include "views/charts/chart.h"\n#include <QMainWindow>\n'
                                      'namespace { struct Row {}; }\n')
    write(root, 'app/gui/small.py', 'print(1)\n' * 10)
    write(root, 'translations/fill_zh_CN.py', 'T = {}\n' * 20)  # a listed data table may be longer


# A function of n lines (its name's line to its closing brace).
def function_text(name, n, qualifier=''):
    return f'int {qualifier}{name}(int a)\n{{\n' + '    a += 1;\n' * (n - 4) + '    return a;\n}\n'


def function_cases():
    """check_function_length.py: the limit, the allowlist that may shrink but not grow, stale entries, and the
    shapes the brace scan must read right (constructors with brace initializers, class bodies, lambdas, strings)."""
    shapes = textwrap.dedent('''\
        namespace kforge {
        namespace {
        const auto twice = [](int v) { return 2 * v; };
        struct Table { int rows[3] = {1, 2, 3}; };
        } // namespace
        Panel::Panel(QWidget *parent)
            : QWidget(parent)
            , m_rows{1, 2}
            , m_name(QStringLiteral("}"))
        {
            connect(this, &Panel::x, this, [this] { if (m_rows[0]) { update(); } });
        }
        class Inline
        {
        public:
            int get() const { return m_v; }
            enum class Kind { A, B };
        private:
            int m_v = 0;
        };
        } // namespace kforge
        ''')
    with tempfile.TemporaryDirectory() as root:
        write(root, 'views/x/panel.cpp', shapes)
        expect_scan = subprocess.run([sys.executable, '-c', 'import sys; sys.path.insert(0, sys.argv[1]); '
                                      'import functionscan; print(functionscan.functions(open(sys.argv[2]).read()))',
                                      HERE, os.path.join(root, 'views/x/panel.cpp')], capture_output=True, text=True)
        want = "[('twice', 3, 3), ('Panel::Panel', 6, 12), ('Inline::get', 16, 16)]"
        if expect_scan.stdout.strip() != want:
            failures.append(f'function scan: got {expect_scan.stdout.strip()}{expect_scan.stderr}, want {want}')
        else:
            print('PASS function scan: lambdas, initializers, class bodies')

    with tempfile.TemporaryDirectory() as root:
        allow = os.path.join(root, 'allow.txt')
        write(root, 'allow.txt', '# lines path name\n12 core/a/long.cpp Long::run\n')
        write(root, 'core/a/long.cpp', function_text('run', 12, 'Long::') + function_text('small', 10))
        expect('functions: an allowed long function passes', 'check_function_length.py',
                   [root, '--limit', '10', '--allowlist', allow], 0, 'no new function over 10 lines')
        write(root, 'app/b/new.cpp', function_text('fresh', 11))
        expect('functions: a new long function fails', 'check_function_length.py',
                   [root, '--limit', '10', '--allowlist', allow], 1,
                   'app/b/new.cpp:1: fresh is 11 lines, over the limit of 10')
        os.remove(os.path.join(root, 'app/b/new.cpp'))
        write(root, 'core/a/long.cpp', function_text('run', 13, 'Long::'))
        expect('functions: an allowed function that grows fails', 'check_function_length.py',
                   [root, '--limit', '10', '--allowlist', allow], 1,
                   'core/a/long.cpp:1: Long::run is 13 lines, longer than the 12 it was allowed')
        write(root, 'core/a/long.cpp', function_text('run', 9, 'Long::'))
        expect('functions: an allowed function now short must leave the list', 'check_function_length.py',
                   [root, '--limit', '10', '--allowlist', allow], 1,
                   'core/a/long.cpp: Long::run is 9 lines now, within the limit: remove it')
        write(root, 'core/a/long.cpp', function_text('renamed', 12, 'Long::'))
        expect('functions: a listed function that is gone fails', 'check_function_length.py',
                   [root, '--limit', '10', '--allowlist', allow], 1,
                   'core/a/long.cpp: Long::run is listed in allow.txt but not found')


def floor_cases():
    """check_core_floors.py: includes down the floors pass; one up a floor fails, names the loop it closes; a folder
    with no floor and a floor with no folder fail."""
    def floors(root, *names):  # the highest first, as in core_floors.txt
        write(root, 'floors.txt', '# folder  what it holds\n' + ''.join(f'{n}  the {n}\n' for n in names))
        return [root, '--floors', os.path.join(root, 'floors.txt')]

    with tempfile.TemporaryDirectory() as root:
        clean_tree(root)
        write(root, 'core/export/report.h', '#pragma once\n#include "core/eval/speed.h"\n#include "../eval/speed.h"\n')
        args = floors(root, 'export', 'eval', 'runtime')
        expect('floors: includes down the floors pass', 'check_core_floors.py', args, 0, 'points down a floor')
        write(root, 'core/eval/bad.cpp', '#include "core/eval/speed.h"\n#include "../export/report.h"\n')
        expect('floors: an include up a floor fails', 'check_core_floors.py', args, 1,
               'core/eval/bad.cpp:2: #include "../export/report.h": core/export/ is on a floor above core/eval/',
               'folder loop: core/eval/, core/export/ include each other')
        os.remove(os.path.join(root, 'core/eval/bad.cpp'))
        write(root, 'core/fresh/new.h', '#pragma once\n')
        expect('floors: a folder without a floor fails', 'check_core_floors.py', args, 1,
               'core/fresh/: no floor in core_floors.txt')
        expect('floors: a floor without a folder fails', 'check_core_floors.py',
               floors(root, 'fresh', 'export', 'gone', 'eval', 'runtime'), 1,
               'core/gone/: has a floor in core_floors.txt but no folder')
        shutil.rmtree(os.path.join(root, 'core/fresh'))
        args = floors(root, 'export', 'eval', 'runtime')
        doc = "# Arch\n\n## core/'s floors\n\n```\nexport   the exporters\n  │      more\n%s\nruntime  Qt-free\n```\n"
        write(root, 'docs/architecture.md', doc % 'eval     the types')
        expect('floors: the doc drawing the same floors passes', 'check_core_floors.py', args, 0, 'points down')
        write(root, 'docs/architecture.md', doc % 'queue    the queue\neval     the types')
        expect('floors: the doc drawing other floors fails', 'check_core_floors.py', args, 1,
               "docs/architecture.md: the section \"core/'s floors\" lists export queue eval runtime; "
               'core_floors.txt lists export eval runtime')


def twin_cases():
    """check_file_names.py: a class's .h and .cpp and every program's main.cpp pass; a name in two folders fails
    unless listed, a listed twin may not spread to a third folder, and a listed name no longer twinned must go."""
    with tempfile.TemporaryDirectory() as root:
        clean_tree(root)
        write(root, 'app/cli/main.cpp', 'int main() {}\n')
        write(root, 'app/gui/main.cpp', 'int main() {}\n')
        allow = [root, '--allowlist', os.path.join(root, 'twins.txt')]
        write(root, 'twins.txt', '# name folders\n')
        expect("names: a class's two files and main.cpp pass", 'check_file_names.py', allow, 0, 'no new twin')
        write(root, 'core/runtime/task/speed.cpp', '\n')
        expect('names: a new twin fails', 'check_file_names.py', allow, 1,
               'speed: in 2 folders (core/eval/, core/runtime/task/)')
        write(root, 'twins.txt', 'speed core/eval core/runtime/task\n')
        expect('names: a listed twin passes', 'check_file_names.py', allow, 0, '1 listed in twins.txt')
        write(root, 'views/charts/speed.h', '\n')
        expect('names: a listed twin in a third folder fails', 'check_file_names.py', allow, 1,
               'speed: now also in views/charts/')
        os.remove(os.path.join(root, 'views/charts/speed.h'))
        os.remove(os.path.join(root, 'core/runtime/task/speed.cpp'))
        expect('names: a listed name no longer twinned must leave the list', 'check_file_names.py', allow, 1,
               'speed: listed in twins.txt but no longer twinned')


def main():
    widgets = tempfile.mkdtemp()
    for name in ('QWidget', 'QMainWindow', 'QTreeView'):
        open(os.path.join(widgets, name), 'w').close()

    with tempfile.TemporaryDirectory() as root:
        clean_tree(root)
        expect('layers: clean tree passes', 'check_layers.py', [root, '--widgets-dir', widgets], 0,
               'every include points down')
        expect('names: clean tree passes', 'check_class_names.py', [root], 0, 'defined once')
        expect('length: clean tree passes', 'check_file_length.py', [root, '--limit', '10'], 0, 'no source file over')

    cases = [
        ('core includes views', 'core/eval/bad.cpp', '#include "views/charts/chart.h"\n',
         'core/eval/bad.cpp:1: #include "views/charts/chart.h": core/ must not include from views/'),
        ('core includes app (relative)', 'core/eval/bad.cpp', '\n#include "../../app/gui/window.cpp"\n',
         'core/eval/bad.cpp:2: #include "../../app/gui/window.cpp": core/ must not include from app/'),
        ('core includes a widget', 'core/eval/bad.cpp', '#include <QTreeView>\n',
         'core/eval/bad.cpp:1: #include <QTreeView>: core/ must not include a Qt Widgets header'),
        ('runtime includes Qt', 'core/runtime/worker/bad.cpp', '#include <string>\n#include <QString>\n',
         'core/runtime/worker/bad.cpp:2: #include <QString>: core/runtime/ must not include Qt'),
        ('runtime includes a Qt module path', 'core/runtime/worker/bad.h', '#include <QtCore/qstring.h>\n',
         'core/runtime/worker/bad.h:1: #include <QtCore/qstring.h>: core/runtime/ must not include Qt'),
        ('runtime includes core', 'core/runtime/worker/bad.h', '#include "core/eval/speed.h"\n',
         'core/runtime/worker/bad.h:1: #include "core/eval/speed.h": core/runtime/ must not include core/ outside'),
        ('views includes app', 'views/charts/bad.cpp', '#include <app/gui/window.cpp>\n',
         'views/charts/bad.cpp:1: #include <app/gui/window.cpp>: views/ must not include from app/'),
    ]
    for name, rel, text, needle in cases:
        with tempfile.TemporaryDirectory() as root:
            clean_tree(root)
            write(root, rel, text)
            expect('layers: ' + name, 'check_layers.py', [root, '--widgets-dir', widgets], 1, needle)

    name_cases = [
        ('same class in two layers', 'core/export/chart.h', 'namespace kforge { class Chart {}; }\n',
         'kforge::Chart is defined 2 times: core/export/chart.h:1, views/charts/chart.h:4'),
        ('same nested class', 'core/eval/row.h', 'namespace kforge {\nstruct Chart::Row { };\n}\n',
         'kforge::Chart::Row is defined 2 times: core/eval/row.h:2, views/charts/chart.h:5'),
        ('same class, nested namespace syntax', 'core/eval/spec2.h',
         'namespace kforge {\nnamespace runtime {\ntemplate <class T>\nstruct Spec final : Base<T> {};\n}\n}\n',
         'kforge::runtime::Spec is defined 2 times: core/eval/spec2.h:4, core/runtime/task/spec.h:4'),
    ]
    for name, rel, text, needle in name_cases:
        with tempfile.TemporaryDirectory() as root:
            clean_tree(root)
            write(root, rel, text)
            expect('names: ' + name, 'check_class_names.py', [root], 1, needle)

    with tempfile.TemporaryDirectory() as root:
        clean_tree(root)
        write(root, 'views/charts/long.cpp', '// line\n' * 11)
        expect('length: a long file fails', 'check_file_length.py', [root, '--limit', '10'], 1,
               'views/charts/long.cpp: 11 lines, over the limit of 10')

    function_cases()
    floor_cases()
    twin_cases()

    for f in failures:
        print('FAIL ' + f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
