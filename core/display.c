/* SPDX-License-Identifier: GPL-2.0 */
/*
 * display.c - the display hooks (the kms debugger hooks of Linux 2.6.34,
 * as an ops table): the driver that owns the screen shows the debugger on
 * entry and puts its own picture back on leave.  One display at a time.
 * The driver registers them while kgdboc names its display (kms: at boot,
 * or written at run time) and unregisters them when kgdboc stops naming it.
 */
#include "debug_core.h"
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>

static const struct ekdb_display_ops *display;
static bool display_entered;

int ekdb_register_display(const struct ekdb_display_ops *ops)
{
	if (!ops || !ops->enter || !ops->leave)
		return -EKDB_EINVAL;
	if (display && display != ops)
		return -EKDB_EBUSY;
	display = ops;
	return 0;
}

void ekdb_unregister_display(const struct ekdb_display_ops *ops)
{
	if (display == ops)
		display = NULL;
}

void dbg_display_enter(void)
{
	if (display && !display_entered) {
		display->enter();
		display_entered = true;
	}
}

void dbg_display_leave(void)
{
	if (display && display_entered) {
		display_entered = false;
		display->leave();
	}
}
