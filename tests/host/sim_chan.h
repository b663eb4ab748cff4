/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_chan.h - a scripted struct ekdb_chan for host tests: input bytes
 * come from a script (optionally interleaved with EKDB_NO_CHAR to mimic
 * bytes arriving in pieces), EKDB_CHAN_EOF after the script, output is
 * captured.  Reusable by kdb tests.
 */
#ifndef TESTS_SIM_CHAN_H
#define TESTS_SIM_CHAN_H

#include <ekdb/transport.h>

#define SIM_CHAN_OUT_MAX	(256 * 1024)
#define SIM_CHAN_IDLE_POLLS	256
#define SIM_CHAN_CTRLC_READS	128	/* more than the typeahead's lines */

struct sim_chan {
	struct ekdb_chan chan;		/* hand &c->chan to the code under test */
	const u8 *in;
	size_t in_len, in_pos;
	unsigned nochar_every;		/* >0: EKDB_NO_CHAR on every Nth call (1 acts as 2) */
	unsigned long getc_calls;
	char out[SIM_CHAN_OUT_MAX + 1];	/* NUL-terminated capture */
	size_t out_len;
	bool out_overflow;
	unsigned flushes;
	/*
	 * >0: once the code under test has written plus polled this many
	 * bytes in all (clear_output does not reset the count), the user
	 * stops typing and presses Ctrl-C: the next SIM_CHAN_CTRLC_READS reads
	 * give Ctrl-C, every later one EKDB_CHAN_EOF.  Past the end of the
	 * script the line is quiet (EKDB_NO_CHAR) for SIM_CHAN_IDLE_POLLS
	 * reads, then the same Ctrl-Cs, then EOF: a poll while output runs
	 * does not close the channel.  Bounds the work of one fuzz input (`md
	 * 0 1000000` and a keyboard full of spaces, or the same behind `|
	 * grep`, where only the Ctrl-C poll reads).  Not one Ctrl-C: it stops
	 * one command, and the lines still in the typeahead run after it
	 * (defcmd macros calling each other behind a more> search that finds
	 * nothing ran 10 s after it, nobody reading: kdb stops polling at EOF).
	 */
	size_t out_budget;
	bool budget_spent;
	unsigned idle_calls;
	unsigned ctrlc_left;		/* Ctrl-Cs still to give once spent */
	size_t out_total;
};

/** sim_chan_init - empty script, empty capture. */
void sim_chan_init(struct sim_chan *c);
/** sim_chan_feed - replace the script with @len bytes at @in (not copied). */
void sim_chan_feed(struct sim_chan *c, const void *in, size_t len);
/** sim_chan_feed_str - sim_chan_feed of a C string. */
void sim_chan_feed_str(struct sim_chan *c, const char *in);
/** sim_chan_clear_output - forget captured output. */
void sim_chan_clear_output(struct sim_chan *c);

#endif
