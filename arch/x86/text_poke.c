/* SPDX-License-Identifier: GPL-2.0 */
/* text_poke.c - write through read-only mappings inside a CR0.WP window. */
#include <asm/text_poke.h>
#include <asm/fixup.h>
#include <asm/processor.h>

size_t arch_dbg_text_poke(u64 addr, const void *src, size_t len)
{
	u64 flags = local_irq_save();
	u64 cr0 = read_cr0();
	size_t n;

	write_cr0(cr0 & ~X86_CR0_WP);
	n = arch_dbg_probe_write(addr, src, len);
	write_cr0(cr0);
	/* serialize: the CPU must not run stale bytes it prefetched */
	__asm__ __volatile__("mov %%cr0, %%rax; mov %%rax, %%cr0" ::: "rax", "memory");
	local_irq_restore(flags);
	return n;
}
