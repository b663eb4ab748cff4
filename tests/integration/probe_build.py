# SPDX-License-Identifier: GPL-2.0
"""Probe builds (issue 19): the kernel built with one race window of the
stop path widened by a delay, PROBE_CFLAGS=-DEKDB_PROBE_DELAY_<WINDOW>
(see the #ifdef in the source), so a test can show that the fix for that
race holds where a normal build almost never meets the race.  Built
incrementally under build/probe/<window>/; the ESP is build/esp with the
probe kernel in it (the loader is unchanged).  The stop-path recorder's
trace build (trace_esp) is made the same way."""

import os
import shutil
import subprocess

from qemu import REPO

BUILD = os.path.join(REPO, "build")


def probe_esp(window):
    """Build the probe kernel for WINDOW (e.g. "TAKEOVER") and return the
    path of an ESP that boots it."""
    return _esp(window.lower(), f"PROBE_CFLAGS=-DEKDB_PROBE_DELAY_{window}")


def trace_esp():
    """The stop-path recorder's build (STOPTRACE=1: kernel-glue/ with
    -finstrument-functions, kernel-glue/stoptrace.c; test_stop_trace.py),
    under build/probe/stoptrace/; its kernel.elf is beside the ESP."""
    return _esp("stoptrace", "STOPTRACE=1")


def _esp(name, *make_vars):
    rel = os.path.join("build", "probe", name)
    out = os.path.join(REPO, rel)
    r = subprocess.run(["make", "-s", "-j2", f"BUILD={rel}", *make_vars,
                        os.path.join(rel, "kernel.elf")],
                       cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-4000:]
    esp = os.path.join(out, "esp")
    if os.path.exists(esp):
        shutil.rmtree(esp)
    shutil.copytree(os.path.join(BUILD, "esp"), esp)
    subprocess.run(["objcopy", "--strip-debug", os.path.join(out, "kernel.elf"),
                    os.path.join(esp, "EFI", "ekdb", "kernel.elf")], check=True)
    return esp
