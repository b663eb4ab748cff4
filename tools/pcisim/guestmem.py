"""guestmem.py - the guest's RAM as QEMU's x-pci-proxy-dev hands it over
(SYNC_SYSMEM: memfds, each mapped at a guest-physical address from an
offset in the file), for a model that does DMA.

read(gpa, n) / write(gpa, data) translate guest-physical addresses; an
access that is not entirely inside one RAM region raises DmaError (a real
device's bus master would get a master abort: the caller decides what the
device does then).
"""

import mmap
import os


class DmaError(Exception):
    pass


class GuestMemory:
    def __init__(self, regions, log=None):
        """@regions: (gpa, size, offset, fd) tuples; the fds are closed here."""
        self.maps = []
        for gpa, size, offset, fd in regions:
            try:
                m = mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE,
                              offset=offset)
                self.maps.append((gpa, size, m))
            except (OSError, ValueError) as e:
                if log:
                    log(f"guest RAM region {gpa:#x}+{size:#x} not mapped: {e}")
            finally:
                os.close(fd)
        self.maps.sort()

    def _find(self, gpa, n):
        for base, size, m in self.maps:
            if base <= gpa and gpa + n <= base + size:
                return m, gpa - base
        raise DmaError(f"no guest RAM at {gpa:#x}+{n}")

    def read(self, gpa, n):
        m, off = self._find(gpa, n)
        return m[off:off + n]

    def write(self, gpa, data):
        m, off = self._find(gpa, len(data))
        m[off:off + len(data)] = data

    def describe(self):
        return ", ".join(f"{b:#x}+{s:#x}" for b, s, _ in self.maps)
