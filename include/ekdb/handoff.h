/* SPDX-License-Identifier: GPL-2.0 */
/*
 * handoff.h - what the debugger hands over at the first of its two
 * handoffs (docs/handoff.md has both): the loader's debugger to the
 * kernel's, across the jump from the UEFI loader (one session, three
 * lifetimes).  The second, early -> full inside the kernel, moves the
 * running core's own structures (core/late/init.c) and needs no record.
 *
 * The loader's debugger fills a struct ekdb_handoff (core/handoff.c,
 * dbg_handoff_export()) inside the boot-info record (bootinfo->dbg) as its
 * last act before the jump; the kernel takes it over in
 * x86_64_start_kernel() (early/handoff.c) before start_kernel() runs.
 * What travels:
 *  - the breakpoint table: every entry at its number (kdb's `bl` numbers
 *    stay), software ones with the original byte under the int3 (the
 *    loader has already planted those in the kernel image), hardware
 *    ones with their slot (the kernel re-arms DR0-3/DR7 from them: the
 *    loader leaves DR7 = 0 at the jump, so nothing can fire in between);
 *  - the transport: which 16550 (I/O base, baud) and the bytes read and
 *    not consumed; the kernel drives the line as it is, no reset;
 *  - the session: gdb attached or not, no-ack mode, the features gdb
 *    announced, whether gdb owns the line and waits for a stop reply
 *    (after `continue` or `step` at the loader's stop); or the kdb
 *    session's history, environment and cmd_enable.
 * Addresses are the run-time addresses (KASLR applied), as gdb sees them.
 *
 * Shared by the loader (GNU-EFI) and the kernel: fixed-width types only.
 * The record is self-describing (magic, version, size); a record with
 * magic 0 means "nothing handed over"; any other malformed record is refused
 * as a whole (the kernel logs why; the debugger stays off; boot goes on).
 */
#ifndef EKDB_HANDOFF_H
#define EKDB_HANDOFF_H

#ifdef _LINUX_TYPES_H
#include <linux/types.h>	/* Linux's side of its port (linux/glue/): the same types */
#else
#include <stdint.h>
#endif

#define EKDB_HANDOFF_MAGIC	0x464f444e48424445ULL	/* "EDBHNDOF" little endian */
#define EKDB_HANDOFF_VERSION	1

#define EKDB_HANDOFF_BPS		32	/* entries handed over (the early table's size) */
#define EKDB_HANDOFF_PENDING_MAX	64	/* unread line bytes handed over (here and in
					   struct ekdb_transport_state at the late handoff) */
#define EKDB_HANDOFF_HIST		8	/* kdb history lines (the early ring's size) */
#define EKDB_HANDOFF_LINE		256	/* longest kdb line, NUL included */
#define EKDB_HANDOFF_ENV		32	/* kdb environment slots */
#define EKDB_HANDOFF_ENV_LEN	80	/* longest "NAME=VALUE", NUL included */

/* ekdb_handoff_bp.flags */
#define EKDB_HANDOFF_BP_USED	0x01
#define EKDB_HANDOFF_BP_ENABLED	0x02
#define EKDB_HANDOFF_BP_INSTALLED	0x04	/* int3 in memory / in the armed slot set at the jump */

struct ekdb_handoff_bp {
	uint64_t addr;		/* run-time address */
	uint64_t hits;
	uint8_t flags;		/* EKDB_HANDOFF_BP_* */
	uint8_t type;		/* enum ekdb_bp_type */
	uint8_t owner;		/* 1 gdb, 2 kdb (bit mask) */
	uint8_t saved;		/* original byte under the int3 (software) */
	int8_t slot;		/* hardware slot 0..3, -1 for software */
	uint8_t len;		/* 1, 2, 4 or 8 */
	uint8_t pad[2];
};

/* ekdb_handoff_line.kind */
#define EKDB_HANDOFF_LINE_NONE	0	/* no transport (refused: no line to hand a session over on) */
#define EKDB_HANDOFF_LINE_16550	1	/* a 16550 at an I/O port */

