/* SPDX-License-Identifier: GPL-2.0 */
/*
 * late.h - private to core/late/ (the late init init.c and its storage
 * alloc.c, the takeover takeover.c, the run-time parameters runtime.c):
 * the full debug core's own state.
 */
#ifndef CORE_LATE_LATE_H
#define CORE_LATE_LATE_H

#include "../debug_core.h"

struct late_state {
	bool done;			/* ekdb_late_init() ran */
	bool off;			/* the debugger stays off */
	bool have_kgdboc;
	struct kgdboc_cfg kgdboc;
	bool unmap_early;		/* ekdb.debug_early=unmap */
	bool early_released;
	unsigned bp_tables_grown;
};

extern struct late_state late;

/* alloc.c: the host's allocators (<ekdb/port.h>) */
#define DBG_PAGE_SIZE	4096UL
void *dbg_kmalloc(size_t size);
void *dbg_kzalloc(size_t size);
void dbg_kfree(const void *ptr);
unsigned int dbg_page_max_order(void);
void *dbg_alloc_pages(unsigned int order);
void *dbg_alloc_pages_nowait(unsigned int order);
void dbg_free_pages(void *addr, unsigned int order);
bool dbg_release_range(u64 start, u64 end, bool unmap);

/* core/late/init.c */
int late_start_debugger(void);

/* takeover.c */
void late_io_describe(char *buf, size_t len);
void late_io_pending_register(void);
void late_io_after_handoff(bool early_served);

#endif
