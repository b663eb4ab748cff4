/* SPDX-License-Identifier: GPL-2.0 */
/*
 * usb_desc.h - the USB requests and descriptors the early keyboard driver
 * uses (USB 2.0 chapter 9, HID 1.11 section 7), and the search of a
 * configuration descriptor for a HID boot keyboard.  Pure (host-tested).
 */
#ifndef IO_XHCI_KBD_USB_DESC_H
#define IO_XHCI_KBD_USB_DESC_H

#include <ekdb/types.h>

#define USB_DT_DEVICE		1
#define USB_DT_CONFIG		2
#define USB_DT_INTERFACE	4
#define USB_DT_ENDPOINT		5
#define USB_REQ_GET_DESCRIPTOR	6
#define USB_REQ_SET_CONFIGURATION 9
#define USB_DIR_IN		0x80
#define USB_TYPE_CLASS_IF	0x21	/* class request to an interface, host to device */
#define USB_CLASS_HID		3
#define USB_CLASS_HUB		9
#define HID_SUBCLASS_BOOT	1
#define HID_PROTOCOL_KEYBOARD	1
#define HID_REQ_SET_REPORT	0x09
#define HID_REQ_SET_IDLE	0x0a
#define HID_REQ_SET_PROTOCOL	0x0b
#define HID_REPORT_OUTPUT	2

/* The interface of a boot keyboard and its interrupt IN endpoint. */
struct usb_boot_kbd {
	u8 config;		/* bConfigurationValue */
	u8 iface, alt;		/* bInterfaceNumber, bAlternateSetting */
	u8 ep_addr;		/* bEndpointAddress (0x8n) */
	u16 maxp;		/* wMaxPacketSize (bits 10:0) */
	u8 interval;		/* bInterval */
	u8 n_ifaces;		/* interfaces seen, for messages */
};

/*
 * usb_find_boot_kbd - walk the configuration descriptor @cfg (@len bytes,
 * as read: it may be cut short) for the first interface of class 3,
 * subclass 1, protocol 1 with an interrupt IN endpoint.  0, or -EKDB_ENOENT
 * (no boot keyboard: @k->n_ifaces says what was there), -EKDB_EINVAL (the
 * descriptor is malformed: a length of 0 or 1, past the end, not a
 * configuration).
 */
int usb_find_boot_kbd(const u8 *cfg, unsigned len, struct usb_boot_kbd *k);

/*
 * usb_find_int_in - the same for the first interface of class @cls
 * (subclass @sub and protocol @proto unless negative: any) with an
 * interrupt IN endpoint: a hub's status-change endpoint (class 9).
 */
int usb_find_int_in(const u8 *cfg, unsigned len, int cls, int sub, int proto,
		    struct usb_boot_kbd *k);

/*
 * usb_xhci_interval - the endpoint context's Interval (2^n x 125 us) for
 * an interrupt endpoint's @binterval at USB speed @speed (xHCI PORTSC
 * speed: 1 full, 2 low, 3 high, 4+ super), xHCI 1.1 section 6.2.3.6.
 */
u8 usb_xhci_interval(u8 binterval, unsigned speed);

#endif
