/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_kdb_line.c - libFuzzer target: arbitrary bytes typed at the kdb
 * prompt over the sim target.  The first byte picks the number of CPUs,
 * LINES (24 or 60), cmd_enable and how often the channel says "no
 * byte yet"; the rest is the keyboard.  The session is re-entered after
 * every resume (go, ss, kgdb), as the core would, until the input ends.
 * The initial command file runs first, so defcmd macros are reachable.
 * After FUZZ_OUT_BUDGET bytes written and read the user stops typing and
 * presses Ctrl-C (sim_chan.h), so one input costs milliseconds, not `md 0
 * 1000000` in full.  Those Ctrl-Cs can all be read at the prompt while the
 * lines still in the typeahead run: defcmd macros that call each other
 * then printed 2 MB (40 ms natively, 10 s behind a more> search that hid
 * every line).  A user would press Ctrl-C again; the script unplugs the
 * line instead: past FUZZ_OUT_CAP bytes written plus reads, the input ends
 * there (longjmp back here; all is set up afresh for the next one).
 */
#include <ekdb/kdb.h>
#include <setjmp.h>
#include <stdint.h>
#include <stddef.h>
#include "sim_target.h"
#include "sim_chan.h"

#define FUZZ_MAX_ENTRIES	256
#define FUZZ_OUT_BUDGET		(4 * 1024)	/* then Ctrl-C: see sim_chan.h */
#define FUZZ_OUT_CAP		(16 * 1024)	/* then the line is unplugged */

static struct sim_target sim;
static struct sim_chan ch;
static struct kdb_session s;
static jmp_buf unplugged;
static void (*sim_putc)(void *arg, u8 c);
static int (*sim_getc)(void *arg);

static void over_cap(void)
{
	if (ch.out_total + ch.getc_calls >= FUZZ_OUT_CAP)
		longjmp(unplugged, 1);
}

static void capped_putc(void *arg, u8 c)
{
	over_cap();
	sim_putc(arg, c);
}

static int capped_getc(void *arg)
{
	over_cap();
	return sim_getc(arg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const u32 masks[] = { KDB_ENABLE_ALL, 0, KDB_ENABLE_MEM_READ | KDB_ENABLE_INSPECT, 0x1fe };
	struct ekdb_stop stop = { .reason = EKDB_STOP_ENTRY, .signal = 5, .thread = 1,
				  .bp_index = -1, .vector = -1 };
	struct ekdb_resume r;
	unsigned mode;

	if (!size)
		return 0;
	mode = data[0];
	sim_target_init(&sim, 1 + (mode & 1));
	sim_target_setup_frames(&sim);
	sim_chan_init(&ch);
	ch.nochar_every = (mode >> 5) & 3;
	if (kdb_session_init(&s, &sim.t, &ch.chan))
		__builtin_trap();
	kdb_session_set_host(&s, &sim.host);
	kdb_run_cmds(&s, kdb_builtin_cmds);
	s.cmd_enable = masks[(mode >> 1) & 3];
	if (mode & 8)
		kdb_run_cmds(&s, "set LINES 60\n");
	sim_chan_clear_output(&ch);
	ch.out_total = 0;
	ch.getc_calls = 0;
	ch.out_budget = FUZZ_OUT_BUDGET;
	sim_chan_feed(&ch, data + 1, size - 1);
	sim_putc = ch.chan.putc;
	sim_getc = ch.chan.getc;
	ch.chan.putc = capped_putc;
	ch.chan.getc = capped_getc;
	if (setjmp(unplugged))
		return 0;
	for (int i = 0; i < FUZZ_MAX_ENTRIES; i++) {
		r = kdb_session_run(&s, &stop, true);
		if (r.action == EKDB_RESUME_EOF)
			break;
		stop.reason = r.action == EKDB_RESUME_STEP ? EKDB_STOP_STEP :
			      (enum ekdb_stop_reason)(i % (EKDB_STOP_SYSRQ + 1));
		stop.bp_index = (i & 1) ? 0 : -1;
		if (ch.out_len > SIM_CHAN_OUT_MAX / 2)
			sim_chan_clear_output(&ch);
	}
	return 0;
}
