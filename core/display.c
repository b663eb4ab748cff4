/* SPDX-License-Identifier: GPL-2.0 */
/*
 * display.c - the display hooks (the kms debugger hooks of Linux 2.6.34,
 * as an ops table): the driver that owns the screen shows the debugger on
 * entry and puts its own picture back on leave.  One display at a time.
 */
#include "debug_core.h"
#include <ekdb/ekdb.h>
#include <ekdb/errno.h>

static const struct ekdb_display_ops *display;
static bool display_entered;
static bool display_wanted = true;	/* kgdboc written without kms: the screen is left alone */

/* dbg_display_set_wanted - does the debugger show itself on the display (kgdboc's kms)? */
void dbg_display_set_wanted(bool on)
{
	display_wanted = on;
}

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
	if (display && display_wanted && !display_entered) {
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
