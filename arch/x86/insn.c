// SPDX-License-Identifier: GPL-2.0
/*
 * insn.c - the x86-64 instruction knowledge the neutral debugger asks for
 * (<ekdb/arch.h>): is the next instruction a branch (kdb's ssb).
 */
#include <ekdb/arch.h>

/**
 * arch_dbg_insn_is_branch - does the x86-64 instruction at @insn transfer
 * control (jmp, jcc, call, ret, loop, jrcxz, int, iret, syscall, sysret,
 * indirect call/jmp through FF /2../5)?  Legacy and REX prefixes are
 * skipped.  Pure byte inspection: used by ssb on the host as in the kernel.
 */
bool arch_dbg_insn_is_branch(const u8 *insn, size_t len)
{
	size_t i = 0;
	u8 op;

	while (i < len && (insn[i] == 0x66 || insn[i] == 0x67 || insn[i] == 0xf2 ||
			   insn[i] == 0xf3 || insn[i] == 0xf0 || insn[i] == 0x2e ||
			   insn[i] == 0x3e || insn[i] == 0x26 || insn[i] == 0x36 ||
			   insn[i] == 0x64 || insn[i] == 0x65))
		i++;
	if (i < len && (insn[i] & 0xf0) == 0x40)
		i++;	/* REX */
	if (i >= len)
		return false;
	op = insn[i];
	if ((op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3) ||
	    op == 0xe8 || op == 0xe9 || op == 0xeb || op == 0xc2 || op == 0xc3 ||
	    op == 0xca || op == 0xcb || op == 0xcc || op == 0xcd || op == 0xcf)
		return true;
	if (op == 0x0f && i + 1 < len)
		return (insn[i + 1] >= 0x80 && insn[i + 1] <= 0x8f) || insn[i + 1] == 0x05 ||
		       insn[i + 1] == 0x07;
	if (op == 0xff && i + 1 < len) {
		unsigned reg = (insn[i + 1] >> 3) & 7;

		return reg >= 2 && reg <= 5;
	}
	return false;
}
