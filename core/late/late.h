/* SPDX-License-Identifier: GPL-2.0 */
/* late.h - private to core/late/: the full debug core's own state. */
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

/* handoff.c */
int late_start_debugger(void);

/* io.c */
void late_io_describe(char *buf, size_t len);
void late_io_pending_register(void);
void late_io_after_handoff(bool early_served);

#endif
