"""Fixtures for the QEMU+OVMF integration tests.  See docs/testing.md.

    def test_x(machine):
        m = machine(cmdline="earlyprintk=serial,ttyS0,115200", smp=4)
        m.wait_for(r"boot complete: 4 CPUs online", timeout=BOOT_TIMEOUT)

    def test_y(machine, gdb):
        m = machine(cmdline="... ekgdboc=ttyS1 kgdbwait", ports=("unix", "socket"))
        g = gdb()                       # gdb on build/kernel.elf
        g.connect(m.socket_path(1))
"""

import os
import shutil
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from qemu import REPO, Machine  # noqa: E402
from gdbdriver import Gdb  # noqa: E402

BUILD = os.path.join(REPO, "build")
KERNEL_ELF = os.path.join(BUILD, "kernel.elf")
ESP = os.path.join(BUILD, "esp")


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "qemu: boots QEMU+OVMF (slow; each test is independent and "
                   "can run in parallel with others)")


def pytest_collection_modifyitems(config, items):
    # Every test using a machine is a QEMU test.
    for item in items:
        if {"machine", "bare_machine"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.qemu)


@pytest.fixture(scope="session")
def build_tree():
    """build/kernel.elf and build/esp must exist (made by `make`)."""
    missing = [p for p in (KERNEL_ELF, os.path.join(ESP, "EFI", "BOOT", "BOOTX64.EFI"),
                           os.path.join(ESP, "EFI", "ekdb", "kernel.elf"))
               if not os.path.exists(p)]
    if missing:
        pytest.exit("integration tests need a build: missing "
                    + ", ".join(os.path.relpath(p, REPO) for p in missing)
                    + "\nrun `make` in the repository root first", returncode=2)
    return BUILD


@pytest.fixture
def esp_copy(build_tree, tmp_path):
    """A private copy of build/esp (to modify); returns its path."""
    dst = tmp_path / "esp"
    shutil.copytree(ESP, dst)
    return dst


def _machines(tmp_path, request):
    machines = []
    request.node._ekdb_machines = machines

    def start(**kw):
        kw.setdefault("name", f"m{len(machines)}")
        m = Machine(tmp_path, **kw)
        machines.append(m)
        return m

    return machines, start


@pytest.fixture
def machine(build_tree, tmp_path, request):
    """Factory: machine(**Machine kwargs) starts a Machine on build/esp (or
    esp=...); all are killed at teardown; their logs stay in tmp_path."""
    machines, start = _machines(tmp_path, request)
    yield start
    for m in machines:
        m.kill()


@pytest.fixture
def bare_machine(tmp_path, request):
    """Like machine, without requiring a build (give esp=... yourself)."""
    machines, start = _machines(tmp_path, request)
    yield start
    for m in machines:
        m.kill()


@pytest.fixture
def gdb(build_tree, tmp_path, request):
    """Factory: gdb(elf=build/kernel.elf) starts gdb (MI); closed at teardown."""
    gdbs = []
    request.node._ekdb_gdbs = gdbs

    def start(elf=KERNEL_ELF, **kw):
        kw.setdefault("log_path", tmp_path / f"gdb{len(gdbs)}.log")
        g = Gdb(elf, **kw)
        gdbs.append(g)
        return g

    yield start
    for g in gdbs:
        g.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """On failure, attach the tail of every serial log and gdb transcript."""
    outcome = yield
    rep = outcome.get_result()
    if rep.when != "call" or not rep.failed:
        return
    for m in getattr(item, "_ekdb_machines", ()):
        rep.sections.append((f"ekdb machine {m.name}", m.report()))
    for n, g in enumerate(getattr(item, "_ekdb_gdbs", ())):
        rep.sections.append((f"gdb {n}", g.tail(40)))
