/* SPDX-License-Identifier: GPL-2.0 */
/* xhci_mock.c - see xhci_mock.h. */
#include <string.h>
#include "xhci_mock.h"
#include "../../io/xhci-kbd/xhc.h"

struct xhci_mock mock;

#define OP		0x20
#define RT		0x600
#define DB		0x800
#define CTX		32

static struct {
	u32 usbcmd, usbsts, config, portsc, crcr_lo, erstba_lo;
	u64 cmd_deq;
	u8 cmd_cycle;
	struct xhci_trb *evt;
	unsigned evt_n, evt_enq;
	u8 evt_cycle;
	u8 slot, int_dci;
	struct { u64 deq; u8 cycle; bool halted; } ep[32];
} hw;

static const u8 dev_desc[18] = { 18, 1, 0x10, 0x01, 0, 0, 0, 8, 0x27, 0x06, 0x01, 0, 0, 0, 1, 2, 3, 1 };
static const u8 cfg_desc[34] = {
	9, 2, 34, 0, 1, 1, 0, 0xa0, 50,
	9, 4, 0, 0, 1, 3, 1, 1, 0,
	9, 0x21, 0x11, 0x01, 0, 1, 0x22, 63, 0,
	7, 5, 0x81, 3, 8, 0, 10,
};

void xhci_mock_reset(void)
{
	memset(&hw, 0, sizeof(hw));
	memset(&mock, 0, sizeof(mock));
	mock.present = true;
	mock.protocol = 0xff;
	hw.usbsts = STS_HCH;
	hw.portsc = PORT_CCS | PORT_PP | (1u << 10);	/* full speed */
}

static void event(u64 param, u32 status, u32 ctrl)
{
	struct xhci_trb *t = &hw.evt[hw.evt_enq];

	t->param = param;
	t->status = status;
	t->ctrl = (ctrl & ~TRB_C) | hw.evt_cycle;
	if (++hw.evt_enq == hw.evt_n) {
		hw.evt_enq = 0;
		hw.evt_cycle ^= 1;
	}
}

/* The next TRB the producer handed over on a ring (Link TRBs followed), or NULL. */
static struct xhci_trb *next_trb(u64 *deq, u8 *cycle)
{
	for (int i = 0; i < 4; i++) {
		struct xhci_trb *t = (struct xhci_trb *)(uintptr_t)*deq;

		if ((t->ctrl & TRB_C) != *cycle)
			return NULL;
		if (TRB_GET_TYPE(t->ctrl) != TRB_LINK) {
			*deq += sizeof(*t);
			return t;
		}
		if (t->ctrl & TRB_TC)
			*cycle ^= 1;
		*deq = t->param;
	}
	return NULL;
}

static void ep_from_ctx(unsigned dci, const u32 *ctx)
{
	u64 deq = ctx[2] | (u64)ctx[3] << 32;

	hw.ep[dci].deq = deq & ~0xfULL;
	hw.ep[dci].cycle = deq & 1;
	hw.ep[dci].halted = false;
}

static u8 command(const struct xhci_trb *t, u8 *slot)
{
	const u32 *ictx = (const u32 *)(uintptr_t)t->param;
	unsigned dci = (t->ctrl >> 16) & 0x1f;

	*slot = (u8)TRB_GET_SLOT(t->ctrl);
	switch (TRB_GET_TYPE(t->ctrl)) {
	case TRB_ENABLE_SLOT:
		*slot = hw.slot = 1;
		return CC_SUCCESS;
	case TRB_DISABLE_SLOT:
		mock.disabled_slots++;
		hw.slot = 0;
		return CC_SUCCESS;
	case TRB_ADDRESS_DEV:
		ep_from_ctx(1, ictx + 2 * CTX / 4);
		return CC_SUCCESS;
	case TRB_CONFIG_EP:
		for (unsigned i = 2; i < 32; i++)
			if (ictx[1] & (1u << i)) {
				ep_from_ctx(i, ictx + (i + 1) * CTX / 4);
				hw.int_dci = (u8)i;
			}
		return CC_SUCCESS;
	case TRB_EVAL_CTX:
	case 15:				/* Stop Endpoint */
		return CC_SUCCESS;
	case TRB_RESET_EP:
		mock.reset_eps++;
		if (!hw.ep[dci].halted)
			return 19;		/* Context State Error */
		hw.ep[dci].halted = false;
		return CC_SUCCESS;
	case TRB_SET_TR_DEQ:
		hw.ep[dci].deq = t->param & ~0xfULL;
		hw.ep[dci].cycle = t->param & 1;
		mock.set_deqs++;
		return CC_SUCCESS;
	}
	return 5;				/* TRB Error */
}

