/* SPDX-License-Identifier: GPL-2.0 */
/* kms_debug.h - the kms driver's debugger display hooks (struct ekdb_display_ops). */
#ifndef DRIVERS_KMS_DEBUG_H
#define DRIVERS_KMS_DEBUG_H

#include <ekdb/types.h>

/* Register the hooks with the debugger (before the first modeset). */
void kms_debug_init(void);
void kms_debug_exit(void);
/* The debugger uses this screen (kgdboc=kms, or ekgdboc=kbd's screen handed over). */
bool kms_debug_registered(void);
/* Run-time kgdboc: give (@on) or take back the hooks; -EKDB_ENODEV: no kms display. */
int kms_debug_set(bool on);

/* Cycle counts of the last enter/leave (make bench), 0 before the first. */
struct kms_debug_stats {
	u64 enter_cycles, leave_cycles;
	u32 enters;
	bool last_full_modeset;		/* the last enter had to reprogram the mode */
};
void kms_debug_get_stats(struct kms_debug_stats *st);

#endif
