/* SPDX-License-Identifier: GPL-2.0 */
/*
 * usbkbd_takeover.c - the debugger's side of the takeover of the USB
 * keyboards by the running kernel's xHCI driver
 * (kernel-glue/drivers/xhci_kbd.c).  That driver resets the controller
 * (after usbkbd_early_release()) and enumerates the keyboards again on its
 * own rings; each one it finds where the early driver had one (the same
 * controller, root port and hub port) carries on from the early
 * keyboard's state: the PS/2 decoder's (keys and modifiers held, Caps
 * Lock, an Enter whose release is to come), Num and Scroll Lock, the keys
 * of the last report (a key held across the takeover is not pressed
 * twice), and the bytes decoded and not read.  Its LEDs are sent again by
 * the next service (the reset turned them off).  A held key does not
 * repeat until it is pressed again.
 */
#include "usbkbd.h"
#include "xhc.h"
#include <ekdb/string.h>

bool usbkbd_early_take(struct xhc_dev *nd)
{
	struct xhc_set *s = usbkbd_early_set();

	for (unsigned i = 0; i < s->n_devs; i++) {
		struct xhc_dev *od = &s->devs[i];

		/* (release() cleared active: a keyboard is a used block that is no hub) */
		if (!od->used || od->hub_ports || !od->hc->released ||
		    xhc_bdf(od->hc) != xhc_bdf(nd->hc) || od->port != nd->port ||
		    od->hub_port != nd->hub_port)
			continue;
		nd->hid = od->hid;
		nd->hid.repeat_usage = 0;
		memcpy(nd->q, od->q, sizeof(nd->q));
		nd->q_head = od->q_head;
		nd->q_len = od->q_len;
		nd->sysrq = od->sysrq;
		od->used = false;		/* taken: never twice */
		return true;
	}
	return false;
}
