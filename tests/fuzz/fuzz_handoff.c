/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_handoff.c - libFuzzer target: the debugger state the loader hands over
 * across the jump (include/ekdb/handoff.h), as the kernel takes it over:
 * dbg_handoff_check(), then dbg_handoff_import() into the real breakpoint
 * table (core/bp.c) and real gdb and kdb sessions, or dbg_handoff_unplant()
 * for a refused record.  Bad input from the loader is input too.
 *
 * The record lives in a heap buffer of exactly its size (ASan sees any
 * read outside it).  The first input byte is a mode:
 *   bit 0  fix the header (magic, version, size), so the body is reached;
 *   bit 1  put breakpoint addresses in and around the fake kernel text;
 *   bit 2  an honest loader: saved bytes are the text's original bytes,
 *          int3s planted for installed software entries (flags exactly
 *          used|enabled|installed, as the loader writes them) unless hits
 *          is odd (an int3 the text lost);
 *   bit 3  make the line, session and kdb fields well formed.
 * The rest is the record, zero-filled when short.
 *
 * Properties checked (a failed one traps):
 *  - nothing is written outside the kernel text (the fake arch_dbg_text_poke);
 *  - a refused record imports nothing (-EINVAL, table empty, text as it was);
 *  - an accepted record imports (returns 0): taken whole, as promised;
 *  - after the import every entry is sound: software ones outside the
 *    jump window, enabled ones inside the text, installed ones on an int3;
 *    each hardware slot owned once;
 *  - what was imported exports again as a record the checker accepts;
 *  - honest loader: taking every breakpoint out (the stop path) gives the
 *    text back byte for byte; so does unplanting a refused record whose
 *    header is sound (one with a bad header is not trusted: text left alone).
 */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "../../core/debug_core.h"
#include <ekdb/handoff.h>
#include <ekdb/errno.h>
#include "sim_target.h"
#include "sim_chan.h"
#include "../../kdb/kdb.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

#define TEXT_SIZE 4096
#define WINDOW_END 0x40		/* the jump window: _text .. _text + 0x40 */
char _text[TEXT_SIZE] __attribute__((aligned(4096)));
__asm__(".globl _etext\n.set _etext, _text + 4096");
extern char _etext[];
static u8 loader_text[256];		/* code outside the kernel image: readable, never written */
char __ekdb_text_start[16], __ekdb_text_end[1];
char __ekdb_data_start[1], __ekdb_data_end[1];
char __ekdb_bss_start[1], __ekdb_bss_end[1];
static u8 orig[TEXT_SIZE];		/* the text before the loader planted anything */

#define T(off) ((u64)_text + (off))

static bool in_range(u64 a, size_t len, const void *base, size_t size)
{
	return a >= (u64)base && a - (u64)base <= size && len <= size - (a - (u64)base);
}

size_t arch_dbg_probe_read(void *dst, u64 src, size_t len)
{
	if (!in_range(src, len, _text, TEXT_SIZE) && !in_range(src, len, loader_text, sizeof(loader_text)))
		return 0;	/* a fault, caught */
	memcpy(dst, (const void *)src, len);
	return len;
}

/* The only memory the takeover may write is the kernel's text. */
size_t arch_dbg_text_poke(u64 addr, const void *src, size_t len)
{
	CHECK(in_range(addr, len, _text, TEXT_SIZE));
	memcpy((void *)addr, src, len);
	return len;
}

static struct arch_hw_bp_slot armed[ARCH_HW_BP_SLOTS];

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
}

void arch_hw_bp_disarm(void)
{
}

static struct sim_target sim;
static struct sim_chan ch;
static struct gdb_session gdb;
static struct kdb_session kdb;
static char gin[GDB_MIN_BUFSIZE], gout[GDB_MIN_BUFSIZE];
static bool owns_line;

void dbg_frontend_sessions(struct gdb_session **g, struct kdb_session **k)
{
	*g = &gdb;
	*k = &kdb;
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
	st->u.serial.base = 0x3f8;
	st->u.serial.baud = 115200;
	st->npending = 0;
}

static struct ekdb_transport line = {
	.name = "ttyS0", .kind = EKDB_TRANSPORT_SERIAL, .export_state = line_export,
};

unsigned dbg_transport_count(void)
{
	return 1;
}

