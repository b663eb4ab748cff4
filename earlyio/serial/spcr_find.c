/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spcr_find.c - the ACPI SPCR table, through the boot info's RSDP and the
 * XSDT (or RSDT), before any allocator: static storage only, the tables
 * reached where the current page tables map them (early_ioremap_uc).
 */
#include "earlycon.h"
#include <kernel/kernel.h>
#include <ekdb/bootinfo.h>
#include <ekdb/string.h>

/* A table's header, mapped, checked: the table, or NULL. */
static const u8 *map_table(u64 phys, u32 *len)
{
	const u8 *h = early_ioremap_uc(phys, 36);

	if (!h)
		return NULL;
	*len = (u32)spcr_get_le(h + 4, 4);
	if (*len < 36 || *len > 0x100000)
		return NULL;
	h = early_ioremap_uc(phys, *len);
	return h && spcr_sum_ok(h, *len) ? h : NULL;
}

const void *spcr_find(u32 *len)
{
	const u8 *rsdp, *sdt;
	u32 sdt_len, entry;
	u64 sdt_phys;

	if (!boot_params.rsdp)
		return NULL;
	rsdp = early_ioremap_uc(boot_params.rsdp, 36);
	if (!rsdp || memcmp(rsdp, "RSD PTR ", 8) || !spcr_sum_ok(rsdp, 20))
		return NULL;
	if (rsdp[15] >= 2 && spcr_get_le(rsdp + 24, 8)) {
		sdt_phys = spcr_get_le(rsdp + 24, 8);	/* XSDT: 64-bit entries */
		entry = 8;
	} else {
		sdt_phys = spcr_get_le(rsdp + 16, 4);	/* RSDT: 32-bit entries */
		entry = 4;
	}
	sdt = map_table(sdt_phys, &sdt_len);
	if (!sdt)
		return NULL;
	for (u32 off = 36; off + entry <= sdt_len; off += entry) {
		u64 phys = spcr_get_le(sdt + off, entry);
		const u8 *t = early_ioremap_uc(phys, 4);

		if (t && !memcmp(t, "SPCR", 4))
			return map_table(phys, len);
	}
	return NULL;
}
