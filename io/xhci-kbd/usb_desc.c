/* SPDX-License-Identifier: GPL-2.0 */
/* usb_desc.c - a configuration descriptor searched for a boot keyboard (usb_desc.h). */
#include "usb_desc.h"
#include <ekdb/errno.h>

int usb_find_int_in(const u8 *cfg, unsigned len, int cls, int sub, int proto,
		    struct usb_boot_kbd *k)
{
	bool in_kbd = false;

	*k = (struct usb_boot_kbd){ 0 };
	if (len < 9 || cfg[0] < 9 || cfg[1] != USB_DT_CONFIG)
		return -EKDB_EINVAL;
	k->config = cfg[5];
	for (unsigned off = cfg[0]; off + 2 <= len; off += cfg[off]) {
		const u8 *d = cfg + off;

		if (d[0] < 2)
			return -EKDB_EINVAL;		/* would never end */
		if (off + d[0] > len)
			break;				/* cut short: what is whole counts */
		if (d[1] == USB_DT_INTERFACE && d[0] >= 9) {
			k->n_ifaces++;
			in_kbd = d[5] == cls && (sub < 0 || d[6] == sub) &&
				 (proto < 0 || d[7] == proto);
			k->iface = d[2];
			k->alt = d[3];
		} else if (d[1] == USB_DT_ENDPOINT && d[0] >= 7 && in_kbd &&
			   (d[2] & USB_DIR_IN) && (d[3] & 3) == 3) {
			k->ep_addr = d[2];
			k->maxp = (u16)((d[4] | d[5] << 8) & 0x7ff);
			k->interval = d[6];
			if (k->maxp)
				return 0;
		}
	}
	return -EKDB_ENOENT;
}

int usb_find_boot_kbd(const u8 *cfg, unsigned len, struct usb_boot_kbd *k)
{
	return usb_find_int_in(cfg, len, USB_CLASS_HID, HID_SUBCLASS_BOOT, HID_PROTOCOL_KEYBOARD, k);
}

u8 usb_xhci_interval(u8 binterval, unsigned speed)
{
	unsigned n = 3;

	if (speed >= 3)				/* high/super: 2^(bInterval-1) microframes */
		return (u8)(binterval ? MIN(binterval - 1u, 15u) : 0);
	/* full/low: bInterval frames of 1 ms = 8 x 125 us; the largest 2^n not above */
	while (n < 10 && (1u << (n + 1)) <= binterval * 8u)
		n++;
	return (u8)n;
}
