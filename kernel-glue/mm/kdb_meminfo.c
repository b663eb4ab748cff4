/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kdb_meminfo.c - the `meminfo` kdb command, registered by mm_init() once
 * the page allocator exists (kdb's late registration).  Reads only the
 * allocator's counters: no lock is taken while the machine is stopped.
 */
#include <kernel/mm.h>
#include <ekdb/kdb.h>

static int kdb_meminfo(struct kdb_session *s, int argc, const char **argv)
{
	unsigned long kb = PAGE_SIZE / 1024;

	if (argc)
		return kdb_printf(s, "usage: meminfo\n"), 0;
	kdb_printf(s, "MemTotal:       %8lu kB\n", nr_managed_pages() * kb);
	kdb_printf(s, "MemFree:        %8lu kB\n", nr_free_pages() * kb);
	kdb_printf(s, "BadFrees:       %8lu\n", page_alloc_bad_frees());
	kdb_printf(s, "Free blocks by order (buddyinfo):");
	for (unsigned o = 0; o < MAX_ORDER; o++)
		kdb_printf(s, " %lu", nr_free_blocks(o));
	kdb_printf(s, "\n");
	return 0;
}

static const struct kdb_cmd meminfo_cmd = {
	.name = "meminfo",
	.fn = kdb_meminfo,
	.usage = "",
	.help = "Page allocator statistics",
	.flags = KDB_ENABLE_INSPECT,
};

void mm_kdb_init(void)
{
	kdb_register(&meminfo_cmd);
}
