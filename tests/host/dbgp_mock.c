/* SPDX-License-Identifier: GPL-2.0 */
/* dbgp_mock.c - see dbgp_mock.h. */
#include "dbgp_mock.h"
#include <string.h>

#define DBGP_EXC(x)	((u32)(x) << 7)

static struct dbgp_mock *of(struct dbgp_io *io)
{
	return io->priv;
}

static u8 toggle_pid(u8 t)
{
	return t ? USB_PID_DATA1 : USB_PID_DATA0;
}

static void bus_reset(struct dbgp_mock *m)
{
	m->address = 0;
	m->debug_mode = false;
	m->ctl_stage = 0;
	m->tog_out = m->tog_in = 0;
	m->in_pending = false;
}

/* ------------------------------------------------------------ device */
static int dev_setup(struct dbgp_mock *m, const u8 *s)
{
	static const u8 debug_desc[4] = { 4, 10, 0x82, 0x01 };
	u16 len = (u16)(s[6] | s[7] << 8);

	m->setups++;
	m->ctl_reqtype = s[0];
	m->ctl_req = s[1];
	m->ctl_value = (u16)(s[2] | s[3] << 8);
	m->ctl_index = (u16)(s[4] | s[5] << 8);
	m->ctl_in = s[0] & 0x80;
	m->ctl_stall = false;
	m->ctl_toggle = 1;
	m->ctl_pos = 0;
	m->ctl_len = 0;
	m->ctl_stage = m->ctl_in ? 1 : 2;
	if (s[0] == 0x80 && s[1] == 6 && m->ctl_value == 10 << 8) {
		m->ctl_len = len < 4 ? len : 4;
		memcpy(m->ctl_data, debug_desc, 4);
	} else if (s[0] == 0 && (s[1] == 5 || (s[1] == 3 && m->ctl_value == 6))) {
		/* SET_ADDRESS, SET_FEATURE(DEBUG_MODE): applied at the status stage */
	} else if (s[0] == 2 && s[1] == 1 && m->ctl_value == 0) {
		/* CLEAR_FEATURE(ENDPOINT_HALT) */
	} else {
		m->ctl_stall = true;
	}
	return USB_PID_ACK;
}

static void ctl_status_done(struct dbgp_mock *m)
{
	m->status_stages++;
	m->ctl_stage = 0;
	if (m->ctl_reqtype == 0 && m->ctl_req == 5) {
		m->address = (u8)m->ctl_value;
		m->enumerations++;
	} else if (m->ctl_reqtype == 0 && m->ctl_req == 3) {
		m->debug_mode = true;
	} else if (m->ctl_reqtype == 2 && m->ctl_req == 1) {
		if (m->ctl_index & 0x80) {
			m->tog_in = 0;
			m->in_pending = false;
		} else {
			m->tog_out = 0;
		}
	}
}

static int dev_control(struct dbgp_mock *m, u8 token, u8 send_pid, unsigned len, u8 *rdata,
		       unsigned *rlen)
{
	if (token == USB_PID_SETUP)
		return len == 8 && send_pid == USB_PID_DATA0 ? dev_setup(m, m->data) : -1;
	if (!m->ctl_stage || m->ctl_stall)
		return USB_PID_STALL;
	if (m->ctl_stage == 1 && token == USB_PID_IN) {
		unsigned n = m->ctl_len - m->ctl_pos;
		u8 pid = toggle_pid(m->ctl_toggle);

		n = n > 8 ? 8 : n;
		memcpy(rdata, m->ctl_data + m->ctl_pos, n);
		*rlen = n;
		m->ctl_pos += n;
		m->ctl_toggle ^= 1;
		if (n < 8 || m->ctl_pos >= m->ctl_len)
			m->ctl_stage = 2;
		return pid;
	}
	/* status: the direction opposite to the data stage, DATA1, empty */
	if (m->ctl_in ? token != USB_PID_OUT : token != USB_PID_IN)
		return USB_PID_STALL;
	if (token == USB_PID_OUT && (len || send_pid != USB_PID_DATA1))
		return USB_PID_STALL;
	ctl_status_done(m);
	*rlen = 0;
	return token == USB_PID_IN ? USB_PID_DATA1 : USB_PID_ACK;
}

