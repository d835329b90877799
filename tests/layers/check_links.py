#!/usr/bin/env python3
"""check_layers_links: the layers at link time.

For every oa_add_library() archive, each internal symbol it references
(oa_*, g_oa_*; strong undefined references, `nm` type U) must be defined by
the archive itself or by an archive of its CMake link closure (DEPS and
PRIVATE_DEPS, transitively). Otherwise the library only links because
libascendcl takes every part whole. Calls through the public ACL API
(acl*) are not layer edges (docs/conventions.md "Layers") and are only counted.
Usage: check_links.py <nm> <libs file>   (lines "name|archive|link libraries;...")
"""
import subprocess
import sys


def symbols(nm, archive):
    out = subprocess.run([nm, '-g', archive], capture_output=True, text=True, check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] not in ('U', 'w', 'v'):
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == 'U':
            undefined.add(parts[1])
    return defined, undefined


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    nm, path = argv[1], argv[2]
    libs = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                name, archive, links = line.split('|')
                libs[name] = (archive, [l for l in links.split(';') if l])
    syms = {n: symbols(nm, a) for n, (a, _) in libs.items()}

    def closure(name):
        seen, todo = set(), [name]
        while todo:
            for d in libs[todo.pop()][1]:
                if d in libs and d not in seen:
                    seen.add(d)
                    todo.append(d)
        return seen

    errors = 0
    for name in sorted(libs):
        available = set(syms[name][0])
        for d in closure(name):
            available |= syms[d][0]
        missing = syms[name][1] - available
        internal = sorted(s for s in missing if s.startswith(('oa_', 'g_oa_')))
        public = sorted(s for s in missing if s.startswith('acl'))
        for s in internal:
            owners = sorted(n for n in libs if s in syms[n][0])
            print('check_layers_links: %s references %s, defined by %s, which is not in its DEPS'
                  % (name, s, ', '.join(owners) or 'no library'))
            errors += 1
        if public:
            print('%s: %d public ACL functions resolved by libascendcl (%s%s)'
                  % (name, len(public), ', '.join(public[:4]), ' ...' if len(public) > 4 else ''))
    if errors == 0:
        print('check_layers_links: %d libraries, every internal reference resolved by the CMake DEPS' % len(libs))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
