// SPDX-License-Identifier: GPL-2.0
/*
 * frame.c - the x86-64 trap frame (struct pt_regs, as the entry stubs
 * push it: asm/regs.h) for the neutral debugger (<ekdb/arch.h>): its size
 * and its registers by gdb's names (kdb's ef), which vectors push an error
 * code.
 */
#include <ekdb/arch.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include <asm/regs.h>

_Static_assert(sizeof(struct pt_regs) <= ARCH_DBG_FRAME_MAX, "ARCH_DBG_FRAME_MAX too small");

bool arch_dbg_vector_has_error(u64 vector)
{
	return vector == 8 || (vector >= 10 && vector <= 14) || vector == 17 || vector == 21;
}

size_t arch_dbg_frame_size(void)
{
	return sizeof(struct pt_regs);
}

#define FRAME_REG(gdb, field) { gdb, __builtin_offsetof(struct pt_regs, field) }
static const struct {
	const char *name;
	u16 offset;
} frame_regs[] = {
	FRAME_REG("rax", rax), FRAME_REG("rbx", rbx), FRAME_REG("rcx", rcx),
	FRAME_REG("rdx", rdx), FRAME_REG("rsi", rsi), FRAME_REG("rdi", rdi),
	FRAME_REG("rbp", rbp), FRAME_REG("rsp", rsp), FRAME_REG("r8", r8),
	FRAME_REG("r9", r9), FRAME_REG("r10", r10), FRAME_REG("r11", r11),
	FRAME_REG("r12", r12), FRAME_REG("r13", r13), FRAME_REG("r14", r14),
	FRAME_REG("r15", r15), FRAME_REG("rip", rip), FRAME_REG("eflags", rflags),
	FRAME_REG("cs", cs), FRAME_REG("ss", ss),
};

int arch_dbg_frame_reg(const void *frame, const char *name, u64 *val)
{
	const struct pt_regs *x = frame;

	if (!strcmp(name, "orig_ax")) {
		*val = arch_dbg_vector_has_error(x->vector) ? x->error_code : ~0ull;
		return 0;
	}
	for (size_t i = 0; i < sizeof(frame_regs) / sizeof(frame_regs[0]); i++)
		if (!strcmp(frame_regs[i].name, name)) {
			memcpy(val, (const u8 *)frame + frame_regs[i].offset, sizeof(*val));
			return 0;
		}
	return -EKDB_ENOENT;
}
