# debugger.mk - what the debugger is, for every build that compiles it: its
# folders and the flags its code needs.  Included by the reference kernel's
# Makefile and by Linux's Kbuild (linux/ekdb.kbuild, `make linux`), so the
# two compile the same files the same way.  Paths are relative to the tree.

# The debugger's folders (docs/porting.md, "Compile the debugger's folders";
# the self-test selftest/ is optional and not listed here).
DEBUGGER_DIRS := lib arch/x86 early io/serial io/vga io/kbd io/ehci-dbgp io/xhci io/xhci-dbc \
                 io/xhci-kbd core core/late gdbstub kdb

# The arch's include path (asm/...) is for every folder but these: they reach
# the architecture through <ekdb/arch.h> (docs/layers.md).
ARCH_NEUTRAL_DIRS := gdbstub kdb

# Built for size (it sits in every kernel; its speed is bound by the line,
# not the CPU: docs/bench.md).
SIZE_DIRS := lib arch/x86 early io/serial io/kbd io/ehci-dbgp io/xhci io/xhci-dbc io/xhci-kbd core gdbstub \
             kdb selftest

# Freestanding, no FPU/SIMD, no red zone, frame pointers (kdb's bt),
# higher-half code model; the warnings the tree is held to.
DEBUGGER_CFLAGS := -std=gnu11 -ffreestanding -fno-builtin -nostdlib -fno-pic -fno-pie \
           -mcmodel=kernel -mno-red-zone -mgeneral-regs-only -mno-mmx -mno-sse -mno-sse2 -mno-80387 \
           -fno-stack-protector -fno-omit-frame-pointer -fno-optimize-sibling-calls \
           -fno-inline-functions-called-once -fno-strict-aliasing -fno-common \
           -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -Wstrict-prototypes \
           -Wmissing-prototypes -Wshadow -Wvla -D__KERNEL__
