/* SPDX-License-Identifier: GPL-2.0 */
/* debugreg.c - read/write DR0-DR7, build DR7 slot encodings, decode DR6. */
#include <asm/debugreg.h>

u64 x86_get_dr(unsigned n)
{
	u64 v = 0;

	switch (n) {
	case 0: __asm__ __volatile__("mov %%db0, %0" : "=r"(v)); break;
	case 1: __asm__ __volatile__("mov %%db1, %0" : "=r"(v)); break;
	case 2: __asm__ __volatile__("mov %%db2, %0" : "=r"(v)); break;
	case 3: __asm__ __volatile__("mov %%db3, %0" : "=r"(v)); break;
	case 6: __asm__ __volatile__("mov %%db6, %0" : "=r"(v)); break;
	case 7: __asm__ __volatile__("mov %%db7, %0" : "=r"(v)); break;
	}
	return v;
}

void x86_set_dr(unsigned n, u64 v)
{
	switch (n) {
	case 0: __asm__ __volatile__("mov %0, %%db0" :: "r"(v)); break;
	case 1: __asm__ __volatile__("mov %0, %%db1" :: "r"(v)); break;
	case 2: __asm__ __volatile__("mov %0, %%db2" :: "r"(v)); break;
	case 3: __asm__ __volatile__("mov %0, %%db3" :: "r"(v)); break;
	case 6: __asm__ __volatile__("mov %0, %%db6" :: "r"(v)); break;
	case 7: __asm__ __volatile__("mov %0, %%db7" :: "r"(v)); break;
	}
}

/* LEN field encoding (SDM 17.2.5): 1 -> 00, 2 -> 01, 8 -> 10, 4 -> 11 */
static unsigned len_bits(unsigned len)
{
	switch (len) {
	case 2: return 1;
	case 8: return 2;
	case 4: return 3;
	default: return 0;
	}
}

u64 x86_dr7_slot(unsigned slot, unsigned rw, unsigned len)
{
	u64 v = 2ULL << (slot * 2);	/* Gn: global enable */

	v |= (u64)(rw & 3) << (16 + slot * 4);
	v |= (u64)len_bits(rw == DR_RW_EXEC ? 1 : len) << (18 + slot * 4);
	return v;
}

u64 x86_dr7_slot_mask(unsigned slot)
{
	return (3ULL << (slot * 2)) | (0xfULL << (16 + slot * 4));
}

int x86_dr6_hit_slot(u64 dr6)
{
	unsigned hit = dr6 & ((DR6_B0 << X86_HW_SLOTS) - 1);	/* B0..B3 */

	return hit ? __builtin_ctz(hit) : -1;
}

bool x86_dr6_single_step(u64 dr6)
{
	return dr6 & DR6_BS;
}
