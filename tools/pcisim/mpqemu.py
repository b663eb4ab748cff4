"""mpqemu.py - the remote side of QEMU's x-pci-proxy-dev (multi-process QEMU),
shared by the PCI function models (tools/dbgp-sim, tools/xdbc-sim).

Wire format (QEMU include/hw/remote/mpqemu-link.h, x86-64 host): every
message is a 16-byte header {int cmd; <4 bytes padding>; size_t size}
followed by `size` bytes of payload; file descriptors ride along as
SCM_RIGHTS on the header.  QEMU sends:
  SYNC_SYSMEM (0)  guest RAM regions as memfds: no reply
  PCI_CFGWRITE (2) / PCI_CFGREAD (3)  {u32 addr; u32 val; int len}: reply RET
  BAR_WRITE (4) / BAR_READ (5)  {u64 guest-physical addr; u64 val; u32 size;
                                 bool memory}: reply RET
  SET_IRQFD (6)    two eventfds (interrupt, resample): no reply
  DEVICE_RESET (7) reply RET
A reply is RET (1) with an 8-byte payload (the value read, or 0).
SYNC_SYSMEM's payload is {u64 gpas[8]; u64 sizes[8]; off_t offsets[8]}, one
entry per fd (QEMU hw/remote/memory.c): each message replaces the whole map.
The function model (@hc) provides bar0, BAR0_SIZE, cfg_read/cfg_write,
mmio_read/mmio_write and power_on; a model that does DMA also provides
set_sysmem(GuestMemory), called with the lock held.
QEMU learns the BAR sizes at realize by writing all-ones to each BAR and
reading back, so config space must answer that like hardware.
"""

import array
import socket
import struct

CMD_SYNC_SYSMEM, CMD_RET, CMD_CFGWRITE, CMD_CFGREAD = 0, 1, 2, 3
CMD_BAR_WRITE, CMD_BAR_READ, CMD_SET_IRQFD, CMD_DEVICE_RESET = 4, 5, 6, 7
HDR = struct.Struct("<i4xQ")
CFG = struct.Struct("<IIi")
BAR = struct.Struct("<QQI?3x")
SYSMEM = struct.Struct("<8Q8Q8q")
MAX_FDS = 8
BAR0_SIZE = 0x1000   # a model with another BAR0 size says so in its BAR0_SIZE


class Link:
    def __init__(self, fd, hc, lock, log, trace=False):
        """@hc: the device model (cfg_read/cfg_write, bar0, mmio_read/mmio_write,
        power_on): the EHCI controller of dbgp-sim, the UART of uart-sim."""
        self.sock = socket.socket(fileno=fd)
        self.hc = hc
        self.lock = lock
        self.log = log
        self.trace = trace
        self.irqfds = []

    def _recv_exact(self, n):
        buf = bytearray()
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise EOFError
            buf += chunk
        return bytes(buf)

    def _recv_header(self):
        fds = array.array("i")
        msg, anc, _, _ = self.sock.recvmsg(HDR.size, socket.CMSG_SPACE(MAX_FDS * fds.itemsize))
        if not msg:
            raise EOFError
        for level, kind, data in anc:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds.frombytes(data[:len(data) - len(data) % fds.itemsize])
        if len(msg) < HDR.size:
            msg += self._recv_exact(HDR.size - len(msg))
        cmd, size = HDR.unpack(msg)
        return cmd, size, list(fds)

    def _reply(self, value):
        self.sock.sendall(HDR.pack(CMD_RET, 8) + struct.pack("<Q", value & (2**64 - 1)))

    def run(self):
        try:
            while True:
                cmd, size, fds = self._recv_header()
                payload = self._recv_exact(size) if size else b""
                self._handle(cmd, payload, fds)
        except (EOFError, ConnectionResetError):
            return

    def _handle(self, cmd, payload, fds):
        hc = self.hc
        if cmd == CMD_SYNC_SYSMEM:
            if not hasattr(hc, "set_sysmem"):
                # a model without DMA (the EHCI debug port) needs no guest RAM
                for fd in fds:
                    _close(fd)
                return
            vals = SYSMEM.unpack_from(payload.ljust(SYSMEM.size, b"\0"))
            regions = [(vals[i], vals[8 + i], vals[16 + i], fd) for i, fd in enumerate(fds)]
            mem = guestmem.GuestMemory(regions, self.log)
            with self.lock:
                hc.set_sysmem(mem)
            return
        if cmd == CMD_SET_IRQFD:
            for fd in self.irqfds:
                _close(fd)
            self.irqfds = fds           # kept open; the model is polled, never interrupts
            return
        for fd in fds:
            _close(fd)
        with self.lock:
            if cmd == CMD_CFGREAD:
                addr, _, length = CFG.unpack_from(payload)
                self._reply(hc.cfg_read(addr, length))
            elif cmd == CMD_CFGWRITE:
                addr, val, length = CFG.unpack_from(payload)
                hc.cfg_write(addr, val, length)
                self._reply(0)
            elif cmd in (CMD_BAR_READ, CMD_BAR_WRITE):
                addr, val, size, memory = BAR.unpack_from(payload)
                off = addr - hc.bar0
                ok = memory and hc.bar0 and 0 <= off and off + size <= getattr(hc, "BAR0_SIZE", BAR0_SIZE)
                if cmd == CMD_BAR_READ:
                    v = hc.mmio_read(off, size) if ok else (1 << (8 * size)) - 1
                    if self.trace:
                        self.log(f"rd  +{off:#05x}/{size} = {v:#x}")
                    self._reply(v)
                else:
                    if ok:
                        hc.mmio_write(off, val, size)
                    if self.trace:
                        self.log(f"wr  +{off:#05x}/{size} <- {val:#x}")
                    self._reply(0)
            elif cmd == CMD_DEVICE_RESET:
                hc.power_on()
                self._reply(0)
            else:
                self.log(f"unknown mpqemu command {cmd}")
                self._reply(0)


def _close(fd):
    import os
    try:
        os.close(fd)
    except OSError:
        pass


import guestmem  # noqa: E402