static void commands(void)
{
	struct xhci_trb *t;

	while ((t = next_trb(&hw.cmd_deq, &hw.cmd_cycle))) {
		u8 slot, cc = command(t, &slot);

		event((u64)(uintptr_t)t, (u32)cc << 24, TRB_TYPE(TRB_CMD_DONE) | TRB_SLOT(slot));
	}
}

static void control(void)
{
	struct xhci_trb *setup;

	if (hw.ep[1].halted)
		return;
	while ((setup = next_trb(&hw.ep[1].deq, &hw.ep[1].cycle))) {
		u8 type = (u8)setup->param, req = (u8)(setup->param >> 8);
		u16 value = (u16)(setup->param >> 16), len = (u16)(setup->param >> 48);
		struct xhci_trb *data = NULL, *status;
		u8 *buf;

		if (len)
			data = next_trb(&hw.ep[1].deq, &hw.ep[1].cycle);
		status = next_trb(&hw.ep[1].deq, &hw.ep[1].cycle);
		mock.requests++;
		if (mock.unplug_at && (int)mock.requests >= mock.unplug_at)
			xhci_mock_unplug();
		if (!mock.present || !status) {		/* no answer on the wire: Transaction Error */
			hw.ep[1].halted = true;
			event((u64)(uintptr_t)setup, 4u << 24, TRB_TYPE(TRB_TRANSFER) | TRB_SLOT(hw.slot) | TRB_EP(1));
			return;
		}
		if (req == mock.stall_req) {
			hw.ep[1].halted = true;
			event((u64)(uintptr_t)status, (u32)CC_STALL << 24,
			      TRB_TYPE(TRB_TRANSFER) | TRB_SLOT(hw.slot) | TRB_EP(1));
			return;
		}
		buf = data ? (u8 *)(uintptr_t)data->param : NULL;
		if (type == 0x80 && req == 6 && buf)
			memcpy(buf, value >> 8 == 1 ? dev_desc : cfg_desc,
			       MIN(len, (u16)(value >> 8 == 1 ? sizeof(dev_desc) : sizeof(cfg_desc))));
		if (type == 0x21 && req == 0x0b)
			mock.protocol = (u8)value;
		if (type == 0x21 && req == 0x09 && buf) {
			mock.leds = buf[0];
			mock.led_reports++;
		}
		event((u64)(uintptr_t)status, (u32)CC_SUCCESS << 24,
		      TRB_TYPE(TRB_TRANSFER) | TRB_SLOT(hw.slot) | TRB_EP(1));
	}
}

bool xhci_mock_report(const u8 *r, unsigned len)
{
	struct xhci_trb *t;

	if (!hw.int_dci || hw.ep[hw.int_dci].halted ||
	    !(t = next_trb(&hw.ep[hw.int_dci].deq, &hw.ep[hw.int_dci].cycle)))
		return false;
	memcpy((void *)(uintptr_t)t->param, r, len);
	event((u64)(uintptr_t)t, (u32)(len < (t->status & 0x1ffff) ? CC_SHORT_PACKET : CC_SUCCESS) << 24 | ((t->status & 0x1ffff) - len),
	      TRB_TYPE(TRB_TRANSFER) | TRB_SLOT(hw.slot) | TRB_EP(hw.int_dci));
	return true;
}

void xhci_mock_unplug(void)
{
	mock.present = false;
	hw.portsc = PORT_PP | PORT_CSC;
}

