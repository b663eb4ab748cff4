/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dbgp_takeover.c - the debug device's state in the handoff record
 * (struct ekdb_transport_state): what the running kernel's driver needs
 * to go on talking to the device without enumerating it again (its PCI
 * location and registers, the root port, the device's address and
 * endpoints, the next data toggle of each bulk endpoint) and the bytes
 * received but not read yet.  Pure: no hardware, no storage.
 */
#include "dbgp.h"
#include <ekdb/errno.h>
#include <ekdb/string.h>
#include <ekdb/transport.h>

void dbgp_state_export(const struct dbgp_state *s, struct ekdb_transport_state *st)
{
	unsigned n = 0;

	st->kind = EKDB_TRANSPORT_DBGP;
	st->u.dbgp.pci_bdf = (u32)s->bus << 8 | (u32)s->slot << 3 | s->func;
	st->u.dbgp.regs_phys = s->bar_phys + s->dbgp_off;
	st->u.dbgp.devnum = s->devnum;
	st->u.dbgp.ep_out = s->ep_out;
	st->u.dbgp.ep_in = s->ep_in;
	st->u.dbgp.toggle_out = s->tog_out;
	st->u.dbgp.toggle_in = s->tog_in;
	st->u.dbgp.port = s->port;
	for (unsigned i = s->pending_pos; i < s->pending_len && i < DBGP_MAXP; i++)
		st->pending[n++] = s->pending[i];
	st->npending = n;
}

int dbgp_state_import(const struct ekdb_transport_state *st, u64 bar_phys, u32 dbgp_off,
		      u32 op_off, struct dbgp_state *out)
{
	const typeof(st->u.dbgp) *u = &st->u.dbgp;
	struct dbgp_state s;

	if (st->kind != EKDB_TRANSPORT_DBGP || u->pci_bdf > 0xffff)
		return -EKDB_EINVAL;
	if (!u->devnum || u->devnum > 127 || !u->ep_out || u->ep_out > 15 || !u->ep_in ||
	    u->ep_in > 15 || u->toggle_out > 1 || u->toggle_in > 1 || !u->port || u->port > 15)
		return -EKDB_EINVAL;
	if (st->npending > DBGP_MAXP)
		return -EKDB_EINVAL;
	if (!bar_phys || u->regs_phys != bar_phys + dbgp_off)
		return -EKDB_ENODEV;	/* not the registers this driver found */
	memset(&s, 0, sizeof(s));
	s.magic = DBGP_STATE_MAGIC;
	s.bus = (u8)(u->pci_bdf >> 8);
	s.slot = (u8)((u->pci_bdf >> 3) & 0x1f);
	s.func = (u8)(u->pci_bdf & 7);
	s.port = u->port;
	s.bar_phys = bar_phys;
	s.op_off = op_off;
	s.dbgp_off = dbgp_off;
	s.devnum = u->devnum;
	s.ep_out = u->ep_out;
	s.ep_in = u->ep_in;
	s.tog_out = u->toggle_out;
	s.tog_in = u->toggle_in;
	memcpy(s.pending, st->pending, st->npending);
	s.pending_len = (u8)st->npending;
	*out = s;
	return 0;
}
