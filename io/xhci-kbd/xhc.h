/* SPDX-License-Identifier: GPL-2.0 */
/*
 * xhc.h - a polled xHCI host controller for the early keyboards
 * (xHCI 1.1 section 4): reset and run with static rings (xhc.c), device
 * slots, control transfers and one interrupt IN endpoint per device
 * (xhc_dev.c).  The TRBs and rings are ../xhci/'s, as the DbC's.
 */
#ifndef IO_XHCI_KBD_XHC_H
#define IO_XHCI_KBD_XHC_H

#include "../xhci/xhci_pci.h"
#include "hid_kbd.h"

/* capability registers */
#define XHCI_HCSPARAMS1		0x04
#define  HCS_MAX_SLOTS(p)	((p) & 0xff)
#define  HCS_MAX_PORTS(p)	(((p) >> 24) & 0xff)
#define XHCI_HCSPARAMS2		0x08
#define  HCS_SCRATCH(p)		((((p) >> 21) & 0x1f) << 5 | (((p) >> 27) & 0x1f))
#define  HCC_CSZ		(1u << 2)
#define XHCI_DBOFF		0x14
#define XHCI_RTSOFF		0x18
/* operational registers */
#define XHCI_USBCMD		0x00
#define  CMD_RUN		(1u << 0)
#define  CMD_HCRST		(1u << 1)
#define  CMD_INTE		(1u << 2)
#define XHCI_USBSTS		0x04
#define  STS_HCH		(1u << 0)
#define  STS_HSE		(1u << 2)
#define  STS_CNR		(1u << 11)
#define  STS_W1C		((1u << 2) | (1u << 3) | (1u << 4) | (1u << 10))
#define XHCI_PAGESIZE		0x08
#define XHCI_CRCR		0x18
#define XHCI_DCBAAP		0x30
#define XHCI_CONFIG		0x38
#define XHCI_PORTSC(n)		(0x400 + 0x10 * ((n) - 1))
#define  PORT_CCS		(1u << 0)
#define  PORT_PED		(1u << 1)
#define  PORT_PR		(1u << 4)
#define  PORT_PP		(1u << 9)
#define  PORT_SPEED(p)		(((p) >> 10) & 0xf)
#define  PORT_CSC		(1u << 17)
#define  PORT_PEC		(1u << 18)
#define  PORT_PRC		(1u << 21)
#define  PORT_CHANGES		(0x7fu << 17)	/* CSC PEC WRC OCC PRC PLC CEC: write 1 to clear */
/* bits that keep their value when written back (Linux's XHCI_PORT_RO | XHCI_PORT_RWS) */
#define  PORT_KEEP		((1u << 0) | (1u << 3) | (0xfu << 10) | (1u << 30) | \
				 (0xfu << 5) | (1u << 9) | (3u << 14) | (7u << 25))
/* interrupter 0 (runtime registers + 0x20) */
#define XHCI_IMAN		0x20
#define XHCI_ERSTSZ		0x28
#define XHCI_ERSTBA		0x30
#define XHCI_ERDP		0x38
#define  XHCI_ERDP_EHB		(1u << 3)

/* TRB types beyond ../xhci/xhci.h's */
#define TRB_SETUP		2
#define TRB_DATA		3
#define TRB_STATUS		4
#define TRB_ENABLE_SLOT		9
#define TRB_DISABLE_SLOT	10
#define TRB_ADDRESS_DEV		11
#define TRB_CONFIG_EP		12
#define TRB_EVAL_CTX		13
#define TRB_RESET_EP		14
#define TRB_SET_TR_DEQ		16
#define TRB_CMD_DONE		33
#define TRB_IDT			(1u << 6)
#define TRB_DIR_IN		(1u << 16)
#define TRB_TRT(t)		((u32)(t) << 16)	/* setup: 0 none, 2 OUT, 3 IN */
#define TRB_SLOT(s)		((u32)(s) << 24)
#define TRB_GET_SLOT(c)		(((c) >> 24) & 0xff)
#define TRB_EP(e)		((u32)(e) << 16)

