#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-docs.py - what the docs name must exist (issue 21: docs that are true).

Checked, in README.md, docs/*.md and the comments of include/ekdb/*.h:
  - every repository path (boot/..., core/..., tests/..., tools/..., docs/...,
    include-relative asm/..., ekdb/... headers, and bare file names such as
    `cmd_bp.c` in code spans) names a file or folder that exists;
  - every test a doc names (`test_x.py::test_y`, `test_kdb_cmds::test_mm`)
    exists in that file;
  - every `make TARGET` a doc shows is a target of the Makefile;
  - every parameter in README's "Kernel parameters implemented" table is
    parsed by the code (a string literal "name" or "name=" in the loader's
    or the kernel's C sources), and every EARLY_PARAM is in that table.

Usage: check-docs.py [--root DIR] [FILE...]   (exit 1 and one line per
false claim; FILE... replaces the default doc list, for tests.)
"""
import argparse
import glob
import os
import re
import subprocess
import sys

TOP_DIRS = ("boot", "kernel-glue", "early", "io", "core", "gdbstub", "kdb", "selftest", "arch",
            "lib", "include", "tests", "tools", "scripts", "docs", "bench", "linux")
INCLUDE_DIRS = ("include", "arch/x86/include", "kernel-glue/include", "boot", "tests/host")
FILE_EXT = r"(?:c|h|S|py|md|mk|sh|lds|png|txt)"
# Paths in other projects' trees that the docs cite on purpose (Linux, gdb,
# GNU-EFI): not ours, so not checked.  Each is named whole.
EXTERNAL = {
    "arch/x86/kernel/kgdb.c",                     # Linux
    "drivers/usb/early/ehci-dbgp.c",              # Linux
    "Documentation/admin-guide/kernel-parameters.txt",  # Linux
    "kernel/debug/debug_core.c", "drivers/tty/serial/kgdboc.c",  # Linux
    "kernel/debug/kdb/kdb_bp.c",                  # Linux
    "drivers/tty/serial/serial_core.c", "scripts/checkpatch.pl",  # Linux
    "arch/x86/lib/memcpy_64.S",                   # Linux
    "include/linux/ekdb.h",  # Linux, from linux/patches/
    "vmlinux-gdb.py", "scripts/gdb/vmlinux-gdb.py",    # Linux's gdb helpers
    "include/gdb/signals.def",                    # gdb
    "elf_x86_64_efi.lds",                         # GNU-EFI (/usr/lib)
}
SRC_DIRS = ("boot", "kernel-glue", "early", "io", "core", "gdbstub", "kdb", "selftest", "arch", "lib")

PATH_RE = re.compile(r"(?<![\w/.$~-])((?:%s)/[\w./+*<>{}-]*)" % "|".join(map(re.escape, TOP_DIRS)))
CODE_SPAN_RE = re.compile(r"`([^`\n]+)`")
BARE_FILE_RE = re.compile(r"^(?:[\w-]+/)*[\w-]+\.%s$" % FILE_EXT)
TEST_REF_RE = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*test_\w+)(\.py|\.c)?::(\w+)")
MAKE_RE = re.compile(r"(?:^|[\s`(])make\s+((?:[A-Z_]+=\S*\s+|-\S+\s+)*)([a-z][\w./-]*)")


def repo_files(root):
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=root, capture_output=True, text=True)
    files = set(out.stdout.split()) if out.returncode == 0 else set()
    if not files:
        for d, _, fs in os.walk(root):
            if "/.git" in d or "/build" in d:
                continue
            for f in fs:
                files.add(os.path.relpath(os.path.join(d, f), root))
    return files


def exists(root, rel):
    rel = rel.rstrip(".,;:)")
    if not rel:
        return True
    if any(c in rel for c in "*<>{"):
        pat = re.sub(r"<[^>]*>|\{[^}]*\}", "*", rel)
        pat = re.sub(r"[<>{}].*$", "*", pat)
        return bool(glob.glob(os.path.join(root, pat)))
    return os.path.exists(os.path.join(root, rel))


def comment_text(path):
    """The comments of a C header (paths in #include lines are not claims)."""
    src = open(path, encoding="utf-8", errors="replace").read()
    return "\n".join(re.findall(r"/\*.*?\*/|//[^\n]*", src, re.S))


