/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debug_port.c - the reference kernel's porting interface (<ekdb/port.h>)
 * as it is from the start of setup_arch(): the log, the consoles and where
 * physical memory is reached.  The early debugger uses these, so this file
 * and what it reaches are part of tools/check-early.sh's allocator-free
 * link (tools/check-early.allow).  The rest comes with debug_glue.c.
 */
#include <kernel/kernel.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <asm/processor.h>
#include <ekdb/bootinfo.h>
#include <ekdb/ekdb.h>
#include <ekdb/port.h>
#include <ekdb/string.h>
#include "debug_port.h"

#define IDENTITY_LIMIT	(4ULL << 30)	/* the loader's identity map */
#define CR3_ADDR	0x000ffffffffff000ULL

/*
 * Where the CPU reaches physical memory now: earlyprintk= is parsed while
 * the loader's identity map of 0..4 GiB is live; init_mem_mapping() then
 * switches to the kernel's tables, where it is at __va(phys).  The screen
 * console asks at every sync, maybe with the machine stopped.
 */
__ekdb_nobp void *glue_map_phys(u64 phys, u64 len)
{
	if ((read_cr3() & CR3_ADDR) == (boot_params.loader_pml4 & CR3_ADDR))
		return phys + len <= IDENTITY_LIMIT ? (void *)(uintptr_t)phys : NULL;
	return __va(phys);
}

__ekdb_nobp const struct ekdb_framebuffer *glue_framebuffer(void)
{
	return &boot_params.fb;
}

/*
 * The ACPI table @sig ("SPCR"), through the boot info's RSDP and the XSDT
 * (or RSDT), checksums checked, where the CPU reaches it now; NULL: none.
 * Bare earlycon asks for the SPCR while the early parameters are parsed.
 */
static u64 le(const u8 *p, unsigned n)
{
	u64 v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static bool sum_ok(const u8 *p, size_t len)
{
	u8 sum = 0;

	for (size_t i = 0; i < len; i++)
		sum = (u8)(sum + p[i]);
	return sum == 0;
}

static const u8 *map_table(u64 phys, u32 *len)
{
	const u8 *h = glue_map_phys(phys, 36);

	if (!h)
		return NULL;
	*len = (u32)le(h + 4, 4);
	if (*len < 36 || *len > 0x100000)
		return NULL;
	h = glue_map_phys(phys, *len);
	return h && sum_ok(h, *len) ? h : NULL;
}

const void *glue_acpi_table(const char *sig, u32 *len)
{
	const u8 *rsdp, *sdt;
	u32 sdt_len, entry;
	u64 sdt_phys;

	if (!boot_params.rsdp)
		return NULL;
	rsdp = glue_map_phys(boot_params.rsdp, 36);
	if (!rsdp || memcmp(rsdp, "RSD PTR ", 8) || !sum_ok(rsdp, 20))
		return NULL;
	if (rsdp[15] >= 2 && le(rsdp + 24, 8)) {
		sdt_phys = le(rsdp + 24, 8);	/* XSDT: 64-bit entries */
		entry = 8;
	} else {
		sdt_phys = le(rsdp + 16, 4);	/* RSDT: 32-bit entries */
		entry = 4;
	}
	sdt = map_table(sdt_phys, &sdt_len);
	for (u32 off = 36; sdt && off + entry <= sdt_len; off += entry) {
		u64 phys = le(sdt + off, entry);
		const u8 *t = glue_map_phys(phys, 4);

		if (t && !memcmp(t, sig, 4))
			return map_table(phys, len);
	}
	return NULL;
}

static const struct ekdb_port_ops kernel_boot_port = {
	DEBUG_PORT_BOOT_SERVICES,
};

/* First thing in setup_arch(): earlyprintk= registers the early consoles. */
void debug_glue_boot(void)
{
	ekdb_set_port(&kernel_boot_port);
}
