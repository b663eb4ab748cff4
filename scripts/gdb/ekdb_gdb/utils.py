# SPDX-License-Identifier: GPL-2.0
"""Shared helpers: finding kernel variables by name (statics by their file),
reading target memory with errors a person can read, argument checks."""

import struct

import gdb


class Error(gdb.GdbError):
    """A message for the user (gdb prints it, no Python traceback)."""


def need_target(cmd):
    """The helpers read a live kernel: refuse before `target remote`."""
    if gdb.selected_inferior().pid == 0 or gdb.selected_thread() is None:
        raise Error(f"{cmd}: no kernel to read: connect first "
                    "(target remote ...; `make debug` does it)")


def no_args(cmd, arg, usage=""):
    argv = gdb.string_to_argv(arg)
    if argv:
        raise Error(f"usage: {cmd}{(' ' + usage) if usage else ''}  "
                    f"({cmd} takes no arguments; got {' '.join(argv)!r})")


_sections = {}


def elf_sections():
    """{name: (link address, size)} of kernel.elf's sections (its file)."""
    path = gdb.current_progspace().filename
    if path not in _sections:
        secs = {}
        try:
            with open(path, "rb") as f:
                elf = f.read()
            shoff, = struct.unpack_from("<Q", elf, 0x28)
            shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3a)
            def sh(i):
                return struct.unpack_from("<IIQQQQ", elf, shoff + i * shentsize)
            strtab_off = sh(shstrndx)[4]
            for i in range(shnum):
                name_off, _, _, addr, _, size = sh(i)
                end = elf.index(b"\0", strtab_off + name_off)
                secs[elf[strtab_off + name_off:end].decode()] = (addr, size)
        except (OSError, struct.error, ValueError):
            pass
        _sections[path] = secs
    return _sections[path]


def kaslr_offset():
    """How far gdb moved the kernel's text from its link address (qOffsets)."""
    text = elf_sections().get(".text")
    return addr_of("_text") - text[0] if text else 0


def relocated(value):
    """@value (a variable) at its run-time address.  gdb applies qOffsets'
    Text/Data/Bss offsets to .text, .data and .bss only: a variable in
    another section (.rodata: const tables) keeps its link address in gdb's
    eyes under KASLR.  Such a one is moved by the kernel's offset here; one
    gdb already moved is left alone."""
    addr = int(value.address)
    off = kaslr_offset()
    if not off:
        return value
    try:
        where = gdb.execute(f"info symbol 0x{addr:x}", to_string=True)
    except gdb.error:
        return value
    sec = where.rpartition(" in section ")[2].strip()
    link = elf_sections().get(sec)
    if sec in (".text", ".data", ".bss") or not link or not link[0] <= addr < link[0] + link[1]:
        return value
    return gdb.Value(addr + off).cast(value.type.pointer()).dereference()


def var(name, file=None):
    """The value of kernel variable @name at its run-time address.  @file (a
    path suffix such as "core/bp.c") picks a file-static one when several
    files have one."""
    return relocated(_var(name, file))


def _var(name, file):
    if file:
        for sym in gdb.lookup_static_symbols(name):
            if sym.symtab and sym.symtab.filename.endswith(file):
                return sym.value()
    sym = gdb.lookup_global_symbol(name)
    if sym is None and not file:
        syms = gdb.lookup_static_symbols(name)
        sym = syms[0] if syms else None
    if sym is None:
        where = f" ({file})" if file else ""
        raise Error(f"no symbol {name}{where} in the loaded kernel: is this ekdb's "
                    "build/kernel.elf, built from this tree?")
    return sym.value()


def addr_of(name):
    """Run-time address of a linker or kernel symbol (KASLR applied by gdb)."""
    try:
        return int(gdb.parse_and_eval(f"(unsigned long)&{name}"))
    except gdb.error as e:
        raise Error(f"no symbol {name} in the loaded kernel ({e})")


def read(addr, length, what):
    """@length bytes at @addr, or a clear error naming @what."""
    if length <= 0:
        return b""
    try:
        return gdb.selected_inferior().read_memory(addr, length).tobytes()
    except gdb.MemoryError:
        raise Error(f"cannot read {what} ({length} bytes at 0x{addr:x})")


def load(value, what):
    """Fetch a lazy gdb.Value now, turning a failed read into an Error."""
    try:
        value.fetch_lazy()
        return value
    except gdb.MemoryError:
        raise Error(f"cannot read {what} at 0x{int(value.address or 0):x}")


def symbolize(addr):
    """"func+0x12" for a code address (gdb's symbols), or ""."""
    try:
        out = gdb.execute(f"info symbol 0x{addr:x}", to_string=True).strip()
    except gdb.error:
        return ""
    if out.startswith("No symbol"):
        return ""
    name = out.split(" in section ")[0]
    return name.replace(" + ", "+")


def function_of(addr):
    """(gdb.Symbol, gdb.Block) of the function holding @addr, or (None, None)."""
    try:
        block = gdb.block_for_pc(addr)
    except RuntimeError:
        return None, None
    while block is not None and block.function is None:
        block = block.superblock
    return (block.function, block) if block is not None else (None, None)


def selected_cpu():
    """The CPU of gdb's selected thread (the stub's threads are CPUs:
    thread N is CPU#N-1), found by its GS base (the per-CPU record)."""
    area = var("percpu_area")
    base = int(area.address)
    size = area.type.target().sizeof
    try:
        gs = int(gdb.selected_frame().read_register("gs_base"))
        if base <= gs < base + size * (area.type.sizeof // size):
            return (gs - base) // size
    except (gdb.error, ValueError):
        pass
    th = gdb.selected_thread()
    return max(th.num - 1, 0) if th else 0