def make_targets(root):
    out = subprocess.run(["make", "-pRrqn", "-C", root, "--no-print-directory"],
                         capture_output=True, text=True)
    targets = set()
    for ln in out.stdout.splitlines():
        m = re.match(r"^([a-zA-Z][\w.-]*):(?!=)", ln)
        if m:
            targets.add(m.group(1))
    return targets


def basename_index(files):
    idx = {}
    for f in files:
        idx.setdefault(os.path.basename(f), []).append(f)
    return idx


def check_bare(root, name, files, idx):
    """A file named without its folder: it (or its tail path) exists somewhere."""
    if exists(root, name):
        return True
    if "/" not in name:
        return name in idx
    return any(f.endswith("/" + name) for f in files) or \
        any(exists(root, os.path.join(d, name)) for d in INCLUDE_DIRS)


def check_test_ref(root, path, ext, name, idx):
    cands = []
    if "/" in path:
        cands = [path + (ext or e) for e in ((ext,) if ext else (".py", ".c"))]
    else:
        for e in ((ext,) if ext else (".py", ".c")):
            cands += idx.get(path + e, [])
    for c in cands:
        full = os.path.join(root, c)
        if not os.path.exists(full):
            continue
        src = open(full, encoding="utf-8", errors="replace").read()
        pat = re.escape(name.rstrip("*")) + (r"\w*" if name.endswith("*") else "")
        if c.endswith(".py") and re.search(r"^\s*def %s\(" % pat, src, re.M):
            return True
        if c.endswith(".c") and re.search(r"\b%s\s*\(" % pat, src):
            return True
    return False


def generated_names(root):
    """File names the build makes (named in a Makefile or .mk rule): build/ and the ESP."""
    text = ""
    for mk in ["Makefile"] + glob.glob(os.path.join(root, "**", "*.mk"), recursive=True):
        text += open(os.path.join(root, mk), encoding="utf-8", errors="replace").read()
    return set(re.findall(r"[\w.-]+\.(?:o|txt|EFI|elf|png)\b", text))


generated = set()
checked = [0]


