/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_handoff_loader.c - host tests of the debugger state handed over
 * across the jump (core/handoff.c): export -> import round trips
 * through the real breakpoint table (core/bp.c) and the real gdb and kdb
 * sessions, and malformed records refused with their reason.
 *
 * The loader's lifetime and the kernel's are two processes here (bp.c
 * keeps its table in static storage, as in both lifetimes): a child
 * builds a state and exports it; another child, fresh from the parent,
 * imports it.  The record, the "kernel text" bytes and what the importer
 * saw travel in shared memory.  The text is an array of this program
 * (_text.._etext), patched by the fake arch_dbg_text_poke.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "../../core/debug_core.h"
#include <ekdb/handoff.h>
#include <ekdb/errno.h>
#include "sim_target.h"
#include "sim_chan.h"
#include "../../kdb/kdb.h"

#define TEXT_SIZE 4096
char _text[TEXT_SIZE] __attribute__((aligned(4096)));
__asm__(".globl _etext\n.set _etext, _text + 4096");
static char loader_text[256];		/* code outside the kernel image */
char __ekdb_text_start[16], __ekdb_text_end[1];
char __ekdb_data_start[1], __ekdb_data_end[1];
char __ekdb_bss_start[1], __ekdb_bss_end[1];
extern char _etext[];

#define T(off) ((u64)_text + (off))
#define WATCH_ADDR 0xffff888000001000ULL

/* ---- fakes: memory, hardware slots, the front end's sessions, the line ---- */

static bool in_range(u64 a, size_t len, const void *base, size_t size)
{
	return a >= (u64)base && a + len <= (u64)base + size;
}

size_t arch_dbg_probe_read(void *dst, u64 src, size_t len)
{
	if (!in_range(src, len, _text, TEXT_SIZE) && !in_range(src, len, loader_text, sizeof(loader_text)))
		return 0;
	memcpy(dst, (const void *)src, len);
	return len;
}

size_t arch_dbg_text_poke(u64 addr, const void *src, size_t len)
{
	if (!in_range(addr, len, _text, TEXT_SIZE) && !in_range(addr, len, loader_text, sizeof(loader_text)))
		return 0;
	memcpy((void *)addr, src, len);
	return len;
}

static struct arch_hw_bp_slot armed[ARCH_HW_BP_SLOTS];
static int loads, disarms;

bool arch_hw_bp_len_ok(u64 addr, unsigned len)
{
	return (len == 1 || len == 2 || len == 4 || len == 8) && !(addr & (len - 1));
}

bool arch_hw_bp_addr_ok(u64 addr)
{
	return (u64)((s64)(addr << 16) >> 16) == addr;
}

void arch_hw_bp_arm(const struct arch_hw_bp_slot *slots)
{
	memcpy(armed, slots, sizeof(armed));
}

void arch_hw_bp_load(void)
{
	loads++;
}

void arch_hw_bp_disarm(void)
{
	disarms++;
}

static struct sim_target sim;
static struct sim_chan ch;
static struct gdb_session gdb;
static struct kdb_session kdb;
static char gin[GDB_MIN_BUFSIZE], gout[GDB_MIN_BUFSIZE];
static bool sessions_up, owns_line;

void dbg_frontend_sessions(struct gdb_session **g, struct kdb_session **k)
{
	*g = sessions_up ? &gdb : NULL;
	*k = sessions_up ? &kdb : NULL;
}

bool dbg_frontend_gdb_owns_line(void)
{
	return owns_line;
}

void dbg_frontend_set_gdb_owns_line(bool on)
{
	owns_line = on;
}

static void line_export(struct ekdb_transport *t, struct ekdb_transport_state *st)
{
	st->kind = EKDB_TRANSPORT_SERIAL;
	st->u.serial.base = 0x2f8;
	st->u.serial.baud = 38400;
	memcpy(st->pending, "ab$", 3);
	st->npending = 3;
}

static struct ekdb_transport line = {
	.name = "ttyS1", .kind = EKDB_TRANSPORT_SERIAL, .export_state = line_export,
};
static bool have_line = true;

unsigned dbg_transport_count(void)
{
	return have_line;
}

struct ekdb_transport *dbg_transport_at(unsigned i)
{
	return have_line && i == 0 ? &line : NULL;
}

/* ---- the two lifetimes: children of a clean parent, sharing this ---- */

