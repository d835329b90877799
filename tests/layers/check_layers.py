#!/usr/bin/env python3
"""check_layers: the include edges between src/ folders against the layer table.

Reads every `#include "<folder>/..."` in src/<folder>/ (C sources, headers,
.inc files) where <folder> is another src/ folder, and fails when
  - an edge is missing from the allow-table in docs/conventions.md
    (section "## Layers": one row per folder, `| folder | may include | ... |`),
  - a src/ folder has no row, or a row names a folder that does not exist,
  - the real edges (or the table itself) form a cycle between folders,
  - a source file under src/ or tools/ is longer than the line limit (1,500),
  - the oa_* DEPS / PRIVATE_DEPS of a folder's oa_add_library() calls (its
    CMakeLists.txt) name other folders than the ones its code includes: the
    build's include roots (cmake/OaWarnings.cmake) must say the truth.
Usage: check_layers.py <repo root>     (exit 0 = clean, 1 = violations)
       check_layers.py --self-test     (runs the checks on synthetic trees)
"""
import os
import re
import shutil
import sys
import tempfile

MAX_LINES = 1500
SOURCE_EXT = ('.c', '.h', '.inc', '.cc', '.cpp')
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
ROW_RE = re.compile(r'^\|\s*`?([a-z0-9_]+)`?\s*\|([^|]*)\|')


def src_folders(root):
    src = os.path.join(root, 'src')
    return sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))


def read_table(root):
    """{folder: set(allowed folders)} from the "## Layers" section."""
    path = os.path.join(root, 'docs', 'conventions' + '.md')
    table, in_section = {}, False
    with open(path, encoding='utf-8') as f:
        for line in f:
            if line.startswith('## '):
                in_section = line.strip() == '## Layers'
                continue
            if not in_section:
                continue
            m = ROW_RE.match(line)
            if m is None or m.group(1) in ('folder',):
                continue
            allowed = re.findall(r'[a-z0-9_]+', m.group(2).replace('—', ' ').replace('-', ' '))
            table[m.group(1)] = set(a for a in allowed if a != 'none')
    return table


def include_edges(root, folders):
    """{(from, to): [file:line, ...]} for includes of another src/ folder."""
    edges = {}
    known = set(folders)
    for folder in folders:
        for dirpath, _, files in os.walk(os.path.join(root, 'src', folder)):
            for name in sorted(files):
                if not name.endswith(SOURCE_EXT):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding='utf-8', errors='replace') as f:
                    for no, line in enumerate(f, 1):
                        m = INCLUDE_RE.match(line)
                        if m is None or '/' not in m.group(1):
                            continue
                        target = m.group(1).split('/')[0]
                        if target in known and target != folder:
                            rel = os.path.relpath(path, root)
                            edges.setdefault((folder, target), []).append('%s:%d' % (rel, no))
    return edges


CMAKE_CALL_RE = re.compile(r'oa_add_library\(\s*(\w+)(.*?)\)\s*$', re.S | re.M)
CMAKE_SET_RE = re.compile(r'^\s*set\(\s*(\w+)(.*?)\)', re.S | re.M)


def cmake_deps(root, folders):
    """({library: folder}, {folder: set(oa_* libraries in DEPS/PRIVATE_DEPS)}) from src/*/CMakeLists.txt."""
    lib_folder, deps = {}, {}
    for folder in folders:
        path = os.path.join(root, 'src', folder, 'CMakeLists.txt')
        if not os.path.exists(path):
            continue
        with open(path, encoding='utf-8') as f:
            text = re.sub(r'#[^\n]*', '', f.read())
        variables = {m.group(1): m.group(2) for m in CMAKE_SET_RE.finditer(text)}
        for m in CMAKE_CALL_RE.finditer(text):
            lib_folder[m.group(1)] = folder
            args = re.sub(r'\$\{(\w+)\}', lambda v: variables.get(v.group(1), ''), m.group(2))
            words = args.split()
            mode = None
            for w in words:
                if w in ('SOURCES', 'DEPS', 'PRIVATE_DEPS'):
                    mode = w
                elif mode in ('DEPS', 'PRIVATE_DEPS') and re.fullmatch(r'oa_\w+', w):
                    deps.setdefault(folder, set()).add(w)
            deps.setdefault(folder, set())
    return lib_folder, deps


def find_cycle(nodes, succ):
    """One cycle as a list of nodes (first == last), or None."""
    color = {n: 0 for n in nodes}
    stack = []

    def visit(n):
        color[n] = 1
        stack.append(n)
        for m in sorted(succ.get(n, ())):
            if color.get(m, 0) == 1:
                return stack[stack.index(m):] + [m]
            if color.get(m, 0) == 0:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        color[n] = 2
        return None

    for n in sorted(nodes):
        if color[n] == 0:
            c = visit(n)
            if c:
                return c
    return None


def long_files(root):
    out = []
    for top in ('src', 'tools'):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if name.endswith(SOURCE_EXT):
                    path = os.path.join(dirpath, name)
                    with open(path, encoding='utf-8', errors='replace') as f:
                        n = sum(1 for _ in f)
                    if n > MAX_LINES:
                        out.append((os.path.relpath(path, root), n))
    return out