/* Sizes: the static storage the keyboards cost */
#define XHC_MAX			2	/* controllers */
#define XHC_DEVS		4	/* keyboards, all controllers together */
#define XHC_SLOTS		8	/* MaxSlotsEn */
#define XHC_PORTS_MAX		32	/* root ports looked at per controller */
#define XHC_SCRATCH_PAGES	32	/* scratchpad pages, all controllers together */
#define XHC_CMD_TRBS		16
#define XHC_EVT_TRBS		64
#define XHC_EP0_TRBS		16
#define XHC_INT_TRBS		8
#define XHC_INT_BUFS		4	/* reports in flight per keyboard */
#define XHC_REPORT_MAX		64	/* bytes per report buffer (maxp above: cut) */
#define XHC_DESC_MAX		256	/* configuration descriptor bytes read */
#define XHC_CTX_MAX		64	/* context size (HCCPARAMS1.CSZ: 32 or 64) */

/* Budgets (us) */
#define XHC_HALT_US		20000
#define XHC_RESET_US		1000000
#define XHC_CMD_US		1000000
#define XHC_CTRL_US		1000000
#define XHC_PORT_RESET_US	500000
#define XHC_CONNECT_US		100000	/* after run: for the ports to see their devices */
#define XHC_RECOVERY_US		10000	/* after a port reset (USB 2.0 TRSTRCY) */

/* DMA memory of one controller (one 4 KiB-aligned block; no part crosses a page). */
struct xhc_mem {
	u8 input_ctx[33 * XHC_CTX_MAX] __aligned(4096);
	u64 dcbaa[XHC_SLOTS + 1] __aligned(128);
	u64 scratch[XHC_SCRATCH_PAGES] __aligned(256);
	struct xhci_trb cmd[XHC_CMD_TRBS] __aligned(256);
	struct xhci_trb evt[XHC_EVT_TRBS] __aligned(1024);
	struct xhci_erst_entry erst __aligned(64);
	u8 desc[XHC_DESC_MAX] __aligned(256);
};

/* DMA memory of one device. */
struct xhc_dev_mem {
	u8 out_ctx[32 * XHC_CTX_MAX] __aligned(2048);
	struct xhci_trb ep0[XHC_EP0_TRBS] __aligned(256);
	struct xhci_trb intr[XHC_INT_TRBS] __aligned(128);
	u8 report[XHC_INT_BUFS][XHC_REPORT_MAX] __aligned(64);
	u8 led __aligned(64);
};

struct xhc;

/* A keyboard on a root port. */
struct xhc_dev {
	struct xhc *hc;
	struct xhc_dev_mem *mem;
	u64 mem_phys;
	bool used;			/* this block is taken */
	bool active;			/* reports are read */
	bool gone;			/* unplugged, or its endpoint failed for good */
	u8 slot, port, speed;		/* port: the root port (behind a hub: the hub's) */
	u8 hub_port;			/* behind a hub: its port there (route string), else 0 */
	u8 tt_slot, tt_port;		/* low/full speed behind a high-speed hub: its TT */
	u8 hub_ports;			/* a hub: how many ports it has (else 0) */
	u16 hub_changed;		/* a hub: ports its status-change endpoint named, not handled yet */
	struct xhc_dev *parent;		/* the hub it is behind, or NULL */
	struct xhci_ring ep0, intr;
	u8 dci;				/* the interrupt IN endpoint's context index */
	u16 maxp;
	u8 iface;
	u16 vendor, product;
	/* the control transfer in flight (ep0) */
	bool ctrl_busy, ctrl_done;
	u8 ctrl_cc;
	u64 ctrl_last;			/* its last TRB */
	bool led_async;			/* it is a SET_REPORT nobody waits for */
	u8 leds;			/* what the keyboard shows */
	/* interrupt IN */
	u8 buf_of[XHC_INT_TRBS];
	bool halted;			/* the interrupt endpoint stopped (stall, error) */
	unsigned halts;
	struct hid_kbd hid;
	char q[32];			/* decoded bytes not read yet */
	u8 q_head, q_len;
	char sysrq;			/* an Alt+SysRq key not taken yet */
	unsigned long reports, errors, dropped;
};

