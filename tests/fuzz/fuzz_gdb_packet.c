/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_gdb_packet.c - libFuzzer target: arbitrary bytes as the channel
 * input of a gdb session over the sim target.  The first byte picks the
 * buffer size and how often the channel reports "no byte yet"; the rest
 * is the wire.  The session is re-entered after every resume, as the core
 * would, until the input runs out.
 */
#include <ekdb/gdbstub.h>
#include <stdint.h>
#include <stddef.h>
#include "sim_target.h"
#include "sim_chan.h"

/* Each resume re-enters the session; bounded so one input cannot loop forever. */
#define FUZZ_MAX_ENTRIES	4096

static struct sim_target sim;
static struct sim_chan ch;
static char inbuf[8192], outbuf[8192];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t sizes[] = { GDB_MIN_BUFSIZE, 4096, 8192 };
	struct ekdb_stop stop = { .reason = EKDB_STOP_ENTRY, .signal = 5, .thread = 1,
				  .bp_index = -1 };
	struct gdb_session s;
	struct ekdb_resume r;
	unsigned mode;
	int i;

	if (!size)
		return 0;
	mode = data[0];
	sim_target_init(&sim, 1 + (mode >> 5));
	sim_chan_init(&ch);
	ch.nochar_every = (mode >> 2) & 3;
	sim_chan_feed(&ch, data + 1, size - 1);
	if (gdb_session_init(&s, &sim.t, &ch.chan, inbuf, outbuf, sizes[(mode & 3) % 3]))
		__builtin_trap();
	if (!(mode & 0x10))
		gdb_session_set_monitor(&s, sim_monitor, &sim);
	for (i = 0; i < FUZZ_MAX_ENTRIES; i++) {
		r = gdb_session_run(&s, &stop, true);
		if (r.action == EKDB_RESUME_EOF)
			break;
		stop.reason = (enum ekdb_stop_reason)(i % (EKDB_STOP_SYSRQ + 1));
		stop.watch_addr = 0x1000 + (u64)i;
		/* announce output must be framed; captured output must not overflow its buffer */
		if (ch.out_len > SIM_CHAN_OUT_MAX / 2)
			sim_chan_clear_output(&ch);
	}
	return 0;
}