void xhci_mock_plug(void)
{
	mock.present = true;
	hw.int_dci = 0;
	hw.portsc = PORT_CCS | PORT_PP | PORT_CSC | (1u << 10);
}

bool xhci_mock_int_stall(void)
{
	struct xhci_trb *t;

	if (!hw.int_dci || !(t = next_trb(&hw.ep[hw.int_dci].deq, &hw.ep[hw.int_dci].cycle)))
		return false;
	hw.ep[hw.int_dci].halted = true;
	event((u64)(uintptr_t)t, (u32)CC_STALL << 24,
	      TRB_TYPE(TRB_TRANSFER) | TRB_SLOT(hw.slot) | TRB_EP(hw.int_dci));
	return true;
}

u32 xhci_mmio_read(struct xhci_pci *p, u32 off)
{
	switch (off) {
	case XHCI_CAPLENGTH: return OP | 0x0100u << 16;
	case XHCI_HCSPARAMS1: return 8u | 2u << 24;	/* 8 slots, 2 ports */
	case XHCI_HCSPARAMS2: case XHCI_HCCPARAMS1: return 0;
	case XHCI_DBOFF: return DB;
	case XHCI_RTSOFF: return RT;
	case OP + XHCI_USBCMD: return hw.usbcmd;
	case OP + XHCI_USBSTS: return hw.usbsts;
	case OP + XHCI_PAGESIZE: return 1;
	case OP + XHCI_CONFIG: return hw.config;
	case OP + XHCI_PORTSC(1): return hw.portsc;
	case OP + XHCI_PORTSC(2): return PORT_PP;
	}
	return 0;
}

void xhci_mmio_write(struct xhci_pci *p, u32 off, u32 val)
{
	switch (off) {
	case OP + XHCI_USBCMD:
		if (val & CMD_HCRST) {
			hw.usbcmd = 0;
			hw.usbsts = STS_HCH;
			return;
		}
		hw.usbcmd = val;
		hw.usbsts = val & CMD_RUN ? hw.usbsts & ~STS_HCH : hw.usbsts | STS_HCH;
		return;
	case OP + XHCI_CONFIG: hw.config = val; return;
	case OP + XHCI_CRCR: hw.crcr_lo = val; return;
	case OP + XHCI_CRCR + 4:
		hw.cmd_deq = (hw.crcr_lo & ~0x3fULL) | (u64)val << 32;
		hw.cmd_cycle = hw.crcr_lo & 1;
		return;
	case RT + XHCI_ERSTBA: hw.erstba_lo = val; return;
	case RT + XHCI_ERSTBA + 4: {
		const struct xhci_erst_entry *e =
			(const struct xhci_erst_entry *)(uintptr_t)(hw.erstba_lo | (u64)val << 32);

		hw.evt = (struct xhci_trb *)(uintptr_t)e->base;
		hw.evt_n = e->size;
		hw.evt_enq = 0;
		hw.evt_cycle = 1;
		return;
	}
	case OP + XHCI_PORTSC(1):
		if ((val & PORT_PR) && mock.present)
			hw.portsc |= PORT_PED | PORT_PRC;
		hw.portsc &= ~(val & PORT_CHANGES);
		return;
	}
	if (off == DB)
		commands();
	else if (off == DB + 4u * hw.slot && val == 1)
		control();
}

int xhci_mock_start(struct xhc *hc, struct xhc_mem *mem, struct xhc_dev *devs,
		    struct xhc_dev_mem *dmem, unsigned n)
{
	u64 scratch = 0;
	unsigned left = 0;

	xhci_mock_reset();
	memset(hc, 0, sizeof(*hc));
	memset(devs, 0, n * sizeof(*devs));
	strcpy(hc->name, "mock");
	hc->mem = mem;
	hc->mem_phys = (u64)(uintptr_t)mem;
	for (unsigned i = 0; i < n; i++) {
		devs[i].mem = &dmem[i];
		devs[i].mem_phys = (u64)(uintptr_t)&dmem[i];
	}
	return xhc_start(hc, &scratch, &left);
}