struct xhc {
	struct xhci_pci pci;
	char name[8];			/* "00:04.0" */
	struct xhc_mem *mem;
	u64 mem_phys;
	u32 op, rt, db;			/* register block offsets */
	u32 hcs1, hcc1;
	unsigned ctx_size, max_ports, max_slots;
	struct xhci_ring cmd, evt;
	u64 scratch_phys;		/* its scratchpad pages (n_scratch of them) */
	unsigned n_scratch;
	bool running;
	bool released;			/* the kernel's driver has it: never touched again */
	/*
	 * Its Debug Capability is in use: the DbC's driver, told before the
	 * halt (dbc_prep: nonzero when it has the DbC there) and right after
	 * HCRST (dbc_startup: HCRST resets the DbC too, it enables it again);
	 * NULL: nobody to tell.  Linux's dbgp_reset_prep()/external_startup().
	 */
	int (*dbc_prep)(u32 bdf);
	int (*dbc_startup)(u32 bdf);
	/* the last command completion */
	bool cmd_done;
	u8 cmd_cc, cmd_slot;
	u64 cmd_trb;
	u32 port_changed;		/* Port Status Change Events seen, one bit per port */
	unsigned long events;
};

/* xhc.c */
/*
 * Reset the controller and run it with @hc's rings (pci set up and mapped,
 * mem and mem_phys set); scratchpad pages from *@scratch_next (physical,
 * *@scratch_left pages left), both advanced, on the first start; a
 * restart uses the same pages.
 */
int xhc_start(struct xhc *hc, u64 *scratch_next, unsigned *scratch_left);
/* Process every event the controller wrote (transfers go to @devs). */
void xhc_events(struct xhc *hc, struct xhc_dev *devs, unsigned ndevs);
/* One command; the completion code (CC_SUCCESS ...) or -EKDB_ETIMEDOUT. *@slot: its slot. */
int xhc_command(struct xhc *hc, struct xhc_dev *devs, unsigned ndevs, u64 param, u32 status,
		u32 ctrl, u8 *slot);
/* Port reset (USB 2) and the speed of the device there; 0 or -errno. */
int xhc_port_reset(struct xhc *hc, unsigned port, u8 *speed);
/* The controller's PCI address as the kernel's drivers name it: bus << 8 | dev << 3 | fn. */
static inline u32 xhc_bdf(const struct xhc *hc)
{
	return (u32)hc->pci.bus << 8 | (u32)hc->pci.slot << 3 | hc->pci.func;
}
u32 xhc_rd(struct xhc *hc, u32 off);
void xhc_wr(struct xhc *hc, u32 off, u32 val);
void xhc_ring_db(struct xhc *hc, unsigned slot, unsigned target);
u64 xhc_phys(const struct xhc *hc, const void *p);
u64 xhc_dev_phys(const struct xhc_dev *d, const void *p);
/* A context @i (0: input control / slot ...) of a block, with the controller's size. */
u32 *xhc_ctx(const struct xhc *hc, u8 *base, unsigned i);

/* xhc_dev.c */
/*
 * Enumerate the device on root port @port: port reset, then
 * xhc_dev_enumerate() (a keyboard: configured in the boot protocol,
 * reports posted; a hub: the keyboards behind it).  Returns how many
 * keyboards (0: none there, its slot freed) or -errno.  Messages say what
 * was found.
 */
int xhc_dev_probe(struct xhc *hc, struct xhc_dev *d, unsigned port, struct xhc_dev *devs,
		  unsigned ndevs);
/*
 * The device @d describes (hc, port, hub_port, speed, parent and TT set):
 * Enable Slot, address, descriptors; a keyboard is set up, a hub's
 * keyboards are enumerated (xhc_hub.c).  Returns how many keyboards that
 * gave (0 or more), or -errno; on an error or none, @d's slot is freed
 * (a hub with keyboards, or whose status-change endpoint is read, keeps
 * its slot).
 */
int xhc_dev_enumerate(struct xhc_dev *d, struct xhc_dev *devs, unsigned ndevs);
/* One control transfer on @d's EP0, waited for: 0, -EKDB_EPIPE (stall), -errno. */
int xhc_dev_control(struct xhc_dev *d, struct xhc_dev *devs, unsigned ndevs, u8 type, u8 req,
		    u16 value, u16 index, u16 len, u64 data);