static int dev_transact(struct dbgp_mock *m, u8 token, u8 devnum, u8 ep, u8 send_pid,
			unsigned len, u8 *rdata, unsigned *rlen)
{
	if (m->gone || !m->connected || devnum != m->address)
		return -1;
	if (ep == 0)
		return dev_control(m, token, send_pid, len, rdata, rlen);
	if (!m->debug_mode || m->stall_bulk)
		return USB_PID_STALL;
	if (token == USB_PID_OUT && ep == 1) {
		m->last_out_pid = send_pid;
		if (m->nak_out) {
			m->nak_out--;
			return USB_PID_NAK;
		}
		if (send_pid != toggle_pid(m->tog_out)) {
			m->dup_out++;
			return USB_PID_ACK;		/* a repeat: acknowledged, dropped */
		}
		memcpy(m->out + m->out_len, m->data, len);
		m->out_len += len;
		m->tog_out ^= 1;
		if (m->lose_out_ack) {
			m->lose_out_ack--;
			return -1;
		}
		return USB_PID_ACK;
	}
	if (token == USB_PID_IN && ep == 2) {
		u8 pid;

		if (m->nak_in) {
			m->nak_in--;
			return USB_PID_NAK;
		}
		if (!m->in_pending) {
			unsigned n = m->in_len - m->in_pos;

			if (!n)
				return USB_PID_NAK;
			n = n > 8 ? 8 : n;
			memcpy(m->in_pkt, m->in + m->in_pos, n);
			m->in_pkt_len = n;
			m->in_pos += n;
			m->in_pending = true;
		}
		pid = toggle_pid(m->tog_in);
		memcpy(rdata, m->in_pkt, m->in_pkt_len);
		*rlen = m->in_pkt_len;
		if (m->lose_in_ack) {
			m->lose_in_ack--;
			m->dup_in++;
			return pid;
		}
		m->in_pending = false;
		m->tog_in ^= 1;
		return pid;
	}
	return USB_PID_STALL;
}

/* ------------------------------------------------------------ debug port */
static void go(struct dbgp_mock *m)
{
	u8 token = m->pids & 0xff, send_pid = (m->pids >> 8) & 0xff, rdata[8];
	unsigned len = DBGP_LEN(m->ctrl), rlen = 0;
	int pid;

	m->txns++;
	m->ctrl &= ~(DBGP_ERROR | DBGP_EXC(7) | DBGP_DONE);
	if (m->done_never)
		return;
	if ((m->ctrl & (DBGP_OWNER | DBGP_ENABLED)) != (DBGP_OWNER | DBGP_ENABLED) ||
	    !(m->cmd & CMD_RUN)) {
		m->ctrl |= DBGP_ERROR | DBGP_EXC(2) | DBGP_DONE;
		return;
	}
	if (m->timeout) {
		m->timeout--;
		pid = -1;
	} else {
		pid = dev_transact(m, token, (m->addr >> 8) & 0x7f, m->addr & 0xf, send_pid, len,
				   rdata, &rlen);
	}
	if (pid < 0) {
		m->ctrl |= DBGP_ERROR | DBGP_EXC(1) | DBGP_DONE;
		return;
	}
	m->pids = (m->pids & 0xffff) | (u32)pid << 16;
	if (token == USB_PID_IN) {
		m->ctrl = (m->ctrl & ~0xfu) | rlen;
		memcpy(m->data, rdata, rlen);
	}
	m->ctrl |= DBGP_DONE;
}

static u32 mock_read(struct dbgp_io *io, u32 off)
{
	struct dbgp_mock *m = of(io);

	switch (off) {
	case EHCI_CAPLENGTH: return MOCK_OP | 0x01000000;
	case EHCI_HCSPARAMS: return 4 | MOCK_PORT << 20;
	case EHCI_HCCPARAMS: return 0;
	case MOCK_OP + EHCI_USBCMD: return m->cmd;
	case MOCK_OP + EHCI_USBSTS:
		return (m->cmd & CMD_RUN ? 0 : STS_HALT) | (m->cmd & CMD_PSE ? STS_PSS : 0) |
		       (m->cmd & CMD_ASE ? STS_ASS : 0);
	case MOCK_OP + EHCI_CONFIGFLAG: return m->configflag;
	case MOCK_DBGP + DBGP_CTRL: return m->ctrl;
	case MOCK_DBGP + DBGP_PIDS: return m->pids;
	case MOCK_DBGP + DBGP_DATA: return (u32)m->data[0] | (u32)m->data[1] << 8 |
					    (u32)m->data[2] << 16 | (u32)m->data[3] << 24;
	case MOCK_DBGP + DBGP_DATA + 4: return (u32)m->data[4] | (u32)m->data[5] << 8 |
						(u32)m->data[6] << 16 | (u32)m->data[7] << 24;
	case MOCK_DBGP + DBGP_ADDR: return m->addr;
	}
	if (off >= MOCK_OP + EHCI_PORTSC(1) && off <= MOCK_OP + EHCI_PORTSC(4))
		return m->portsc[(off - MOCK_OP - EHCI_PORTSC(1)) / 4];
	return 0;
}

