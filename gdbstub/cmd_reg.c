/* SPDX-License-Identifier: GPL-2.0 */
/* cmd_reg.c - register packets: g G p P, in the target description's order. */
#include "gdb_int.h"

/*
 * Read register @n into @buf.  Returns 0 (value valid), 1 (unavailable:
 * send "xx" per byte) or a negative error; *@size is the register size.
 */
static int reg_fetch(struct gdb_session *s, unsigned n, u8 *buf, size_t *size)
{
	int r;

	*size = 0;
	r = s->target->ops->reg_read(s->target, n, buf, size);
	if (*size == 0 || *size > GDB_REG_MAX_BYTES)
		return r < 0 ? r : -EKDB_EINVAL;
	if (r == -EKDB_ENOENT)
		return 1;
	return r < 0 ? r : 0;
}

static void tx_reg(struct gdb_session *s, const u8 *buf, size_t size, int avail)
{
	size_t i;

	if (avail == 0) {
		tx_hex(s, buf, size);
		return;
	}
	for (i = 0; i < 2 * size; i++)
		tx_char(s, 'x');
}

static unsigned reg_count(struct gdb_session *s)
{
	return s->target->ops->reg_count(s->target);
}

/** gdb_reg_layout - the target's packet layout, or "all in g, none expedited". */
void gdb_reg_layout(struct gdb_session *s, struct ekdb_reg_layout *l)
{
	unsigned count = reg_count(s);

	memset(l, 0, sizeof(*l));
	l->pc_regno = -1;
	if (s->target->ops->reg_layout)
		s->target->ops->reg_layout(s->target, l);
	if (!l->g_count || l->g_count > count)
		l->g_count = count;
	if (l->n_expedite > EKDB_EXPEDITE_MAX)
		l->n_expedite = EKDB_EXPEDITE_MAX;
	if (l->n_expedite_break > EKDB_EXPEDITE_MAX)
		l->n_expedite_break = EKDB_EXPEDITE_MAX;
	if (l->gprs > l->g_count)
		l->gprs = l->g_count;
}

/* Most registers a stop reply carries when the function changed. */
#define EKDB_GPRS_MAX	32

static void tx_expedite_list(struct gdb_session *s, const unsigned *regs, unsigned n)
{
	u8 buf[GDB_REG_MAX_BYTES];
	size_t size;
	unsigned i;

	for (i = 0; i < n; i++) {
		if (regs[i] >= reg_count(s) || regs[i] > 0xff || reg_fetch(s, regs[i], buf, &size))
			continue;
		tx_hex_u8(s, regs[i]);
		tx_char(s, ':');
		tx_hex(s, buf, size);
		tx_char(s, ';');
	}
}

/*
 * The function the selected thread is in: its start address (0 when the
 * target has no symbols or the pc is in none), and whether the pc is its
 * first instruction.
 */
static u64 pc_function(struct gdb_session *s, const struct ekdb_reg_layout *l, bool *entry)
{
	u8 buf[GDB_REG_MAX_BYTES];
	struct ksym sym;
	size_t size, i;
	u64 pc = 0;

	*entry = false;
	if (l->pc_regno < 0 || !s->target->ops->sym_by_addr ||
	    reg_fetch(s, (unsigned)l->pc_regno, buf, &size) || size > sizeof(pc))
		return 0;
	for (i = size; i--;)		/* target byte order: little-endian */
		pc = pc << 8 | buf[i];
	if (s->target->ops->sym_by_addr(s->target, pc, &sym) ||
	    (sym.type != 'T' && sym.type != 't'))
		return 0;
	*entry = sym.addr == pc;
	return sym.addr;
}

/**
 * gdb_tx_expedited - "NN:value;" for the registers gdb will need to show
 * this stop of the selected thread (struct ekdb_reg_layout says which),
 * as a stop reply's payload; a register that cannot be read is left out
 * (gdb then fetches it).  Remembers the stop's function for the next one.
 */
void gdb_tx_expedited(struct gdb_session *s, bool at_break)
{
	struct ekdb_reg_layout l;
	unsigned i, gprs[EKDB_GPRS_MAX];
	bool entry;
	u64 func;

	gdb_reg_layout(s, &l);
	func = pc_function(s, &l, &entry);
	if (l.gprs && !at_break && func && (entry || func != s->stop_func)) {
		for (i = 0; i < l.gprs && i < EKDB_GPRS_MAX; i++)
			gprs[i] = i;
		tx_expedite_list(s, gprs, i);
	} else {
		tx_expedite_list(s, l.expedite, l.n_expedite);
		if (at_break)
			tx_expedite_list(s, l.expedite_break, l.n_expedite_break);
	}
	s->stop_func = func;
}

/**
 * gdb_cmd_regs_read - "g": the registers a frame needs (the layout's
 * first g_count), "xx" for unavailable ones.  gdb reads the others with
 * 'p' (a short 'g' tells it they are not in the packet).
 */