struct shared {
	u8 text[TEXT_SIZE];		/* the kernel text after the export (int3s planted) */
	struct ekdb_handoff rec;
	int err;			/* export's or import's return */
	char why[160];			/* a failed check in a child */
	struct dbg_handoff_stats st;
	struct dbg_bp bps[8];		/* the importer's table, entries 0..7 */
	bool used[8];
	struct arch_hw_bp_slot armed[ARCH_HW_BP_SLOTS];
	int loads, disarms;
	struct gdb_session gdb;
	bool owns_line;
	char hist[EKDB_HANDOFF_HIST][KDB_LINE_MAX];
	unsigned nhist;
	char myvar[KDB_ENV_LEN];
	u32 cmd_enable;
};
static struct shared *sh;

#define CHECK(c) do { if (!(c)) { snprintf(sh->why, sizeof(sh->why), "%s:%d: %s", \
					      __FILE__, __LINE__, #c); _exit(1); } } while (0)

static void in_child(void (*fn)(void))
{
	pid_t p = fork();
	int status = 0;

	if (p == 0) {
		fn();
		_exit(0);
	}
	assert_true(p > 0);
	waitpid(p, &status, 0);
	assert_string_equal(sh->why, "");
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void sessions_init(void)
{
	sim_target_init(&sim, 1);
	sim_chan_init(&ch);
	CHECK(gdb_session_init(&gdb, &sim.t, &ch.chan, gin, gout, sizeof(gin)) == 0);
	CHECK(kdb_session_init(&kdb, &sim.t, &ch.chan) == 0);
	kdb_session_set_host(&kdb, &sim.host);
	sessions_up = true;
}

static void text_init(void)
{
	for (unsigned i = 0; i < TEXT_SIZE; i++)
		_text[i] = (char)(0x90 + (i % 7));	/* never 0xcc */
	memset(loader_text, 0x55, sizeof(loader_text));
}

/* The loader's lifetime: gdb and kdb breakpoints, a session, then the jump. */
static void loader_side(void)
{
	text_init();
	sessions_init();
	dbg_bp_set_jump_window(T(0), T(0x40));
	CHECK(dbg_bp_set(EKDB_BP_SW, T(0x100), 1, DBG_OWNER_KDB) == 0);	/* bp start_kernel */
	CHECK(dbg_bp_set(EKDB_BP_HW, T(0x200), 1, DBG_OWNER_GDB) == 1);	/* hbreak */
	CHECK(dbg_bp_set(EKDB_BP_WRITE, WATCH_ADDR, 4, DBG_OWNER_GDB) == 2);	/* watch */
	CHECK(dbg_bp_set(EKDB_BP_SW, T(0x300), 1, DBG_OWNER_GDB) == 3);
	CHECK(dbg_bp_set(EKDB_BP_SW, T(0x400), 1, DBG_OWNER_KDB) == 4);
	CHECK(dbg_bp_clear_index(3) == 0);		/* a hole: numbers must not shift */
	CHECK(dbg_bp_enable_index(4, false) == 0);	/* kdb bd 4 */
	dbg_bp_hit(0);
	dbg_bp_hit(0);
	/* the machine resumes: everything enabled goes in */
	dbg_bp_install_all(0);
	CHECK((u8)_text[0x100] == 0xcc && (u8)_text[0x400] != 0xcc);
	/* gdb connected in no-ack mode, owns the line, continued */
	gdb.connected = gdb.no_ack = gdb.gdb_swbreak = gdb.gdb_hwbreak = true;
	gdb.resume.action = EKDB_RESUME_CONTINUE;
	owns_line = true;
	kdb_hist_add(&kdb, "bp start_kernel");
	kdb_hist_add(&kdb, "bl");
	kdb_hist_add(&kdb, "go");
	CHECK(kdb_setenv(&kdb, "MYVAR", "handed-over") == 0);
	kdb.cmd_enable = KDB_ENABLE_ALL;
	disarms = 0;
	sh->err = dbg_handoff_export(&sh->rec);
	sh->disarms = disarms;
	memcpy(sh->text, _text, TEXT_SIZE);
}

/* The kernel's lifetime: fresh table and sessions, the record taken over. */
static void kernel_side(void)
{
	memcpy(_text, sh->text, TEXT_SIZE);
	memset(loader_text, 0x55, sizeof(loader_text));
	sessions_init();
	owns_line = false;
	dbg_bp_set_jump_window(T(0), T(0x40));
	sh->err = dbg_handoff_import(&sh->rec, (u64)_text, (u64)_etext, &sh->st);
	for (int i = 0; i < 8; i++) {
		const struct dbg_bp *b = dbg_bp_get(i);

		sh->used[i] = b != NULL;
		if (b)
			sh->bps[i] = *b;
	}
	memcpy(sh->armed, armed, sizeof(armed));
	sh->loads = loads;
	sh->gdb = gdb;
	sh->owns_line = owns_line;
	for (sh->nhist = 0; sh->nhist < EKDB_HANDOFF_HIST && kdb_hist_get(&kdb, sh->nhist); sh->nhist++)
		strcpy(sh->hist[sh->nhist], kdb_hist_get(&kdb, sh->nhist));
	strcpy(sh->myvar, kdb_getenv(&kdb, "MYVAR") ? kdb_getenv(&kdb, "MYVAR") : "(unset)");
	sh->cmd_enable = kdb.cmd_enable;
	memcpy(sh->text, _text, TEXT_SIZE);
}

static int setup(void **state)
{
	memset(sh, 0, sizeof(*sh));
	return 0;
}

/* ---- round trips ---- */

static void test_round_trip(void **state)
{
	in_child(loader_side);
	assert_int_equal(sh->err, 0);
	assert_int_equal(sh->disarms, 1);		/* DR7 = 0 through the jump */
	assert_null(dbg_handoff_check(&sh->rec));
	assert_int_equal(sh->rec.nbps, 5);
	assert_int_equal(sh->rec.line.base, 0x2f8);
	assert_int_equal(sh->rec.line.npending, 3);

	in_child(kernel_side);
	assert_int_equal(sh->err, 0);
	assert_int_equal(sh->st.sw, 2);
	assert_int_equal(sh->st.hw, 2);
	assert_int_equal(sh->st.disabled, 0);
	/* every entry at its number, the hole kept */
	assert_true(sh->used[0] && sh->used[1] && sh->used[2] && !sh->used[3] && sh->used[4]);
	assert_false(sh->used[5]);
	assert_int_equal(sh->bps[0].addr, T(0x100));
	assert_int_equal(sh->bps[0].owner, DBG_OWNER_KDB);
	assert_true(sh->bps[0].installed && sh->bps[0].enabled);
	assert_int_equal(sh->bps[0].saved, 0x90 + (0x100 % 7));
	assert_int_equal(sh->bps[0].hits, 2);
	assert_int_equal(sh->text[0x100], 0xcc);	/* still planted */
	assert_int_equal(sh->bps[1].type, EKDB_BP_HW);
	assert_int_equal(sh->bps[2].type, EKDB_BP_WRITE);
	assert_int_equal(sh->bps[2].len, 4);
	assert_false(sh->bps[4].enabled);
	assert_false(sh->bps[4].installed);
	assert_int_not_equal(sh->text[0x400], 0xcc);
	/* the hardware set re-armed in the new lifetime, each in its slot */
	assert_true(sh->armed[sh->bps[1].slot].on);
	assert_int_equal(sh->armed[sh->bps[1].slot].addr, T(0x200));
	assert_int_equal(sh->armed[sh->bps[1].slot].type, EKDB_BP_HW);
	assert_true(sh->armed[sh->bps[2].slot].on);
	assert_int_equal(sh->armed[sh->bps[2].slot].addr, WATCH_ADDR);
	assert_int_equal(sh->armed[sh->bps[2].slot].type, EKDB_BP_WRITE);
	assert_int_not_equal(sh->bps[1].slot, sh->bps[2].slot);
	assert_int_equal(sh->loads, 1);
	/* the sessions */
	assert_true(sh->gdb.connected && sh->gdb.no_ack && sh->gdb.gdb_swbreak && sh->gdb.gdb_hwbreak);
	assert_false(sh->gdb.gdb_binary_upload);
	assert_true(sh->owns_line);
	assert_int_equal(sh->nhist, 3);
	assert_string_equal(sh->hist[0], "go");
	assert_string_equal(sh->hist[2], "bp start_kernel");
	assert_string_equal(sh->myvar, "handed-over");
	assert_int_equal(sh->cmd_enable, KDB_ENABLE_ALL);
}

/* A kdb session at the loader's stop (gdb never attached): kdb keeps the line. */
static void loader_side_kdb(void)
{
	text_init();
	sessions_init();
	CHECK(dbg_bp_set(EKDB_BP_SW, T(0x180), 1, DBG_OWNER_KDB) == 0);
	dbg_bp_install_all(0);
	owns_line = false;
	kdb.cmd_enable = KDB_ENABLE_MEM_READ | KDB_ENABLE_FLOW_CTRL;
	for (int i = 0; i < 10; i++) {		/* more than the ring: the newest 8 travel */
		char l[16];

		snprintf(l, sizeof(l), "md %d", i);
		kdb_hist_add(&kdb, l);
	}
	sh->err = dbg_handoff_export(&sh->rec);
	memcpy(sh->text, _text, TEXT_SIZE);
}

static void test_round_trip_kdb(void **state)
{
	in_child(loader_side_kdb);
	assert_int_equal(sh->err, 0);
	assert_int_equal(sh->rec.gdb.flags, 0);
	in_child(kernel_side);
	assert_int_equal(sh->err, 0);
	assert_false(sh->owns_line);
	assert_false(sh->gdb.connected);
	assert_int_equal(sh->cmd_enable, KDB_ENABLE_MEM_READ | KDB_ENABLE_FLOW_CTRL);
	assert_int_equal(sh->nhist, 8);
	assert_string_equal(sh->hist[0], "md 9");
	assert_string_equal(sh->hist[7], "md 2");
	assert_true(sh->bps[0].installed);
}

/* Entries the kernel must not take as they are. */
static void test_import_outside_text_and_window(void **state)
{
	u8 under;

	in_child(loader_side);
	assert_int_equal(sh->err, 0);
	/* entry 5: a loader-code breakpoint; entry 6: one in the jump window (planted) */
	sh->rec.bp[5] = (struct ekdb_handoff_bp){ .addr = (u64)loader_text + 8, .flags = 7, .owner = 1,
						.saved = 0x55, .slot = -1, .len = 1 };
	under = sh->text[0x10];
	sh->text[0x10] = 0xcc;
	sh->rec.bp[6] = (struct ekdb_handoff_bp){ .addr = T(0x10), .flags = 7, .owner = 1,
						.saved = under, .slot = -1, .len = 1 };
	/* entry 0's int3 is not in the text after all: planted again */
	sh->text[0x100] = 0x90 + (0x100 % 7);
	sh->rec.nbps = 7;
	in_child(kernel_side);
	assert_int_equal(sh->err, 0);
	assert_int_equal(sh->st.disabled, 1);
	assert_int_equal(sh->st.dropped, 1);
	assert_true(sh->used[5]);
	assert_false(sh->bps[5].enabled);		/* kept for z/bc, never poked */
	assert_false(sh->used[6]);
	assert_int_equal(sh->text[0x10], under);	/* the window's byte is back */
	assert_int_equal(sh->text[0x100], 0xcc);
	assert_true(sh->bps[0].installed);
}

static void export_no_line(void)
{
	sessions_init();
	have_line = false;
	sh->err = dbg_handoff_export(&sh->rec);
}

static void export_table_too_big(void)
{
	static struct dbg_bp big[64];

	text_init();
	sessions_init();
	dbg_bp_table_move(big, 64, NULL);
	for (int i = 0; i <= EKDB_HANDOFF_BPS; i++)
		CHECK(dbg_bp_set(EKDB_BP_SW, T(0x100 + (u64)i), 1, DBG_OWNER_KDB) == i);
	sh->err = dbg_handoff_export(&sh->rec);
}

static void export_no_sessions(void)
{
	sh->err = dbg_handoff_export(&sh->rec);
}

static void test_export_refusals(void **state)
{
	in_child(export_no_line);
	assert_int_equal(sh->err, -EKDB_ENODEV);
	assert_int_equal(sh->rec.magic, 0);		/* nothing handed over */
	in_child(export_table_too_big);
	assert_int_equal(sh->err, -EKDB_ENOSPC);
	assert_int_equal(sh->rec.magic, 0);
	in_child(export_no_sessions);
	assert_int_equal(sh->err, -EKDB_ENODEV);
}

static void window_refusal(void)
{
	text_init();
	dbg_bp_set_jump_window(T(0), T(0x40));
	CHECK(dbg_bp_set(EKDB_BP_SW, T(0x3f), 1, DBG_OWNER_GDB) == -EKDB_EJUMPWIN);
	CHECK(dbg_bp_set(EKDB_BP_HW, T(0), 1, DBG_OWNER_KDB) == -EKDB_EJUMPWIN);
	CHECK(dbg_bp_set(EKDB_BP_SW, T(0x40), 1, DBG_OWNER_GDB) == 0);	/* first one after it */
	CHECK((u8)_text[0x3f] != 0xcc);
	CHECK(dbg_bp_get(1) == NULL);
	/* the loader refuses the kernel's debugger code like its own */
	dbg_bp_set_nobp_range(T(0x800), T(0x900));
	CHECK(dbg_bp_set(EKDB_BP_SW, T(0x8ff), 1, DBG_OWNER_GDB) == -EKDB_EPERM);
	CHECK(dbg_bp_set(EKDB_BP_WRITE, T(0x8f8), 8, DBG_OWNER_GDB) == -EKDB_EPERM);
	CHECK(dbg_bp_set(EKDB_BP_SW, T(0x900), 1, DBG_OWNER_GDB) == 1);
}

static void test_jump_window_refused(void **state)
{
	in_child(window_refusal);
}

/* ---- malformed records ---- */

static struct ekdb_handoff good(void)
{
	struct ekdb_handoff c;

	memset(&c, 0, sizeof(c));
	c.magic = EKDB_HANDOFF_MAGIC;
	c.version = EKDB_HANDOFF_VERSION;
	c.size = sizeof(c);
	c.line = (struct ekdb_handoff_line){ .kind = EKDB_HANDOFF_LINE_16550, .base = 0x2f8, .baud = 115200 };
	c.kdb.cmd_enable = KDB_ENABLE_ALL;
	c.nbps = 2;
	c.bp[0] = (struct ekdb_handoff_bp){ .addr = T(0x100), .flags = 7, .owner = 2, .saved = 0x55,
					  .slot = -1, .len = 1 };
	c.bp[1] = (struct ekdb_handoff_bp){ .addr = WATCH_ADDR, .flags = 3, .type = EKDB_BP_WRITE,
					  .owner = 1, .slot = 2, .len = 8 };
	return c;
}

#define BAD(field_change, msg) do { struct ekdb_handoff c = good(); field_change; \
	assert_string_equal(dbg_handoff_check(&c), msg); } while (0)

