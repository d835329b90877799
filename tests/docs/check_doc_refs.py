#!/usr/bin/env python3
"""Checks that the repository's comments and docs cite only what the repository holds.

Every reference to a markdown file (`docs/om_format.md`, `README.md`, `../x.md`) in a source, build or
documentation file must name a file of this repository, resolved against the citing file's folder and then
the repository root. A reference followed by a quoted heading (`docs/om_format.md "Const weights"`, also
`, "..."` and `section "..."`) or by `section Word` must name a heading of that file (equal, or its start);
a numbered section (`x.md 4.5`, `x.md §4`) must name a numbered heading. Paths outside the repository
(absolute paths, the team's shared specification folder) are refused.

Usage: check_doc_refs.py [--root DIR]     check the tree (default: the repository of this script)
       check_doc_refs.py --self-test      show that each kind of bad citation is caught
"""
import argparse
import os
import re
import sys
import tempfile

SCAN_DIRS = ["src", "include", "tools", "tests", "compat_tests", "bench", "scripts", "cmake", "samples", "docs"]
TOP_FILES = ["README.md", "CMakeLists.txt"]
EXTS = (".c", ".h", ".inc", ".cpp", ".cc", ".hpp", ".py", ".sh", ".cmake", ".proto", ".js", ".mjs", ".md",
        ".txt", ".json")
SKIP_DIRS = {".git", "build", "node_modules", "__pycache__"}

URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+")
MD_REF = re.compile(r"(?<![\w./-])((?:\.{1,2}/)*[\w-]+(?:/[\w.-]+)*\.md)\b")
# what may follow a reference: a quoted heading, `section Word`, or a section number
AFTER_QUOTED = re.compile(r"[\s`'*]*[,:]?\s*(?:section\s+|in\s+)?\"([^\"\n]{1,80})\"")
AFTER_WORD = re.compile(r"[\s`'*]*[,:]?\s*section\s+([A-Za-z][\w-]*)")
AFTER_NUMBER = re.compile(r"[\s`'*]*[,:]?\s*(?:section\s+|§\s*)?(\d+(?:\.\d+)*)\b")
OUTSIDE = [
    (re.compile(r"/work/"), "a path on the build machine"),
    (re.compile(r"(?<![\w-])(?:shared|docs)/spec\b"), "the team's specification folder"),
    (re.compile(r"(?<![\w-])spec/[\w-]+\.md"), "the team's specification folder"),
    (re.compile(r"\bge_behaviours\b|\bge_ops\b(?!\.)"), "a specification outside the repository"),
]
SELF = os.path.realpath(__file__)
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")


def headings(path, cache):
    if path not in cache:
        hs = []
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                in_code = False
                for line in f:
                    if line.lstrip().startswith("```"):
                        in_code = not in_code
                        continue
                    m = None if in_code else HEADING.match(line)
                    if m:
                        hs.append(m.group(1).replace("`", "").strip())
        except OSError:
            pass
        cache[path] = hs
    return cache[path]


def resolve(root, citing_dir, ref):
    for base in (citing_dir, root, os.path.join(root, "src")):
        p = os.path.normpath(os.path.join(base, ref))
        if os.path.isfile(p) and (p == root or p.startswith(root + os.sep)):
            return p
    return None