void gdb_cmd_regs_read(struct gdb_session *s, const char *a, size_t len)
{
	u8 buf[GDB_REG_MAX_BYTES];
	struct ekdb_reg_layout l;
	unsigned n, count;
	size_t size;
	int r;

	if (*a)
		return tx_err(s, -EKDB_EINVAL);
	gdb_reg_layout(s, &l);
	count = l.g_count;
	for (n = 0; n < count; n++) {
		r = reg_fetch(s, n, buf, &size);
		if (r < 0) {
			s->outlen = 0;
			return tx_err(s, r);
		}
		tx_reg(s, buf, size, r);
	}
}

static bool all_x(const char *p, size_t n)
{
	while (n--)
		if (*p++ != 'x')
			return false;
	return true;
}

/*
 * Write one register from @hex (2 * size chars).  An all-'x' value or a
 * register the target cannot supply is skipped: gdb sends back what it
 * was given.
 */
static int reg_store(struct gdb_session *s, unsigned n, const char *hex, size_t size)
{
	u8 buf[GDB_REG_MAX_BYTES];

	if (all_x(hex, 2 * size))
		return 0;
	if (hex_decode(buf, hex, 2 * size) < 0)
		return -EKDB_EINVAL;
	return s->target->ops->reg_write(s->target, n, buf, size);
}

/*
 * Check a "G" payload without writing anything: every value whole and
 * valid hex, stopping at a register boundary, not longer than the file.
 */
static int regs_check(struct gdb_session *s, const char *a, size_t len)
{
	u8 buf[GDB_REG_MAX_BYTES];
	unsigned n, count = reg_count(s);
	size_t size;
	int r;

	if (!len || (len & 1))
		return -EKDB_EINVAL;
	for (n = 0; n < count && len; n++) {
		r = reg_fetch(s, n, buf, &size);
		if (r < 0)
			return r;
		if (len < 2 * size)
			return -EKDB_EINVAL;
		if (!all_x(a, 2 * size) && hex_decode(buf, a, 2 * size) < 0)
			return -EKDB_EINVAL;
		a += 2 * size;
		len -= 2 * size;
	}
	return len ? -EKDB_E2BIG : 0;
}

/**
 * gdb_cmd_regs_write - "G": registers in order; may stop at any register
 * boundary.  All or nothing: the whole payload is checked before the
 * first register is written.
 */
void gdb_cmd_regs_write(struct gdb_session *s, const char *a, size_t len)
{
	u8 buf[GDB_REG_MAX_BYTES];
	unsigned n, count = reg_count(s);
	size_t size;
	int r, err = regs_check(s, a, len);

	if (err)
		return tx_err(s, err);
	for (n = 0; n < count && len; n++) {
		r = reg_fetch(s, n, buf, &size);
		if (r < 0)
			return tx_err(s, r);
		r = reg_store(s, n, a, size);
		/* An unavailable register is not an error for a whole-file write. */
		if (r < 0 && !err && r != -EKDB_ENOENT && r != -EKDB_EPERM)
			err = r;
		a += 2 * size;
		len -= 2 * size;
	}
	if (err)
		return tx_err(s, err);
	tx_ok(s);
}

/** gdb_cmd_reg_read - "p n": one register by description number. */
void gdb_cmd_reg_read(struct gdb_session *s, const char *a, size_t len)
{
	u8 buf[GDB_REG_MAX_BYTES];
	size_t size;
	u64 n;
	int r;

	if (rx_hex(&a, &n) || *a)
		return tx_err(s, -EKDB_EINVAL);
	if (n >= reg_count(s))
		return tx_err(s, -EKDB_EINVAL);
	r = reg_fetch(s, (unsigned)n, buf, &size);
	if (r < 0)
		return tx_err(s, r);
	tx_reg(s, buf, size, r);
}

/** gdb_cmd_reg_write - "P n=value": the value must be exactly the register's size. */
void gdb_cmd_reg_write(struct gdb_session *s, const char *a, size_t len)
{
	u8 buf[GDB_REG_MAX_BYTES];
	size_t size;
	u64 n;
	int r;

	if (rx_hex(&a, &n) || !rx_char(&a, '='))
		return tx_err(s, -EKDB_EINVAL);
	if (n >= reg_count(s))
		return tx_err(s, -EKDB_EINVAL);
	r = reg_fetch(s, (unsigned)n, buf, &size);
	if (r < 0)
		return tx_err(s, r);
	if (strlen(a) != 2 * size)
		return tx_err(s, -EKDB_EINVAL);
	if (all_x(a, 2 * size))
		return tx_ok(s);
	r = reg_store(s, (unsigned)n, a, size);
	if (r < 0)
		return tx_err(s, r);
	tx_ok(s);
}