static void test_malformed(void **state)
{
	struct ekdb_handoff ok = good();

	assert_null(dbg_handoff_check(&ok));
	assert_string_equal(dbg_handoff_check(NULL), "no handoff record");
	BAD(c.magic ^= 1, "bad handoff magic");
	BAD(c.version = 2, "unsupported handoff version");
	BAD(c.size -= 8, "handoff record size mismatch");
	BAD(c.nbps = EKDB_HANDOFF_BPS + 1, "breakpoint count out of range");
	BAD(c.line.kind = EKDB_HANDOFF_LINE_NONE, "no serial line to hand the session over on");
	BAD(c.line.base = 0, "serial line without an I/O base");
	BAD(c.line.baud = 7, "serial line baud rate not a divisor of 115200");
	BAD(c.line.baud = 0, "serial line baud rate not a divisor of 115200");
	BAD(c.line.baud = 230400, "serial line baud rate not a divisor of 115200");
	BAD(c.line.npending = EKDB_HANDOFF_PENDING_MAX + 1, "too many pending line bytes");
	BAD(c.gdb.flags = 0x40, "unknown gdb session flags");
	BAD(c.gdb.waiting = EKDB_HANDOFF_RUN_STEP, "a single step cannot be handed over across the jump");
	BAD(c.kdb.cmd_enable = 1u << 12, "kdb.cmd_enable out of range");
	BAD(c.kdb.nhist = EKDB_HANDOFF_HIST + 1, "kdb history count out of range");
	BAD((c.kdb.nhist = 1, memset(c.kdb.hist[0], 'x', EKDB_HANDOFF_LINE)),
	    "kdb history line not terminated");
	BAD(memset(c.kdb.env[31], 'x', EKDB_HANDOFF_ENV_LEN), "kdb environment entry not terminated");
	BAD(c.bp[0].flags = 0x08 | 1, "unknown breakpoint flags");
	BAD(c.bp[0].flags = EKDB_HANDOFF_BP_ENABLED, "flags on an unused breakpoint");
	BAD(c.bp[0].type = 5, "unknown breakpoint type");
	BAD(c.bp[0].owner = 0, "breakpoint without a known owner");
	BAD(c.bp[0].owner = 4, "breakpoint without a known owner");
	BAD(c.bp[0].flags = EKDB_HANDOFF_BP_USED | EKDB_HANDOFF_BP_INSTALLED,
	    "disabled breakpoint marked installed");
	BAD(c.bp[0].slot = 0, "software breakpoint with a slot or length");
	BAD(c.bp[0].len = 2, "software breakpoint with a slot or length");
	BAD(c.bp[1].slot = ARCH_HW_BP_SLOTS, "hardware breakpoint slot out of range");
	BAD(c.bp[1].slot = -1, "hardware breakpoint slot out of range");
	BAD((c.bp[0] = c.bp[1], c.bp[0].addr += 8), "two breakpoints in one hardware slot");
	BAD((c.bp[1].type = EKDB_BP_HW, c.bp[1].len = 2), "hardware breakpoint length is not 1");
	BAD(c.bp[1].len = 3, "watchpoint length not 1/2/4/8 or not aligned");
	BAD(c.bp[1].addr += 4, "watchpoint length not 1/2/4/8 or not aligned");
	/* found by fuzz_handoff: accepted, then refused half-way through the import */
	BAD(c.bp[1].addr = 0x38c754ffff010100ULL, "hardware breakpoint address the debug registers cannot hold");
	/*
	 * found by fuzz_handoff: a second software entry at the address of an
	 * installed one took its int3 for the original byte, and taking every
	 * breakpoint out left the int3 in the text; a disabled one, or one
	 * that is not installed, is refused all the same
	 */
	BAD((c.nbps = 3, c.bp[2] = c.bp[0]), "two software breakpoints at one address");
	BAD((c.nbps = 3, c.bp[2] = c.bp[0], c.bp[2].flags = EKDB_HANDOFF_BP_USED),
	    "two software breakpoints at one address");
	/* a hardware entry at that address is another thing (hbreak beside break) */
	{
		struct ekdb_handoff c = good();

		c.nbps = 3;
		c.bp[2] = c.bp[1];
		c.bp[2].type = EKDB_BP_HW;
		c.bp[2].slot = (s8)(c.bp[1].slot + 1);
		c.bp[2].len = 1;
		c.bp[2].addr = c.bp[0].addr;
		assert_null(dbg_handoff_check(&c));
	}
	/* an entry past nbps is not looked at */
	ok.bp[5].flags = 0xff;
	assert_null(dbg_handoff_check(&ok));
}

