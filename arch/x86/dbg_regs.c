/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dbg_regs.c - <ekdb/arch.h>'s register file hooks over the one x86-64
 * register table (regs_table.c) and the generated target description
 * (tdesc.c): what core/target.c serves to gdb and kdb, without naming x86.
 */
#include <ekdb/arch.h>
#include <ekdb/errno.h>
#include <ekdb/target.h>
#include <asm/regs_table.h>

unsigned arch_dbg_reg_count(void)
{
	return x86_reg_count();
}

const char *arch_dbg_reg_name(unsigned n)
{
	const struct x86_reg_desc *d = x86_reg_desc(n);

	return d ? d->name : NULL;
}

unsigned arch_dbg_reg_size(unsigned n)
{
	const struct x86_reg_desc *d = x86_reg_desc(n);

	return d ? d->bitsize / 8u : 0;
}

int arch_dbg_reg_get(const struct arch_dbg_state *st, unsigned n, u8 *buf, size_t *size)
{
	return x86_reg_get(st, n, buf, size);
}

int arch_dbg_reg_set(struct arch_dbg_state *st, unsigned n, const u8 *buf, size_t size)
{
	const struct x86_reg_desc *d = x86_reg_desc(n);

	if (!d)
		return -EKDB_EINVAL;
	/* only what arch_dbg_state_writeback() puts back may change */
	if (d->offset < 0 || (u64)d->offset > offsetof(struct arch_dbg_state, eflags))
		return -EKDB_EPERM;
	return x86_reg_set(st, n, buf, size);
}

void arch_dbg_reg_layout(struct ekdb_reg_layout *layout)
{
	x86_reg_layout(layout);
}

const char *arch_dbg_features_xml(const char *annex, size_t *len)
{
	return x86_features_xml(annex, len);
}