def check(root):
    """List of violation messages (empty: clean)."""
    errors = []
    folders = src_folders(root)
    table = read_table(root)
    for f in folders:
        if f not in table:
            errors.append('src/%s/ has no row in the layer table of docs/conventions.md' % f)
    for f, allowed in sorted(table.items()):
        for name in sorted({f} | allowed):
            if name not in folders:
                errors.append('layer table row "%s" names "%s", which is not a src/ folder' % (f, name))
    edges = include_edges(root, folders)
    for (a, b), where in sorted(edges.items()):
        if b not in table.get(a, set()):
            errors.append('src/%s/ includes src/%s/, an edge the layer table does not allow: %s'
                          % (a, b, ', '.join(where[:3]) + (' ...' if len(where) > 3 else '')))
    real = {}
    for (a, b) in edges:
        real.setdefault(a, set()).add(b)
    cycle = find_cycle(folders, real)
    if cycle:
        errors.append('cycle between src/ folders (includes): %s' % ' -> '.join(cycle))
    allowed_succ = {a: set(b for b in s if b in folders) for a, s in table.items()}
    cycle = find_cycle(sorted(set(folders) | set(table)), allowed_succ)
    if cycle:
        errors.append('cycle in the layer table itself: %s' % ' -> '.join(cycle))
    lib_folder, deps = cmake_deps(root, folders)
    for folder, libs in sorted(deps.items()):
        unknown = sorted(l for l in libs if l not in lib_folder)
        for l in unknown:
            errors.append('src/%s/CMakeLists.txt: %s is not an oa_add_library() of src/' % (folder, l))
        declared = set(lib_folder[l] for l in libs if l in lib_folder) - {folder}
        used = set(b for (a, b) in edges if a == folder)
        for b in sorted(used - declared):
            errors.append('src/%s/ includes src/%s/, but its CMake DEPS do not name a library of that folder'
                          % (folder, b))
        for b in sorted(declared - used):
            errors.append('src/%s/CMakeLists.txt declares a library of src/%s/, but no file of it includes that '
                          'folder' % (folder, b))
    for path, n in long_files(root):
        errors.append('%s has %d lines, more than %d: split it' % (path, n, MAX_LINES))
    return errors


def self_test():
    """The checker must catch each kind of violation (and pass a clean tree)."""
    def tree(files, table):
        d = tempfile.mkdtemp(prefix='check_layers_')
        for rel, text in files.items():
            p = os.path.join(d, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, 'w') as f:
                f.write(text)
        os.makedirs(os.path.join(d, 'docs'), exist_ok=True)
        with open(os.path.join(d, 'docs', 'conventions' + '.md'), 'w') as f:
            f.write('# x\n\n## Layers\n| folder | may include |\n|---|---|\n')
            for k, v in table.items():
                f.write('| `%s` | %s |\n' % (k, v))
            f.write('\n## Next\n| c | a |\n')
        return d

    base_files = {'src/a/a.c': '#include "b/b.h"\n#include "a/a.h"\n#include "acl/acl.h"\n',
                  'src/a/a.h': '', 'src/b/b.h': '#include <stdio.h>\n', 'src/c/c.c': ''}
    cases = [
        ('clean', base_files, {'a': 'b', 'b': 'none', 'c': 'a, b'}, None),
        ('undeclared edge', base_files, {'a': 'none', 'b': 'none', 'c': 'none'}, 'does not allow'),
        ('missing row', base_files, {'a': 'b', 'b': 'none'}, 'has no row'),
        ('unknown folder', base_files, {'a': 'b, zz', 'b': 'none', 'c': 'none'}, 'not a src/ folder'),
        ('include cycle', dict(base_files, **{'src/b/b.c': '#include "a/a.h"\n'}),
         {'a': 'b', 'b': 'a', 'c': 'none'}, 'cycle between src/ folders'),
        ('table cycle', base_files, {'a': 'b', 'b': 'c', 'c': 'a'}, 'cycle in the layer table'),
        ('cmake deps ok', dict(base_files, **{
            'src/a/CMakeLists.txt': 'oa_add_library(oa_a\n  SOURCES a.c\n  DEPS oa_b m)\n',
            'src/b/CMakeLists.txt': 'oa_add_library(oa_b SOURCES b.c)\n'}),
         {'a': 'b', 'b': 'none', 'c': 'none'}, None),
        ('cmake dep missing', dict(base_files, **{
            'src/a/CMakeLists.txt': 'oa_add_library(oa_a SOURCES a.c DEPS m)\n',
            'src/b/CMakeLists.txt': 'oa_add_library(oa_b SOURCES b.c)\n'}),
         {'a': 'b', 'b': 'none', 'c': 'none'}, 'CMake DEPS do not name'),
        ('cmake dep unused', dict(base_files, **{
            'src/a/CMakeLists.txt': 'set(X oa_c)\noa_add_library(oa_a SOURCES a.c DEPS oa_b\n  PRIVATE_DEPS ${X})\n',
            'src/b/CMakeLists.txt': 'oa_add_library(oa_b SOURCES b.c)\n',
            'src/c/CMakeLists.txt': 'oa_add_library(oa_c SOURCES c.c)\n'}),
         {'a': 'b', 'b': 'none', 'c': 'none'}, 'no file of it includes'),
        ('long file', dict(base_files, **{'src/c/c.c': 'x\n' * (MAX_LINES + 1)}),
         {'a': 'b', 'b': 'none', 'c': 'none'}, 'more than %d' % MAX_LINES),
    ]
    ok = True
    for name, files, table, expect in cases:
        d = tree(files, table)
        try:
            errors = check(d)
        finally:
            shutil.rmtree(d)
        good = (not errors) if expect is None else any(expect in e for e in errors)
        print('%-16s %s %s' % (name, 'ok' if good else 'FAILED', errors))
        ok = ok and good
    return 0 if ok else 1


def main(argv):
    if len(argv) == 2 and argv[1] == '--self-test':
        return self_test()
    if len(argv) != 2:
        print(__doc__)
        return 2
    errors = check(argv[1])
    for e in errors:
        print('check_layers: ' + e)
    if not errors:
        print('check_layers: %d folders, every include edge allowed and declared in CMake, no cycle, no file over %d lines'
              % (len(src_folders(argv[1])), MAX_LINES))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