def check_file(root, path, cache):
    problems = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        return ["%s: unreadable: %s" % (path, e)]
    rel = os.path.relpath(path, root)
    lines = text.split("\n")
    for ln, line in enumerate(lines, 1):
        clean = URL.sub(" ", line)
        for rx, what in OUTSIDE:
            if rx.search(clean):
                problems.append("%s:%d: cites %s: %s" % (rel, ln, what, line.strip()))
        for m in MD_REF.finditer(clean):
            ref = m.group(1)
            if clean[m.start() - 1:m.start()] == "<" and clean[m.end():m.end() + 1] == ">":
                continue  # a placeholder in a usage line, <out.md>
            target = resolve(root, os.path.dirname(path), ref)
            if target is None:
                problems.append("%s:%d: cites %s, which is not a file of this repository" % (rel, ln, ref))
                continue
            # the rest of the sentence: this line and the next one (comments wrap)
            rest = clean[m.end():] + " " + re.sub(r"^\s*(?:\*|//|#)?", "", lines[ln] if ln < len(lines) else "")
            hs = headings(target, cache)
            if rest.startswith('"'):
                continue  # the reference ends a string literal (a message naming the page): no section follows
            q = AFTER_QUOTED.match(rest) or AFTER_WORD.match(rest)
            if q:
                want = " ".join(q.group(1).split())  # a heading may wrap onto the next comment line
                if not any(h == want or h.startswith(want) for h in hs):
                    problems.append('%s:%d: %s has no section "%s"' % (rel, ln, ref, want))
                continue
            n = AFTER_NUMBER.match(rest)
            if n:
                num = n.group(1)
                if not any(re.match(re.escape(num) + r"(?!\d)", h) for h in hs):
                    problems.append("%s:%d: %s has no section numbered %s (cite a heading)" % (rel, ln, ref, num))
    return problems


def walk(root):
    for top in TOP_FILES:
        p = os.path.join(root, top)
        if os.path.isfile(p):
            yield p
    for d in SCAN_DIRS:
        base = os.path.join(root, d)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(x for x in dirnames if x not in SKIP_DIRS)
            for fn in sorted(filenames):
                p = os.path.join(dirpath, fn)
                if (fn.endswith(EXTS) or fn == "CMakeLists.txt") and os.path.realpath(p) != SELF:
                    yield p


def check_tree(root):
    root = os.path.realpath(root)
    cache = {}
    problems = []
    n = 0
    for p in walk(root):
        n += 1
        problems += check_file(root, p, cache)
    return n, problems


def self_test():
    """Every kind of bad citation is reported, and good ones are not."""
    bad_cases = {
        "outside.c": "/* see ge_behaviours.md 2.3 */\n",
        "spec_dir.c": "/* (spec/om_format.md) */\n",
        "machine.c": "/* /work/shared/DESIGN.md */\n",
        "bare_name.c": "/* rules of ge_behaviours 2.5 */\n",
        "no_page.c": "/* docs/nowhere.md */\n",
        "no_heading.c": '/* docs/page.md "Missing section" */\n',
        "no_number.c": "/* docs/page.md 4.5 */\n",
        "wrapped.c": '/* docs/page.md\n * "Missing section" */\n',
        "wrapped_quote.c": '/* docs/page.md "Rules of\n * the card" */\n',
    }
    good = ('/* docs/page.md "Rules" and docs/page.md, section Rules;\n'
            ' * README.md next to me; ../../docs/page.md "Rules of"; m/README.md; <out.md>;\n'
            ' * docs/page.md "Rules of\n * the game" */\n')
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "docs"))
        os.makedirs(os.path.join(tmp, "src", "m"))
        with open(os.path.join(tmp, "docs", "page.md"), "w") as f:
            f.write("# Page\n\n## Rules of the game\ntext\n```\n## Not a heading\n```\n")
        with open(os.path.join(tmp, "src", "m", "README.md"), "w") as f:
            f.write("# m\n")
        with open(os.path.join(tmp, "src", "m", "good.c"), "w") as f:
            f.write(good)
        _, probs = check_tree(tmp)
        if probs:
            print("self-test: good citations reported:", *probs, sep="\n  ")
            failures += 1
        for name, body in bad_cases.items():
            p = os.path.join(tmp, "src", "m", name)
            with open(p, "w") as f:
                f.write(body)
            _, probs = check_tree(tmp)
            if not probs:
                print("self-test: not caught: %s: %r" % (name, body))
                failures += 1
            os.remove(p)
    print("self-test: %d of %d bad kinds caught, good file clean: %s"
          % (len(bad_cases) - failures, len(bad_cases), "yes" if failures == 0 else "see above"))
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    n, problems = check_tree(a.root)
    for p in problems:
        print(p)
    print("%d files checked, %d bad citations" % (n, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