def check_doc(root, doc, text, files, idx, targets, errors):
    def err(lineno, msg):
        errors.append(f"{doc}:{lineno}: {msg}")

    def count(it):
        for x in it:
            checked[0] += 1
            yield x

    in_fence = False
    for n, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        for m in count(PATH_RE.finditer(line)):
            p = m.group(1).rstrip(".,;:)")
            if p in EXTERNAL:
                continue
            last = p.rstrip("/").rsplit("/", 1)[-1]
            if not (p.endswith("/") or "." in last or p.count("/") >= 2):
                continue        # "kdb/gdb": prose, not a path
            if not exists(root, p):
                err(n, f"no such path: {p.rstrip('.,;:)')}")
        for m in re.finditer(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", line):
            target = m.group(1)
            if re.match(r"\w+://", target):
                continue
            base = os.path.dirname(doc)
            if not exists(root, os.path.normpath(os.path.join(base, target))):
                err(n, f"broken link: {target}")
        spans = CODE_SPAN_RE.findall(line) if not in_fence else [line]
        for span in spans:
            for word in re.split(r"[\s,()\[\]'\"=:;|]+", span):
                word = word.rstrip(".")
                if BARE_FILE_RE.match(word) and not word.startswith(("/", "~", "build/")) \
                        and not PATH_RE.match(word) and word.split("/")[0] not in ("tmp",):
                    if word in EXTERNAL or os.path.basename(word) in generated:
                        continue
                    if not check_bare(root, word, files, idx):
                        err(n, f"no such file: {word}")
            for m in count(MAKE_RE.finditer(span if not in_fence else line)):
                t = m.group(2)
                rest = (span if not in_fence else line)[m.end():]
                if t.endswith("-") and rest.startswith("<"):
                    if not any(x.startswith(t) for x in targets):
                        err(n, f"no such make targets: make {t}<...>")
                    continue
                if t.startswith("build/"):
                    continue
                if targets and t not in targets:
                    err(n, f"no such make target: make {t}")
        for m in count(TEST_REF_RE.finditer(line)):
            path, ext, name = m.groups()
            if line[m.end():m.end() + 3] == "...":
                name = name + "*"
            if not check_test_ref(root, path, ext, name, idx):
                err(n, f"no such test: {path}{ext or ''}::{name}")


def readme_params(readme):
    """The parameter names in README's table (first column, before = or [)."""
    names = []
    text = open(readme, encoding="utf-8").read()
    sec = re.search(r"^## Kernel parameters implemented\n(.*?)(?=^## )", text, re.S | re.M)
    if not sec:
        return None
    for ln in sec.group(1).splitlines():
        if not ln.startswith("| `"):
            continue
        first = ln.split(" | ")[0]
        for code in re.findall(r"`([^`]+)`", first):
            m = re.match(r"([a-zA-Z_][\w.]*)", code)
            if m:
                names.append(m.group(1))
    return names


def parsed_params(root):
    """Every string literal in the loader's and kernel's C sources."""
    lits = set()
    early = set()
    for d in SRC_DIRS:
        for path in glob.glob(os.path.join(root, d, "**", "*.[ch]"), recursive=True):
            src = open(path, encoding="utf-8", errors="replace").read()
            lits |= set(re.findall(r'"([\w.]+)=?"', src))
            early |= set(re.findall(r'EARLY_PARAM\("([\w.]+)"', src))
    return lits, early


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--readme", help="the README whose parameter table is checked")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    files = repo_files(root)
    idx = basename_index(files)
    targets = make_targets(root)
    generated.update(generated_names(root))
    errors = []
    docs = a.files or (["README.md"] + sorted(os.path.relpath(p, root) for p in
                       glob.glob(os.path.join(root, "docs", "*.md"))) +
                       sorted(os.path.relpath(p, root) for p in
                              glob.glob(os.path.join(root, "include", "ekdb", "*.h"))))
    for doc in docs:
        full = os.path.join(root, doc)
        text = comment_text(full) if doc.endswith(".h") else \
            open(full, encoding="utf-8").read()
        check_doc(root, doc, text, files, idx, targets, errors)
    if not targets:
        errors.append("Makefile: no targets read (make -p failed)")
    readme = a.readme or os.path.join(root, "README.md")
    names = readme_params(readme) if os.path.exists(readme) else None
    if names is not None:
        lits, early = parsed_params(root)
        for nm in names:
            checked[0] += 1
            if nm not in lits:
                errors.append(f"README.md: parameter {nm} is not parsed by any C source")
        for nm in sorted(early - set(names)):
            errors.append(f"README.md: EARLY_PARAM {nm} missing from the parameter table")
    if os.path.exists(readme) and not a.files:
        layout = re.search(r"^## Layout\n(.*?)(?=^## |\Z)", open(readme).read(), re.S | re.M)
        listed = set(re.findall(r"`([\w.-]+)/", layout.group(1))) if layout else set()
        for d in sorted({f.split("/")[0] for f in files if "/" in f}):
            checked[0] += 1
            if not d.startswith(".") and d not in listed:
                errors.append(f"README.md: folder {d}/ missing from the Layout table")
    for e in errors:
        print(e)
    print(f"check-docs: {len(docs)} files, {checked[0]} claims checked, "
          f"{len(errors)} false", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