/* The kernel refuses a record: nothing taken, the loader's int3s taken out. */
static void import_refused(void)
{
	memcpy(_text, sh->text, TEXT_SIZE);
	sessions_init();
	sh->err = dbg_handoff_import(&sh->rec, (u64)_text, (u64)_etext, &sh->st);
	sh->used[0] = dbg_bp_get(0) != NULL;
	sh->st.dropped = dbg_handoff_unplant(&sh->rec, (u64)_text, (u64)_etext);
	memcpy(sh->text, _text, TEXT_SIZE);
}

static void test_import_refused_unplants(void **state)
{
	struct ekdb_handoff c = good();

	memset(sh->text, 0x90, TEXT_SIZE);
	sh->text[0x100] = 0xcc;			/* what the loader planted */
	c.line.baud = 7;			/* ... and a record the kernel refuses */
	sh->rec = c;
	in_child(import_refused);
	assert_int_equal(sh->err, -EKDB_EINVAL);
	assert_false(sh->used[0]);
	assert_int_equal(sh->st.dropped, 1);
	assert_int_equal(sh->text[0x100], 0x55);	/* the saved byte is back */

	/* a record with a bad header: its bytes are not trusted, the text is left alone */
	c.magic = 0x1234;
	sh->rec = c;
	memset(sh->text, 0x90, TEXT_SIZE);
	sh->text[0x100] = 0xcc;
	in_child(import_refused);
	assert_int_equal(sh->err, -EKDB_EINVAL);
	assert_int_equal(sh->st.dropped, 0);
	assert_int_equal(sh->text[0x100], 0xcc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_round_trip, setup),
		cmocka_unit_test_setup(test_round_trip_kdb, setup),
		cmocka_unit_test_setup(test_import_outside_text_and_window, setup),
		cmocka_unit_test_setup(test_export_refusals, setup),
		cmocka_unit_test_setup(test_jump_window_refused, setup),
		cmocka_unit_test_setup(test_malformed, setup),
		cmocka_unit_test_setup(test_import_refused_unplants, setup),
	};

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
