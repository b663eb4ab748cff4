/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dbgp_transport.c - the one USB debug device as the early console
 * (earlyprintk=dbgp[N][,keep]) and as a debugger transport
 * (kgdbdbgp=N[,secs]), sharing the port the way both share a serial line.
 *
 * Output is gathered into 8-byte packets (flushed when full, on flush,
 * and before every read); input keeps the unread part of the last packet.
 * One IN transaction per getc: no retry loop (a NAK is "no byte now").
 * While the kernel runs (outside the debugger) the port is read at most
 * every poll_secs seconds, never when it is 0.
 *
 * A device that stops answering is "gone": output is dropped, and at most
 * once a second, when the port shows a device again, it is brought up
 * anew.  Messages about it are printed from getc/putc (never from inside
 * printk's console callback).  Static storage only.
 */
#include "ehci_dbgp.h"
#include "dbgp.h"
#include "dbgp_pci.h"
#include <kernel/printk.h>
#include <asm/processor.h>
#include <asm/tsc_early.h>
#include <ekdb/errno.h>
#include <ekdb/string.h>

#define RETRY_US	1000000ULL	/* a gone device is looked for this often */
#define LOCK_SPINS	10000000UL

static struct dbgp_dev dbgp;
static bool dbgp_ready;			/* set up (found, mapped, enumerated once) */
static bool dbgp_gone;			/* stopped answering */
static int dbgp_index = -1;
static int dbgp_init_err;
static u64 retry_at, poll_at;
static unsigned poll_secs;
static bool in_debugger;
static bool console_keep;
static u8 outbuf[DBGP_MAXP];
static unsigned outlen;
static int lock_word;
static const char *note;		/* a message waiting to be printed */
static int note_err;

static bool dbgp_lock(void)
{
	for (unsigned long i = 0; i < LOCK_SPINS; i++) {
		if (!__atomic_exchange_n(&lock_word, 1, __ATOMIC_ACQUIRE))
			return true;
		cpu_relax();
	}
	return false;
}

static void dbgp_unlock(void)
{
	__atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE);
}

static u64 now_us(void)
{
	return dbgp.io->now_us(dbgp.io);
}

static void print_note(void)
{
	const char *n = note;

	if (!n)
		return;
	note = NULL;
	if (note_err)
		pr_warn("dbgp: %s (%s)\n", n, ekdb_strerror(note_err));
	else
		pr_notice("dbgp: %s\n", n);
}

static void set_gone(int err)
{
	if (dbgp_gone)
		return;
	dbgp_gone = true;
	outlen = 0;
	retry_at = now_us() + RETRY_US;
	note = "debug device not answering: output dropped until it is back";
	note_err = err;
}

/* A gone device: look again (rate-limited); true when it is back. */
static bool try_revive(void)
{
	u32 portsc;
	bool reused;
	int r;

	if (now_us() < retry_at)
		return false;
	retry_at = now_us() + RETRY_US;
	portsc = dbgp.io->read(dbgp.io, dbgp.st.op_off + EHCI_PORTSC(dbgp.st.port));
	if (!(portsc & PORT_CCS))
		return false;
	r = dbgp_bring_up(&dbgp, &reused);
	if (r)
		return false;
	dbgp_gone = false;
	dbgp.st.pending_len = dbgp.st.pending_pos = 0;
	note = "debug device back, enumerated again";
	note_err = 0;
	return true;
}

static bool usable(void)
{
	return dbgp_ready && (!dbgp_gone || try_revive());
}

static void flush_locked(void)
{
	int r;

	if (!outlen || !usable())
		return;
	r = dbgp_bulk_write(&dbgp, outbuf, outlen);
	outlen = 0;
	if (r < 0 && r != -EKDB_EAGAIN)
		set_gone(r);		/* EAGAIN: nobody reads the other side; dropped */
}

static void put_locked(u8 c)
{
	outbuf[outlen++] = c;
	if (outlen == DBGP_MAXP)
		flush_locked();
}