static void write_portsc(struct dbgp_mock *m, unsigned i, u32 v)
{
	u32 p = m->portsc[i];

	p &= ~(v & PORT_RWC);
	if (!(v & PORT_PE))
		p &= ~PORT_PE;
	if ((v & PORT_PR) && !(p & PORT_PR)) {
		p = (p | PORT_PR) & ~PORT_PE;
		if (i + 1 == MOCK_PORT) {
			m->port_resets++;
			bus_reset(m);
		}
	} else if (!(v & PORT_PR) && (p & PORT_PR)) {
		p &= ~PORT_PR;
		if (i + 1 == MOCK_PORT && m->connected && !m->full_speed && m->configflag)
			p |= PORT_PE;
	}
	m->portsc[i] = p;
}

static void mock_write(struct dbgp_io *io, u32 off, u32 v)
{
	struct dbgp_mock *m = of(io);

	switch (off) {
	case MOCK_OP + EHCI_USBCMD:
		if (v & CMD_HCRESET) {
			m->hcresets++;
			m->cmd = 0;
			m->configflag = 0;
			if (m->hcreset_drops_port && (m->ctrl & DBGP_ENABLED)) {
				m->ctrl &= ~(DBGP_ENABLED | DBGP_OWNER);
				bus_reset(m);
			}
			return;
		}
		m->cmd = v;
		return;
	case MOCK_OP + EHCI_CONFIGFLAG: m->configflag = v & 1; return;
	case MOCK_DBGP + DBGP_CTRL: {
		u32 c = m->ctrl;

		if (v & DBGP_DONE)
			c &= ~DBGP_DONE;
		c = (c & ~(DBGP_OWNER | DBGP_INUSE | DBGP_OUT | 0xfu)) |
		    (v & (DBGP_OWNER | DBGP_INUSE | DBGP_OUT | 0xfu));
		if (!(v & DBGP_ENABLED))
			c &= ~DBGP_ENABLED;
		else if (m->connected && ((m->portsc[MOCK_PORT - 1] & PORT_PE) || (c & DBGP_ENABLED)))
			c |= DBGP_ENABLED;
		m->ctrl = c;
		if (v & DBGP_GO)
			go(m);
		return;
	}
	case MOCK_DBGP + DBGP_PIDS: m->pids = (m->pids & 0xff0000) | (v & 0xffff); return;
	case MOCK_DBGP + DBGP_DATA:
	case MOCK_DBGP + DBGP_DATA + 4:
		for (int i = 0; i < 4; i++)
			m->data[off - MOCK_DBGP - DBGP_DATA + (u32)i] = (u8)(v >> (8 * i));
		return;
	case MOCK_DBGP + DBGP_ADDR: m->addr = v & 0x7f0f; return;
	}
	if (off >= MOCK_OP + EHCI_PORTSC(1) && off <= MOCK_OP + EHCI_PORTSC(4))
		write_portsc(m, (off - MOCK_OP - EHCI_PORTSC(1)) / 4, v);
}

static u64 mock_now(struct dbgp_io *io)
{
	return of(io)->clock_us += 10;
}

void dbgp_mock_init(struct dbgp_mock *m)
{
	memset(m, 0, sizeof(*m));
	m->io.read = mock_read;
	m->io.write = mock_write;
	m->io.now_us = mock_now;
	m->io.priv = m;
	m->connected = true;
	for (int i = 0; i < 4; i++)
		m->portsc[i] = PORT_PP | PORT_PO;
	m->portsc[MOCK_PORT - 1] |= PORT_CCS;
}

void dbgp_mock_dev_init(struct dbgp_mock *m, struct dbgp_dev *d)
{
	memset(d, 0, sizeof(*d));
	d->io = &m->io;
	d->st.op_off = MOCK_OP;
	d->st.dbgp_off = MOCK_DBGP;
	d->st.port = MOCK_PORT;
}

void dbgp_mock_feed(struct dbgp_mock *m, const char *s)
{
	size_t n = strlen(s);

	memcpy(m->in + m->in_len, s, n);
	m->in_len += (unsigned)n;
}
