# SPDX-License-Identifier: GPL-2.0
"""Docs that are true (issue 21): tools/check-docs.py over README.md, docs/*.md
and include/ekdb/*.h, and the checker itself on planted false claims.  No
QEMU: a few seconds."""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CHECK = os.path.join(ROOT, "tools", "check-docs.py")


def run(*args):
    return subprocess.run([sys.executable, CHECK, "--root", ROOT, *args],
                          capture_output=True, text=True, timeout=120)


def test_docs_name_only_what_exists():
    r = run()
    assert r.returncode == 0, r.stdout + r.stderr
    n = int(re.search(r"(\d+) claims checked", r.stderr).group(1))
    assert n > 300, r.stderr        # the docs name hundreds of paths, tests, targets


def test_planted_false_claims_are_caught(tmp_path):
    """Each planted false claim gives its own line; the true ones none."""
    doc = tmp_path / "planted.md"
    doc.write_text(
        "True: `core/bp.c`, `kdb/cmd_bp.c`, `asm/debug_trap.h`, `make check-host`,\n"
        "`test_kdb_cmds::test_bp`, `test_memsafe.py::test_kdb_...`, [t](x.md)\n"
        "False: `core/no_such_file.c`\n"
        "the folder io/nosuch/ and `cmd_nosuch.c`\n"
        "`make check-nosuch`\n"
        "`test_kdb_cmds::test_no_such_test` and `test_docs.py::test_nope`\n"
        "[a link](no-such-page.md)\n")
    (tmp_path / "x.md").write_text("x\n")
    r = run(str(doc))
    out = r.stdout
    assert r.returncode == 1, out + r.stderr
    for want in ("no such path: core/no_such_file.c", "no such path: io/nosuch/",
                 "no such file: cmd_nosuch.c", "no such make target: make check-nosuch",
                 "no such test: test_kdb_cmds::test_no_such_test",
                 "no such test: test_docs.py::test_nope", "broken link: no-such-page.md"):
        assert want in out, out
    assert len(out.splitlines()) == 7, out       # nothing true was flagged
    assert all(":1:" not in ln and ":2:" not in ln for ln in out.splitlines()), out


def test_readme_parameters_are_parsed(tmp_path):
    """A table row for a parameter no C source parses, and a table missing an
    EARLY_PARAM, both fail."""
    readme = open(os.path.join(ROOT, "README.md")).read()
    sec = re.search(r"^## Kernel parameters implemented\n", readme, re.M)
    assert sec, "README has no parameter table"
    bad = readme.replace("| `kgdbwait` |", "| `kgdbwiat` |", 1)
    assert bad != readme
    p = tmp_path / "README.md"
    p.write_text(bad)
    r = run("--readme", str(p), str(p))
    assert r.returncode == 1
    assert "parameter kgdbwiat is not parsed by any C source" in r.stdout, r.stdout
    assert "EARLY_PARAM kgdbwait missing from the parameter table" in r.stdout, r.stdout