/* ------------------------------------------------------------ transport */
static int dbgp_t_getc(struct ekdb_transport *t)
{
	int c = EKDB_NO_CHAR, n;

	print_note();
	if (!in_debugger) {
		if (!poll_secs || now_us() < poll_at)
			return EKDB_NO_CHAR;
		poll_at = now_us() + poll_secs * 1000000ULL;
	}
	if (!dbgp_lock())
		return EKDB_NO_CHAR;
	flush_locked();
	if (dbgp.st.pending_pos >= dbgp.st.pending_len && usable()) {
		n = dbgp_bulk_read(&dbgp, dbgp.st.pending, sizeof(dbgp.st.pending));
		if (n < 0)
			set_gone(n);
		dbgp.st.pending_len = (u8)(n > 0 ? n : 0);
		dbgp.st.pending_pos = 0;
	}
	if (dbgp.st.pending_pos < dbgp.st.pending_len)
		c = dbgp.st.pending[dbgp.st.pending_pos++];
	dbgp_unlock();
	return c;
}

static void dbgp_t_putc(struct ekdb_transport *t, u8 c)
{
	if (!dbgp_lock())
		return;
	put_locked(c);
	dbgp_unlock();
}

static void dbgp_t_flush(struct ekdb_transport *t)
{
	if (!dbgp_lock())
		return;
	flush_locked();
	dbgp_unlock();
	print_note();
}

static void dbgp_t_pre(struct ekdb_transport *t)
{
	in_debugger = true;
}

static void dbgp_t_post(struct ekdb_transport *t)
{
	dbgp_t_flush(t);
	in_debugger = false;
	poll_at = now_us() + poll_secs * 1000000ULL;
}

static char dbgp_name[8] = "dbgp0";

static struct ekdb_transport dbgp_transport = {
	.name = dbgp_name,
	.getc = dbgp_t_getc,
	.putc = dbgp_t_putc,
	.flush = dbgp_t_flush,
	.pre_exception = dbgp_t_pre,
	.post_exception = dbgp_t_post,
};

/* ------------------------------------------------------------ console */
static void dbgp_console_write(struct console *con, const char *s, size_t len)
{
	if (!dbgp_lock())
		return;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\n')
			put_locked('\r');
		put_locked((u8)s[i]);
	}
	flush_locked();
	dbgp_unlock();
}

static struct console dbgp_console = {
	.name = "earlydbg",
	.write = dbgp_console_write,
	.replay = true,
};

/* ------------------------------------------------------------ bring-up */
static int dbgp_setup(unsigned index)
{
	unsigned n_ehci, n_dbgp;
	bool reused;
	u32 hcs;
	int cap, r;
	u64 t0;

	if (dbgp_index >= 0)
		return (unsigned)dbgp_index == index ? dbgp_init_err : -EKDB_EBUSY;
	dbgp_index = (int)index;
	dbgp_name[4] = (char)('0' + index % 10);
	early_tsc_khz();			/* calibrate the clock first (PIT, ~30 ms) */
	t0 = early_now_us();
	cap = dbgp_pci_find(index, &dbgp.st, &n_ehci, &n_dbgp);
	if (cap < 0) {
		pr_err("dbgp: no EHCI debug port %u (%u EHCI controller%s, %u with a debug port)\n",
		       index, n_ehci, n_ehci == 1 ? "" : "s", n_dbgp);
		return dbgp_init_err = cap;
	}
	r = dbgp_pci_setup(&dbgp.st, (u8)cap);
	if (!r) {
		dbgp.io = dbgp_pci_io(dbgp.st.bar_phys);
		r = dbgp.io ? 0 : -EKDB_EFAULT;
	}
	if (r) {
		pr_err("dbgp: EHCI %02x:%02x.%u: registers not reachable (%s)\n", dbgp.st.bus,
		       dbgp.st.slot, dbgp.st.func, ekdb_strerror(r));
		return dbgp_init_err = r;
	}
	dbgp.st.op_off = dbgp.io->read(dbgp.io, EHCI_CAPLENGTH) & 0xff;
	hcs = dbgp.io->read(dbgp.io, EHCI_HCSPARAMS);
	dbgp.st.port = (u8)HCS_DEBUG_PORT(hcs);
	if (!dbgp.st.port || dbgp.st.port > HCS_N_PORTS(hcs)) {
		pr_err("dbgp: EHCI %02x:%02x.%u: no debug port number in HCSPARAMS\n",
		       dbgp.st.bus, dbgp.st.slot, dbgp.st.func);
		return dbgp_init_err = -EKDB_ENODEV;
	}
	dbgp_pci_handoff(&dbgp.st, dbgp.io->read(dbgp.io, EHCI_HCCPARAMS));
	r = dbgp_bring_up(&dbgp, &reused);
	if (r) {
		pr_err("dbgp: EHCI %02x:%02x.%u port %u: %s: %s\n", dbgp.st.bus, dbgp.st.slot,
		       dbgp.st.func, dbgp.st.port,
		       r == -EKDB_ENODEV ? "no debug device" : "debug device does not respond",
		       ekdb_strerror(r));
		return dbgp_init_err = r;
	}
	dbgp.st.magic = DBGP_STATE_MAGIC;
	dbgp_ready = true;
	pr_info("dbgp: EHCI %02x:%02x.%u debug port %u: debug device at %u (in ep %u, out ep %u)%s, bring-up %llu us\n",
		dbgp.st.bus, dbgp.st.slot, dbgp.st.func, dbgp.st.port, dbgp.st.devnum,
		dbgp.st.ep_in, dbgp.st.ep_out, reused ? ", already set up: reused" : "",
		(unsigned long long)(early_now_us() - t0));
	return 0;
}

