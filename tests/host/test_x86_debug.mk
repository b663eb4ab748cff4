# SPDX-License-Identifier: GPL-2.0
# The x86 half of the debugger's trap policy (asm/debug_trap.h, asm/hw_breakpoint.h):
# DR6 decoding, DR7 for a slot set, slot limits, #BP decoding, fault signals.
test_x86_debug_SRCS := arch/x86/debugreg.c arch/x86/hw_breakpoint.c arch/x86/debug_trap.c
