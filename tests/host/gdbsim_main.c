/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gdbsim_main.c - serve the simulated target to a real gdb over
 * stdin/stdout:  gdb -ex 'target remote | build/host/gdbsim'.
 * Continue "hits" the lowest software breakpoint, else the first
 * watchpoint, else waits for Ctrl-C; step advances rip by one.
 * Options: --no-monitor (a session without a monitor interpreter), --threads N.
 */
#include <ekdb/gdbstub.h>
#include <ekdb/errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sim_target.h"

#define GDBSIM_BUFSIZE	4096

static char inbuf[GDBSIM_BUFSIZE], outbuf[GDBSIM_BUFSIZE];
static u8 obuf[65536];
static size_t olen;

static int io_getc(void *arg)
{
	unsigned char c;
	ssize_t n = read(0, &c, 1);

	return n == 1 ? c : EKDB_CHAN_EOF;
}

static void io_flush(void *arg)
{
	size_t off = 0;
	ssize_t n;

	while (off < olen) {
		n = write(1, obuf + off, olen - off);
		if (n <= 0)
			exit(1);
		off += (size_t)n;
	}
	olen = 0;
}

static void io_putc(void *arg, u8 c)
{
	if (olen == sizeof(obuf))
		io_flush(arg);
	obuf[olen++] = c;
}

static const struct ekdb_chan io_chan = { .getc = io_getc, .putc = io_putc, .flush = io_flush };

/* Wait for gdb's Ctrl-C (0x03); false on EOF. */
static bool wait_for_break(void)
{
	int c;

	while ((c = io_getc(NULL)) != EKDB_CHAN_EOF)
		if (c == 0x03)
			return true;
	return false;
}

/* Decide where a "continue" stops in the simulation. */
static bool sim_continue(struct sim_target *sim, struct ekdb_stop *st)
{
	struct arch_dbg_state *r = &sim->regs[sim->current];
	u64 best = 0;
	bool found = false;
	int i;

	for (i = 0; i < SIM_MAX_SW_BPS; i++) {
		if (sim->sw[i].used && sim->sw[i].addr > r->rip && (!found || sim->sw[i].addr < best)) {
			best = sim->sw[i].addr;
			found = true;
		}
	}
	if (found) {
		r->rip = best;
		st->reason = EKDB_STOP_SWBREAK;
		return true;
	}
	for (i = 0; i < SIM_HW_SLOTS; i++) {
		if (!sim->hw[i].used)
			continue;
		if (sim->hw[i].type == EKDB_BP_HW) {
			r->rip = sim->hw[i].addr;
			st->reason = EKDB_STOP_HWBREAK;
		} else {
			u8 *m = sim_target_mem(sim, sim->hw[i].addr);

			/* gdb ignores a write watchpoint whose value did not change */
			if (m && sim->hw[i].type == EKDB_BP_WRITE)
				(*m)++;
			r->rip += 3;
			st->reason = sim->hw[i].type == EKDB_BP_WRITE ? EKDB_STOP_WATCH :
				     sim->hw[i].type == EKDB_BP_READ ? EKDB_STOP_RWATCH :
				     EKDB_STOP_AWATCH;
			st->watch_addr = sim->hw[i].addr;
		}
		return true;
	}
	st->reason = EKDB_STOP_INTERRUPT;
	st->signal = 2;
	return wait_for_break();
}

int main(int argc, char **argv)
{
	static struct sim_target sim;
	struct gdb_session s;
	struct ekdb_stop st = { .reason = EKDB_STOP_ENTRY, .signal = 5, .vector = 3,
				.thread = 1, .bp_index = -1 };
	struct ekdb_resume res;
	bool announce = false;
	int i, threads = 2;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--threads") && i + 1 < argc)
			threads = atoi(argv[++i]);
	}
	sim_target_init(&sim, threads);
	if (gdb_session_init(&s, &sim.t, &io_chan, inbuf, outbuf, sizeof(inbuf)))
		return 1;
	gdb_session_set_monitor(&s, sim_monitor, &sim);
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--no-monitor"))
			gdb_session_set_monitor(&s, NULL, NULL);
	for (;;) {
		res = gdb_session_run(&s, &st, announce);
		if (res.set_pc)
			sim.regs[sim.current].rip = res.pc;
		memset(&st, 0, sizeof(st));
		st.thread = (u64)sim.current + 1;
		st.bp_index = -1;
		announce = true;
		switch (res.action) {
		case EKDB_RESUME_EOF:
			return 0;
		case EKDB_RESUME_STEP:
			sim.regs[sim.current].rip += 1;
			st.reason = EKDB_STOP_STEP;
			break;
		case EKDB_RESUME_CONTINUE:
			if (!sim_continue(&sim, &st))
				return 0;
			break;
		case EKDB_RESUME_DETACH:
		case EKDB_RESUME_KILL:
		case EKDB_RESUME_TO_KDB:
		default:
			/* gdb is gone: keep serving until the pipe closes */
			announce = false;
			st.reason = EKDB_STOP_ENTRY;
			break;
		}
	}
}