struct ekdb_handoff_line {
	uint32_t kind;		/* EKDB_HANDOFF_LINE_* */
	uint16_t base;		/* I/O port: 0x3f8 ttyS0, 0x2f8 ttyS1, ... */
	uint16_t npending;	/* bytes in pending[] */
	uint32_t baud;		/* 300..115200: the divisor already programmed */
	uint32_t pad;
	uint8_t pending[EKDB_HANDOFF_PENDING_MAX];	/* read, not consumed, oldest first */
};

/* ekdb_handoff_gdb.flags */
#define EKDB_HANDOFF_GDB_CONNECTED	0x01	/* gdb has spoken since it attached */
#define EKDB_HANDOFF_GDB_OWNS_LINE	0x02	/* stops go to gdb (not to kdb) */
#define EKDB_HANDOFF_GDB_NO_ACK		0x04	/* QStartNoAckMode accepted */
#define EKDB_HANDOFF_GDB_SWBREAK		0x08	/* gdb announced swbreak+ */
#define EKDB_HANDOFF_GDB_HWBREAK		0x10	/* gdb announced hwbreak+ */
#define EKDB_HANDOFF_GDB_BINARY_UPLOAD	0x20	/* gdb announced binary-upload+ */

/* ekdb_handoff_gdb.waiting: what the user's last resume asked (gdb waits for a stop reply) */
#define EKDB_HANDOFF_RUN_CONTINUE	0	/* c / go: the next stop is announced */
#define EKDB_HANDOFF_RUN_STEP	1	/* s / ss: not handed over across the jump (refused) */

struct ekdb_handoff_gdb {
	uint32_t flags;		/* EKDB_HANDOFF_GDB_* */
	uint32_t waiting;	/* EKDB_HANDOFF_RUN_* */
};

struct ekdb_handoff_kdb {
	uint32_t cmd_enable;	/* kdb.cmd_enable in force at the loader's stop */
	uint32_t nhist;		/* lines in hist[], oldest first */
	char hist[EKDB_HANDOFF_HIST][EKDB_HANDOFF_LINE];
	char env[EKDB_HANDOFF_ENV][EKDB_HANDOFF_ENV_LEN];	/* "" = free slot */
};

struct ekdb_handoff {
	uint64_t magic;		/* EKDB_HANDOFF_MAGIC, or 0: nothing handed over */
	uint32_t version;	/* EKDB_HANDOFF_VERSION */
	uint32_t size;		/* sizeof(struct ekdb_handoff) */
	uint32_t nbps;		/* entries used in bp[] (numbers 0..nbps-1) */
	uint32_t pad;
	struct ekdb_handoff_line line;
	struct ekdb_handoff_gdb gdb;
	struct ekdb_handoff_kdb kdb;
	struct ekdb_handoff_bp bp[EKDB_HANDOFF_BPS];
};

/*
 * The kernel image tells the loader where its jump window is (the code
 * from _start to the debugger's takeover, in which no breakpoint can fire)
 * and where its own debugger code is (no breakpoints there either): a
 * struct ekdb_kinfo in the ELF section ".ekdb_kinfo" of kernel.elf (symbol
 * ekdb_kinfo), holding link addresses (the loader adds its KASLR offset,
 * or reads the placed, relocated copy).  The loader's debugger passes them
 * to ekdb_set_jump_window() and ekdb_set_nobp_range() (<ekdb/ekdb.h>).
 */
#define EKDB_KINFO_MAGIC	0x4f464e494b424445ULL	/* "EDBKINFO" little endian */

struct ekdb_kinfo {
	uint64_t magic;		/* EKDB_KINFO_MAGIC */
	uint64_t window_start;	/* __jump_window_start (= _start) */
	uint64_t window_end;	/* __jump_window_end: first address after the takeover call */
	uint64_t nobp_start;	/* __ekdb_text_start: the kernel's debugger code ... */
	uint64_t nobp_end;	/* __ekdb_text_end: ... where no breakpoint may go either */
};

#endif /* EKDB_HANDOFF_H */