int early_dbgp_console_init(const char *opt, bool keep)
{
	unsigned index = 0;
	const char *p = opt + 4;
	int r;

	if (strncmp(opt, "dbgp", 4))
		return -EKDB_EINVAL;
	if (*p) {
		if (*p < '0' || *p > '9' || p[1])
			return -EKDB_EINVAL;
		index = (unsigned)(*p - '0');
	}
	r = dbgp_setup(index);
	if (r)
		return r;
	console_keep = keep;
	if (dbgp_console.enabled)
		return -EKDB_EBUSY;
	return register_console(&dbgp_console) ? -EKDB_ENOSPC : 0;
}

int dbgp_parse_kgdbdbgp(const char *v, unsigned *index, unsigned *secs)
{
	unsigned s = 0;

	if (!v || v[0] < '0' || v[0] > '9')
		return -EKDB_EINVAL;
	*index = (unsigned)(v[0] - '0');
	v++;
	if (*v == 0) {
		*secs = 0;
		return 0;
	}
	if (*v++ != ',' || !*v)
		return -EKDB_EINVAL;
	for (; *v; v++) {
		if (*v < '0' || *v > '9' || s > 3600)
			return -EKDB_EINVAL;
		s = s * 10 + (unsigned)(*v - '0');
	}
	if (s > 3600)
		return -EKDB_EINVAL;
	*secs = s;
	return 0;
}

struct ekdb_transport *dbgp_transport_init(unsigned index, unsigned secs, int *err)
{
	*err = dbgp_setup(index);
	if (*err)
		return NULL;
	poll_secs = secs;
	poll_at = now_us() + secs * 1000000ULL;
	return &dbgp_transport;
}

/* ------------------------------------------------------------ handoff */
int dbgp_export(struct dbgp_state *out)
{
	if (!dbgp_ready)
		return -EKDB_ENODEV;
	if (!dbgp_lock())
		return -EKDB_EBUSY;
	flush_locked();
	*out = dbgp.st;
	dbgp_unlock();
	return 0;
}

int dbgp_import(const struct dbgp_state *in)
{
	if (in->magic != DBGP_STATE_MAGIC || in->pending_pos > in->pending_len ||
	    in->pending_len > DBGP_MAXP || !in->devnum)
		return -EKDB_EINVAL;
	if (!dbgp_lock())
		return -EKDB_EBUSY;
	dbgp.st = *in;
	dbgp_unlock();
	return 0;
}