struct ekdb_transport *dbg_transport_at(unsigned i)
{
	return i == 0 ? &line : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void reset(void)
{
	for (int i = 0; i < dbg_bp_capacity(); i++)
		dbg_bp_clear_index(i);
	for (unsigned i = 0; i < TEXT_SIZE; i++)
		orig[i] = (u8)(0x90 + (i % 7));		/* never an int3 */
	memcpy(_text, orig, TEXT_SIZE);
	memset(loader_text, 0x55, sizeof(loader_text));
	memset(armed, 0, sizeof(armed));
	dbg_bp_set_jump_window(T(0), T(WINDOW_END));
	owns_line = false;
}

static bool in_text(u64 a)
{
	return a >= T(0) && a < T(TEXT_SIZE);
}

static void shape(struct ekdb_handoff *c, unsigned mode)
{
	if (mode & 1) {
		c->magic = EKDB_HANDOFF_MAGIC;
		c->version = EKDB_HANDOFF_VERSION;
		c->size = sizeof(*c);
	}
	if (mode & 8) {
		c->nbps %= EKDB_HANDOFF_BPS + 1;
		c->line.kind = EKDB_HANDOFF_LINE_16550;
		c->line.base |= 1;
		c->line.baud = 115200 >> (c->line.baud % 4);
		c->line.npending %= EKDB_HANDOFF_PENDING_MAX + 1;
		c->gdb.flags &= 0x3f;
		c->gdb.waiting = EKDB_HANDOFF_RUN_CONTINUE;
		c->kdb.cmd_enable &= KDB_ENABLE_MASK;
		c->kdb.nhist %= EKDB_HANDOFF_HIST + 1;
		for (unsigned i = 0; i < EKDB_HANDOFF_HIST; i++)
			c->kdb.hist[i][EKDB_HANDOFF_LINE - 1] = 0;
		for (unsigned i = 0; i < EKDB_HANDOFF_ENV; i++)
			c->kdb.env[i][EKDB_HANDOFF_ENV_LEN - 1] = 0;
	}
	for (unsigned i = 0; i < EKDB_HANDOFF_BPS; i++) {
		struct ekdb_handoff_bp *b = &c->bp[i];

		if ((mode & 2) && b->type == EKDB_BP_SW)
			b->addr = T(0) - 32 + b->addr % (TEXT_SIZE + 64);
		if ((mode & 4) && b->type == EKDB_BP_SW && in_text(b->addr)) {
			b->saved = orig[b->addr - T(0)];
			if (b->flags == (EKDB_HANDOFF_BP_USED | EKDB_HANDOFF_BP_ENABLED |
					 EKDB_HANDOFF_BP_INSTALLED) && !(b->hits & 1) &&
			    i < (c->nbps < EKDB_HANDOFF_BPS ? c->nbps : EKDB_HANDOFF_BPS))
				_text[b->addr - T(0)] = (char)ARCH_BREAK_INSN;
		}
	}
}

static void check_table(void)
{
	int owner[ARCH_HW_BP_SLOTS] = { -1, -1, -1, -1 };

	for (int i = 0; i < dbg_bp_capacity(); i++) {
		const struct dbg_bp *b = dbg_bp_get(i);

		if (!b)
			continue;
		CHECK(i < EKDB_HANDOFF_BPS && b->type <= EKDB_BP_ACCESS);
		CHECK(b->owner && !(b->owner & ~(DBG_OWNER_GDB | DBG_OWNER_KDB)));
		if (b->type == EKDB_BP_SW) {
			CHECK(b->slot == -1 && b->len == 1);
			CHECK(!dbg_addr_in_jump_window(b->addr, 1));
			if (b->enabled)
				CHECK(in_text(b->addr));
			if (b->installed)
				CHECK((u8)_text[b->addr - T(0)] == ARCH_BREAK_INSN);
		} else {
			CHECK(b->slot >= 0 && b->slot < ARCH_HW_BP_SLOTS);
			CHECK(owner[b->slot] < 0);
			owner[b->slot] = i;
			if (b->enabled)
				CHECK(armed[b->slot].on && armed[b->slot].addr == b->addr &&
				      armed[b->slot].type == b->type);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ekdb_handoff *c, *again;
	struct dbg_handoff_stats st;
	unsigned mode;
	const char *why;
	int err;

	if (!size)
		return 0;
	c = malloc(sizeof(*c));
	CHECK(c);
	reset();
	mode = data[0];
	memset(c, 0, sizeof(*c));
	memcpy(c, data + 1, size - 1 < sizeof(*c) ? size - 1 : sizeof(*c));
	shape(c, mode);

	why = dbg_handoff_check(c);
	sim_target_init(&sim, 1);
	sim_chan_init(&ch);
	CHECK(gdb_session_init(&gdb, &sim.t, &ch.chan, gin, gout, sizeof(gin)) == 0);
	gdb_session_set_monitor(&gdb, sim_monitor, &sim);
	CHECK(kdb_session_init(&kdb, &sim.t, &ch.chan) == 0);
	kdb_session_set_host(&kdb, &sim.host);
	if (why) {
		u8 before[TEXT_SIZE];

		memcpy(before, _text, TEXT_SIZE);
		CHECK(dbg_handoff_import(c, T(0), (u64)_etext, &st) == -EKDB_EINVAL);
		CHECK(!memcmp(before, _text, TEXT_SIZE));
		for (int i = 0; i < dbg_bp_capacity(); i++)
			CHECK(!dbg_bp_get(i));
		dbg_handoff_unplant(c, T(0), (u64)_etext);
		/* a record whose header is not sound is not trusted to say where its int3s are */
		if ((mode & 4) && c->magic == EKDB_HANDOFF_MAGIC && c->version == EKDB_HANDOFF_VERSION &&
		    c->size == sizeof(*c))
			CHECK(!memcmp(orig, _text, TEXT_SIZE));
		free(c);
		return 0;
	}
	err = dbg_handoff_import(c, T(0), (u64)_etext, &st);
	CHECK(err == 0);
	CHECK(st.sw + st.hw + st.dropped <= c->nbps);
	check_table();
	CHECK(kdb.cmd_enable == c->kdb.cmd_enable);

	again = malloc(sizeof(*again));
	CHECK(again);
	CHECK(dbg_handoff_export(again) == 0);
	CHECK(dbg_handoff_check(again) == NULL);
	free(again);

	dbg_bp_uninstall_all();		/* what every stop does first */
	if (mode & 4)
		CHECK(!memcmp(orig, _text, TEXT_SIZE));
	for (int i = 0; i < dbg_bp_capacity(); i++) {
		const struct dbg_bp *b = dbg_bp_get(i);

		CHECK(!b || b->type != EKDB_BP_SW || !b->installed);
	}
	free(c);
	return 0;
}