/* Configure @d as a hub of @ports ports in its slot context (Configure Endpoint). */
int xhc_dev_set_hub(struct xhc_dev *d, struct xhc_dev *devs, unsigned ndevs, u8 ports);
struct usb_boot_kbd;
/* Configure @d's interrupt IN endpoint @k (Configure Endpoint, its ring initialised). */
int xhc_dev_configure_int(struct xhc_dev *d, struct xhc_dev *devs, unsigned ndevs,
			  const struct usb_boot_kbd *k);
/* Post every report buffer of @d on its interrupt ring and ring its doorbell. */
void xhc_dev_post_all(struct xhc_dev *d);

/* xhc_hub.c */
/*
 * @d is a hub (addressed): configure it, power and reset its ports,
 * enumerate the devices there, then read its status-change endpoint.
 * How many keyboards (0: the hub is kept all the same when its endpoint
 * is read), or -errno.
 */
int xhc_hub_setup(struct xhc_dev *d, struct xhc_dev *devs, unsigned ndevs);
/* The ports hub @h named as changed (hub_changed): devices gone dropped, new ones enumerated. */
void xhc_hub_changed(struct xhc_dev *h, struct xhc_dev *devs, unsigned ndevs);

/*
 * xhc_poll.c: the keyboards of a set of controllers, polled: one
 * implementation for the early driver's static set (usbkbd.c) and the
 * running kernel's allocated one (kernel-glue/drivers/xhci_kbd.c).  The
 * caller serialises with xhc_set_trylock(); the device blocks it hands
 * out are those of @devs with a DMA block (mem set).
 */
struct xhc_set {
	struct xhc *hcs;
	unsigned n_hcs;
	struct xhc_dev *devs;
	unsigned n_devs;
	unsigned next_dev;		/* round robin over the keyboards' queues */
	int lock_word;
};

static inline bool xhc_set_trylock(struct xhc_set *s)
{
	return __atomic_exchange_n(&s->lock_word, 1, __ATOMIC_ACQUIRE) == 0;
}

static inline void xhc_set_unlock(struct xhc_set *s)
{
	__atomic_store_n(&s->lock_word, 0, __ATOMIC_RELEASE);
}

/* A started controller's root ports (after XHC_CONNECT_US): each device enumerated; keyboards found. */
unsigned xhc_set_probe_ports(struct xhc_set *s, struct xhc *hc);
/*
 * Ports of @hc whose status changed (hc->port_changed, and a hub's
 * hub_changed): unplugged devices dropped, new ones enumerated.
 */
void xhc_set_hotplug(struct xhc_set *s, struct xhc *hc);
/*
 * Events of every controller read, every keyboard serviced (recovery,
 * LEDs, repeat at @now_us), then one byte of the next keyboard that has
 * one: a byte, EKDB_CHAR_SYSRQ(key) or EKDB_NO_CHAR.  @hotplug: also act
 * on port changes (enumeration busy-waits: only where that may take a while).
 */
int xhc_set_getc(struct xhc_set *s, bool hotplug, u64 now_us);
/* Keyboards being read. */
unsigned xhc_set_count(const struct xhc_set *s);
/* Did a port of a controller or a hub of @s change (xhc_set_hotplug() has work)? */
bool xhc_set_port_changed(const struct xhc_set *s);
/*
 * The debugger leaves: bytes decoded and not read are dropped and no held
 * key repeats (Linux's kdb_kbd_cleanup_state(): nothing typed to kdb
 * reaches the kernel's console).
 */
void xhc_set_flush_input(struct xhc_set *s);

/* A report (or an error) came on @d's interrupt endpoint: TRB @trb. */
void xhc_dev_report(struct xhc_dev *d, u64 trb, u32 status, u64 now_us);
/* Keep @d going: an endpoint to recover, the LEDs to send, the key repeat. */
void xhc_dev_service(struct xhc_dev *d, struct xhc_dev *devs, unsigned ndevs, u64 now_us);
/* Forget the device (unplugged, released): its slot is disabled when @disable. */
void xhc_dev_drop(struct xhc_dev *d, struct xhc_dev *devs, unsigned ndevs, bool disable);
/* A decoded byte, EKDB_CHAR_SYSRQ(key), or EKDB_NO_CHAR. */
int xhc_dev_getc(struct xhc_dev *d);

#endif
