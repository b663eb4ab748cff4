/* SPDX-License-Identifier: GPL-2.0 */
/* cmd_monitor.c - gdb "monitor" (qRcmd): one kdb command, output as O packets. */
#include "gdb_int.h"

/* Longest monitor command line (decoded). */
#define GDB_MONITOR_MAX	256

static void monitor_out(void *arg, const char *text, size_t len)
{
	gdb_stream_console(arg, text, len);
}

/**
 * gdb_cmd_monitor - "qRcmd,<hex command>".  Output streams as "O" packets
 * while the command runs; the final reply is OK or Enn.
 */
void gdb_cmd_monitor(struct gdb_session *s, const char *a, size_t len)
{
	static const char nokdb[] =
		"monitor commands are not available until kdb is built in\n";
	char cmd[GDB_MONITOR_MAX];
	long n;
	int r;

	if (len / 2 >= sizeof(cmd))
		return tx_err(s, -EKDB_E2BIG);
	n = hex_decode(cmd, a, len);
	if (n < 0)
		return tx_err(s, (int)n);
	cmd[n] = '\0';
	if (memchr(cmd, '\0', (size_t)n))
		return tx_err(s, -EKDB_EINVAL);
	if (!s->monitor) {
		gdb_stream_console(s, nokdb, sizeof(nokdb) - 1);
		return tx_ok(s);
	}
	r = s->monitor(s->monitor_arg, cmd, monitor_out, s);
	if (r < 0)
		return tx_err(s, r);
	tx_ok(s);
}
