/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bp.c - the one breakpoint table, shared by gdb and kdb: software
 * breakpoints (the arch's break instruction patched into text) and
 * hardware breakpoints and watchpoints (the arch's slots, asm/hw_breakpoint.h:
 * this file decides which entry owns which slot, the arch programs them).
 * Static storage; usable from early boot.
 *
 * While the machine is stopped every breakpoint is out of memory
 * (original bytes back, this CPU's slots off); they go back in on resume,
 * as the last act before the CPUs are released (after every hook).
 *
 * Hardware slots are per CPU, the table is not: when the machine resumes
 * the master publishes the armed set (arch_hw_bp_arm) and every CPU loads
 * it as it leaves the debugger, and an AP coming online loads it before it
 * runs anything (Linux: correct_hw_break on each CPU).  So a watchpoint
 * fires on whichever CPU touches the address, and a deleted one is gone
 * everywhere.
 */
#include "debug_core.h"
#include <asm/debug_trap.h>
#include <asm/hw_breakpoint.h>
#include <ekdb/errno.h>
#include <ekdb/port.h>
#include <ekdb/range.h>
#include <ekdb/string.h>

/*
 * The table: static and small while the kernel is young (its storage is
 * released at the handoff), then allocated and growing (core/late/).
 * Indexes are the breakpoint numbers users see: they never move.
 */
static struct dbg_bp early_bps[EKDB_EARLY_BPS] __ekdb_early;
static struct dbg_bp *bps = early_bps;
static int bp_cap = EKDB_EARLY_BPS;
static struct dbg_bp *(*bp_grow)(const struct dbg_bp *old, int old_cap, int *new_cap);
static int hw_slot_owner[ARCH_HW_BP_SLOTS] = { [0 ... ARCH_HW_BP_SLOTS - 1] = -1 };
/* The kernel's jump window (run-time addresses): refused in every lifetime. */
static u64 jump_window_start, jump_window_end;
/* Another image's debugger code (the loader: the kernel's), refused like our own. */
static u64 nobp_start, nobp_end;
/*
 * ekdb_add_nobp_range(): the host's code a trap cannot come from (an AP
 * before its IDT) or that its stop path runs (Linux: linux/glue/nobp.c
 * adds about 60)
 */
#define NOBP_EXTRA	96
static struct { u64 start, end; } nobp_extra[NOBP_EXTRA];
static unsigned nobp_extra_n;
/* Part of the debugger's bss given back (the early storage after the handoff). */
static u64 released_start, released_end;

extern char __ekdb_text_start[], __ekdb_text_end[];
extern char __ekdb_data_start[], __ekdb_data_end[];
extern char __ekdb_bss_start[], __ekdb_bss_end[];
extern char _text[], _etext[];		/* the kernel's executable text */

/* The lifetime new entries are planted in (the loader and the handoff change it). */
static u8 bp_lifetime = EKDB_LIFE_EARLY;

void dbg_bp_set_lifetime(enum ekdb_lifetime life)
{
	bp_lifetime = (u8)life;
}

/* Which addresses hold code (a software breakpoint's place); NULL: the kernel's text. */
static bool (*code_check)(u64 addr);

void dbg_bp_set_code_check(bool (*fn)(u64 addr))
{
	code_check = fn;
}

static bool is_code(u64 addr)
{
	const struct ekdb_port_ops *port = ekdb_port();

	if (code_check)
		return code_check(addr);
	if (port->text_addr)
		return port->text_addr(addr);
	return addr >= (u64)_text && addr < (u64)_etext;
}

static bool overlaps(u64 a, u64 alen, u64 start, u64 end)
{
	return ekdb_range_overlaps(a, alen, start, end);
}

/* The debugger's bss, less what it gave back (dbg_addr_release). */
static bool overlaps_bss(u64 a, u64 alen)
{
	u64 start = (u64)__ekdb_bss_start, end = (u64)__ekdb_bss_end;

	if (released_end > released_start)
		return overlaps(a, alen, start, released_start) ||
		       overlaps(a, alen, released_end, end);
	return overlaps(a, alen, start, end);
}

/*
 * dbg_addr_is_debugger - does [@addr, @addr + @len) touch the debugger's
 * own code, data or bss (or the other image's debugger code, in the
 * loader)?  Breakpoints, watchpoints and writes made for a user are
 * refused there: the debugger must not patch or corrupt itself.
 */
bool dbg_addr_is_debugger(u64 addr, u64 len)
{
	unsigned n = __atomic_load_n(&nobp_extra_n, __ATOMIC_ACQUIRE);

	for (unsigned i = 0; i < n; i++)
		if (overlaps(addr, len, nobp_extra[i].start, nobp_extra[i].end))
			return true;
	return overlaps(addr, len, nobp_start, nobp_end) ||
	       overlaps(addr, len, (u64)__ekdb_text_start, (u64)__ekdb_text_end) ||
	       overlaps(addr, len, (u64)__ekdb_data_start, (u64)__ekdb_data_end) ||
	       overlaps_bss(addr, len);
}

/*
 * dbg_addr_release - [@start, @end), part of the debugger's bss (the early
 * storage), was given to the kernel: it is ordinary memory from now on.
 */
void dbg_addr_release(u64 start, u64 end)
{
	released_start = start;
	released_end = end > start ? end : start;
}

void dbg_bp_set_jump_window(u64 start, u64 end)
{
	jump_window_start = start;
	jump_window_end = end > start ? end : start;
}

int dbg_bp_add_nobp_range(u64 start, u64 end)
{
	if (end <= start)
		return -EKDB_EINVAL;
	if (nobp_extra_n >= NOBP_EXTRA)
		return -EKDB_ENOSPC;
	nobp_extra[nobp_extra_n].start = start;
	nobp_extra[nobp_extra_n].end = end;
	/* a reader on another CPU (a stop while a CPU comes up) sees it whole */
	__atomic_store_n(&nobp_extra_n, nobp_extra_n + 1, __ATOMIC_RELEASE);
	return 0;
}

void dbg_bp_set_nobp_range(u64 start, u64 end)
{
	nobp_start = start;
	nobp_end = end > start ? end : start;
}

bool dbg_addr_in_jump_window(u64 addr, u64 len)
{
	return overlaps(addr, len, jump_window_start, jump_window_end);
}

static int find(enum ekdb_bp_type type, u64 addr)
{
	for (int i = 0; i < bp_cap; i++)
		if (bps[i].used && bps[i].type == type && bps[i].addr == addr)
			return i;
	return -1;
}

/*
 * A software breakpoint must be placeable: read the byte and write the same
 * byte back through the text-poke path (a fault there: not patchable).  No
 * break instruction goes in here: a CPU the round-up missed may be running
 * this very code, and an int3 that is no breakpoint yet would be a stray
 * trap for it (issue 19).  The int3 goes in when the table is armed.
 */
static int check_sw_address(u64 addr, u8 *orig)
{
	if (arch_dbg_probe_read(orig, addr, 1) != 1)
		return -EKDB_EFAULT;
	if (arch_dbg_text_poke(addr, orig, 1) != 1)
		return -EKDB_EFAULT;
	return 0;
}

int dbg_bp_set(enum ekdb_bp_type type, u64 addr, unsigned len, enum dbg_bp_owner owner)
{
	int slot = -1, i, err;
	u8 orig = 0;

	if (type > EKDB_BP_ACCESS)
		return -EKDB_EINVAL;
	if (type == EKDB_BP_SW || type == EKDB_BP_HW)
		len = 1;
	if (ekdb_range_wraps(addr, len))
		return -EKDB_ERANGE;	/* never continued at address 0 */
	if (type >= EKDB_BP_WRITE && !arch_hw_bp_len_ok(addr, len))
		return -EKDB_EINVAL;	/* x86: 1/2/4/8, naturally aligned */
	if (dbg_addr_in_jump_window(addr, len))
		return -EKDB_EJUMPWIN;	/* before the debugger's vectors: cannot fire */
	if (dbg_addr_is_debugger(addr, len))
		return -EKDB_EPERM;
	if (type == EKDB_BP_SW && !is_code(addr))
		return -EKDB_EFAULT;	/* an int3 belongs in code, not in data */
	if (type != EKDB_BP_SW && !arch_hw_bp_addr_ok(addr))
		return -EKDB_EFAULT;	/* no slot can hold it (x86: not canonical) */
	i = find(type, addr);
	if (i >= 0) {
		/* gdb re-sends Z for a breakpoint it already has: accept */
		if (bps[i].len != len)
			return -EKDB_EEXIST;
		bps[i].enabled = true;
		bps[i].owner |= owner;
		return i;
	}
	if (type == EKDB_BP_SW) {
		err = check_sw_address(addr, &orig);
		if (err)
			return err;
	} else {
		for (unsigned s = 0; s < ARCH_HW_BP_SLOTS; s++)
			if (hw_slot_owner[s] < 0) {
				slot = (int)s;
				break;
			}
		if (slot < 0)
			return -EKDB_ENOSPC;
	}
	for (i = 0; i < bp_cap; i++)
		if (!bps[i].used)
			break;
	if (i == bp_cap && dbg_bp_table_grow() < 0)
		return -EKDB_ENOSPC;
	bps[i] = (struct dbg_bp){ .used = true, .enabled = true, .type = type, .owner = owner,
				  .saved = orig, .slot = (s8)slot, .planted = bp_lifetime,
				  .len = len, .addr = addr };
	if (slot >= 0)
		hw_slot_owner[slot] = i;
	return i;
}

int dbg_bp_clear_index(int i)
{
	if (i < 0 || i >= bp_cap || !bps[i].used)
		return -EKDB_ENOENT;
	if (bps[i].installed && bps[i].type == EKDB_BP_SW)
		arch_dbg_text_poke(bps[i].addr, &bps[i].saved, 1);
	if (bps[i].slot >= 0)	/* every CPU drops it when it next loads the armed set */
		hw_slot_owner[bps[i].slot] = -1;
	memset(&bps[i], 0, sizeof(bps[i]));
	return 0;
}

int dbg_bp_remove(enum ekdb_bp_type type, u64 addr, unsigned len)
{
	return dbg_bp_clear_index(find(type, addr));
}

int dbg_bp_enable_index(int i, bool enable)
{
	if (i < 0 || i >= bp_cap || !bps[i].used)
		return -EKDB_ENOENT;
	bps[i].enabled = enable;
	return 0;
}

void dbg_bp_remove_owner(enum dbg_bp_owner owner)
{
	for (int i = 0; i < bp_cap; i++) {
		if (!bps[i].used || !(bps[i].owner & owner))
			continue;
		bps[i].owner &= ~owner;
		if (!bps[i].owner)
			dbg_bp_clear_index(i);
	}
}

const struct dbg_bp *dbg_bp_get(int i)
{
	if (i < 0 || i >= bp_cap || !bps[i].used)
		return NULL;
	return &bps[i];
}

/* Publish the enabled hardware entries as the armed set (machine stopped, master only). */
static void hw_publish(void)
{
	struct arch_hw_bp_slot slots[ARCH_HW_BP_SLOTS] = { 0 };

	for (int i = 0; i < bp_cap; i++) {
		const struct dbg_bp *b = &bps[i];

		if (!b->used || !b->enabled || b->type == EKDB_BP_SW)
			continue;
		slots[b->slot] = (struct arch_hw_bp_slot){ .on = true, .type = b->type,
							   .len = b->len, .addr = b->addr };
	}
	arch_hw_bp_arm(slots);
}

void dbg_bp_install_all(u64 skip)
{
	u8 insn = ARCH_BREAK_INSN;

	for (int i = 0; i < bp_cap; i++) {
		struct dbg_bp *b = &bps[i];

		if (!b->used || !b->enabled || b->installed)
			continue;
		if (b->type != EKDB_BP_SW) {
			b->installed = true;	/* in the armed set, loaded by every CPU */
			continue;
		}
		if (b->addr == skip)
			continue;
		if (arch_dbg_probe_read(&b->saved, b->addr, 1) == 1 &&
		    arch_dbg_text_poke(b->addr, &insn, 1) == 1)
			b->installed = true;
	}
	hw_publish();
	arch_hw_bp_load();
}

/*
 * dbg_bp_drop_reentered - entry @i hit inside the debugger: take it out of
 * the table (its original byte back) and, when the armed hardware set held
 * it, publish the set without it and load that on this CPU (the others drop
 * it when their stale slot fires: dbg_trap_debug).  0 or -EKDB_ENOENT.
 */
int dbg_bp_drop_reentered(int i)
{
	bool rearm = i >= 0 && i < bp_cap && bps[i].used && bps[i].installed &&
		     bps[i].type != EKDB_BP_SW;
	int err = dbg_bp_clear_index(i);

	if (!err && rearm) {
		hw_publish();
		arch_hw_bp_load();
	}
	return err;
}

/*
 * dbg_bp_all_off - the debugger gives up: every breakpoint out of the text,
 * this CPU's slots off, and an empty armed set for every CPU that loads it.
 * The table itself is kept (nothing serves it any more).
 */
void dbg_bp_all_off(void)
{
	struct arch_hw_bp_slot none[ARCH_HW_BP_SLOTS] = { 0 };

	dbg_bp_uninstall_all();
	arch_hw_bp_arm(none);
}

void dbg_bp_uninstall_all(void)
{
	arch_hw_bp_disarm();
	for (int i = 0; i < bp_cap; i++) {
		struct dbg_bp *b = &bps[i];

		if (!b->used || !b->installed)
			continue;
		if (b->type == EKDB_BP_SW)
			arch_dbg_text_poke(b->addr, &b->saved, 1);
		b->installed = false;
	}
}

int dbg_bp_find_sw(u64 addr)
{
	return find(EKDB_BP_SW, addr);
}

int dbg_bp_find_slot(unsigned slot)
{
	return slot < ARCH_HW_BP_SLOTS ? hw_slot_owner[slot] : -1;
}

void dbg_bp_hit(int i)
{
	if (i >= 0 && i < bp_cap && bps[i].used)
		bps[i].hits++;
}

int dbg_bp_capacity(void)
{
	return bp_cap;
}

/*
 * dbg_bp_table_move - the table now lives in @tab (@cap entries, at least
 * the current count); entries keep their numbers and their installed
 * state (int3s stay in the text, DR slots stay live).  Later growth asks
 * @grow for a bigger copy.  Called with the machine to itself (the
 * handoff, or the debugger while stopped).
 */
void dbg_bp_table_move(struct dbg_bp *tab, int cap,
		       struct dbg_bp *(*grow)(const struct dbg_bp *old, int old_cap, int *new_cap))
{
	if (tab && cap >= bp_cap && tab != bps) {
		memcpy(tab, bps, sizeof(*bps) * (size_t)bp_cap);
		memset(tab + bp_cap, 0, sizeof(*bps) * (size_t)(cap - bp_cap));
		bps = tab;
		bp_cap = cap;
	}
	bp_grow = grow;
}

/*
 * dbg_bp_table_fresh - an empty table in @tab (@cap entries): the debugger
 * starts after the boot (kgdboc written at run time); the old table lived
 * in the released early storage and is not read.
 */
void dbg_bp_table_fresh(struct dbg_bp *tab, int cap,
			struct dbg_bp *(*grow)(const struct dbg_bp *old, int old_cap, int *new_cap))
{
	if (!tab || cap <= 0)
		return;
	memset(tab, 0, sizeof(*tab) * (size_t)cap);
	bps = tab;
	bp_cap = cap;
	bp_grow = grow;
}

/*
 * dbg_bp_restore - put the handed-over entry @b at number @i (the loader's
 * table taken over at the jump): a hardware entry gets its slot back, a
 * software one keeps its installed state and saved byte (the int3 is in
 * the text already).  0, -EKDB_ERANGE (number beyond the table),
 * -EKDB_EEXIST (number or slot taken), -EKDB_EINVAL (bad entry).
 */
int dbg_bp_restore(int i, const struct dbg_bp *b)
{
	if (i < 0 || i >= bp_cap)
		return -EKDB_ERANGE;
	if (bps[i].used)
		return -EKDB_EEXIST;
	if (!b->used || b->type > EKDB_BP_ACCESS || !b->owner ||
	    (b->owner & ~(DBG_OWNER_GDB | DBG_OWNER_KDB)))
		return -EKDB_EINVAL;
	if (b->type == EKDB_BP_SW) {
		if (b->slot != -1 || b->len != 1)
			return -EKDB_EINVAL;
	} else {
		if (b->slot < 0 || b->slot >= ARCH_HW_BP_SLOTS)
			return -EKDB_EINVAL;
		if (b->type == EKDB_BP_HW ? b->len != 1 : !arch_hw_bp_len_ok(b->addr, b->len))
			return -EKDB_EINVAL;
		if (!arch_hw_bp_addr_ok(b->addr))
			return -EKDB_EINVAL;
		if (hw_slot_owner[b->slot] >= 0)
			return -EKDB_EEXIST;
		hw_slot_owner[b->slot] = i;
	}
	bps[i] = *b;
	return 0;
}

/* A full table: ask the lifetime for a bigger one.  0 or -EKDB_ENOSPC. */
int dbg_bp_table_grow(void)
{
	struct dbg_bp *tab;
	int cap = 0;

	if (!bp_grow)
		return -EKDB_ENOSPC;
	tab = bp_grow(bps, bp_cap, &cap);
	if (!tab || cap <= bp_cap)
		return -EKDB_ENOSPC;
	bps = tab;			/* the grower copied the entries */
	bp_cap = cap;
	return 0;
}
