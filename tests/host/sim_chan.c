/* SPDX-License-Identifier: GPL-2.0 */
/* sim_chan.c - scripted byte channel with captured output, for host tests. */
#include "sim_chan.h"
#include <ekdb/string.h>

static int sim_getc(void *arg)
{
	struct sim_chan *c = arg;

	c->getc_calls++;
	if (c->budget_spent)		/* Ctrl-C, again and again, then the line closes */
		return c->ctrlc_left && c->ctrlc_left-- ? 0x03 : EKDB_CHAN_EOF;
	if (c->out_budget && c->out_total + c->getc_calls >= c->out_budget) {
		c->budget_spent = true;
		c->in_pos = c->in_len;		/* stops typing */
		c->ctrlc_left = SIM_CHAN_CTRLC_READS - 1;
		return 0x03;
	}
	if (c->in_pos >= c->in_len) {
		/* a budget: the input's end is a quiet line for a while (a poll
		 * while output runs must not close the channel), then Ctrl-C */
		if (!c->out_budget)
			return EKDB_CHAN_EOF;
		if (++c->idle_calls < SIM_CHAN_IDLE_POLLS)
			return EKDB_NO_CHAR;
		c->budget_spent = true;
		c->ctrlc_left = SIM_CHAN_CTRLC_READS - 1;
		return 0x03;
	}
	/* never twice in a row, so nochar_every = 1 cannot stall the reader */
	if (c->nochar_every && c->getc_calls % MAX(c->nochar_every, 2u) == 0)
		return EKDB_NO_CHAR;
	return c->in[c->in_pos++];
}

static void sim_putc(void *arg, u8 ch)
{
	struct sim_chan *c = arg;

	c->out_total++;
	if (c->out_len >= SIM_CHAN_OUT_MAX) {
		c->out_overflow = true;
		return;
	}
	c->out[c->out_len++] = (char)ch;
	c->out[c->out_len] = '\0';
}

static void sim_flush(void *arg)
{
	struct sim_chan *c = arg;

	c->flushes++;
}

void sim_chan_init(struct sim_chan *c)
{
	/* not the 256 KiB capture buffer: keeps fuzzing fast */
	memset(c, 0, offsetof(struct sim_chan, out));
	c->out[0] = '\0';
	c->out_len = 0;
	c->out_overflow = false;
	c->flushes = 0;
	c->out_budget = 0;
	c->out_total = 0;
	c->budget_spent = false;
	c->idle_calls = 0;
	c->ctrlc_left = 0;
	c->chan.getc = sim_getc;
	c->chan.putc = sim_putc;
	c->chan.flush = sim_flush;
	c->chan.arg = c;
}

void sim_chan_feed(struct sim_chan *c, const void *in, size_t len)
{
	c->in = in;
	c->in_len = len;
	c->in_pos = 0;
}

void sim_chan_feed_str(struct sim_chan *c, const char *in)
{
	sim_chan_feed(c, in, strlen(in));
}

void sim_chan_clear_output(struct sim_chan *c)
{
	c->out_len = 0;
	c->out[0] = '\0';
	c->out_overflow = false;
}
